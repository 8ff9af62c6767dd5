"""Game night in a real browser: three phones finish a Danger Zone game, the host taps "play
again" with Blackmail and every phone shows the Blackmail table by itself; and a host whose
device is gone is replaced by another device that types the recovery code."""

import json
import time

import pytest

from browser_steps import sit_down, start_table

pytest.importorskip("playwright.sync_api")

# How soon the phones follow is measured by bench/follow_latency.py, not asserted here: a
# time limit fails on a busy machine while the app is right.


def post(page, kind, **fields):
    """Post one action as this page's viewer, as its forms do (its cookie, its form token)."""
    base, code = page.url.split("/t/")[0], page.url.split("/")[-2]
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(
        f"{base}/t/{code}/act/{kind}",
        form={"csrf": token, **fields},
        headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": base},
    )
    assert response.status == 200, (kind, fields, response.text()[:300])


def state_of(page):
    base, code = page.url.split("/t/")[0], page.url.split("/")[-2]
    return page.request.get(f"{base}/t/{code}/state.json").json()


def finish_danger_zone(host, phones, winner):
    """Setup and round 1 through the phones' own cookies, then the winner reaches 20."""
    for phone, character in zip(phones, ("Archer", "Lana", "Pam")):
        post(phone, "character.pick", seat=str(state_of(phone)["viewer"]["seat"]), character=character)
    post(host, "locations.draw")
    post(host, "initiative.roll")
    seats = [s["id"] for s in state_of(host)["state"]["seats"]]
    post(host, "order.confirm", order=",".join(map(str, seats)))
    post(host, "round.next", to=state_of(host)["state"]["next_step"])
    post(winner, "upper_hand.change", seat=str(state_of(winner)["viewer"]["seat"]), delta="15")


def seat_everyone(live_server, new_phone, names=("Ana", "Bo", "Cy")):
    host = new_phone()
    code = start_table(host, live_server.url, "danger-zone")
    phones = [new_phone(color_scheme=scheme) for scheme in ("dark", "light", "dark")]
    for phone, name in zip(phones, names):
        sit_down(phone, f"{live_server.url}/t/{code}", name)
    return host, code, phones


def test_play_again_moves_every_phone_to_the_next_table_by_itself(live_server, new_phone):
    host, old, phones = seat_everyone(live_server, new_phone)
    finish_danger_zone(host, phones, phones[1])
    host.wait_for_selector(".night-again")  # the end of the game offers the next one, live
    for phone in phones:
        phone.wait_for_selector("[data-winner]")

    shown = []  # (phone, address, when its page was there): noted as it happens, not polled
    for n, phone in enumerate(phones):
        phone.on("domcontentloaded", lambda page, n=n: shown.append((n, page.url, time.monotonic())))
    tapped = time.monotonic()
    host.click(".night-again button[value=blackmail]")
    host.wait_for_url(lambda url: url.endswith("/host") and old not in url)
    new = host.url.split("/")[-2]
    assert new != old
    for phone in phones:  # nobody touches the phones
        phone.wait_for_url(f"**/t/{new}/me", timeout=5000)
        phone.wait_for_selector(".bm", timeout=5000)
    arrived = {n: when - tapped for n, url, when in shown if f"/t/{new}/me" in url}
    assert sorted(arrived) == [0, 1, 2], shown  # each phone loaded the new table, by itself
    for phone, name in zip(phones, ("Ana", "Bo", "Cy")):
        assert "Blackmail" in phone.inner_text(".bar-info")
        assert name in phone.inner_text("section.me")

    # The night page shows both games, the first with its winner.
    host.goto(f"{live_server.url}/t/{new}/night")
    games = host.locator(".night-game")
    assert games.count() == 2
    assert "Danger Zone" in games.nth(0).inner_text() and "Won by Bo" in games.nth(0).inner_text()
    assert "Blackmail" in games.nth(1).inner_text()
    assert host.locator(".night-table tbody tr").first.locator("th").inner_text() == "Bo"

    # A phone that was away (its page closed) follows when it opens the old table again.
    later = phones[0].context.new_page()
    later.goto(f"{live_server.url}/t/{old}/me")
    later.wait_for_url(f"**/t/{new}/me")


def test_a_lost_host_device_is_replaced_with_the_recovery_code(live_server, new_phone):
    host, code, phones = seat_everyone(live_server, new_phone)
    host.click("#night-menu > summary")
    recovery = host.inner_text("[data-recovery-code]")
    old_cookies = host.context.cookies()
    host.context.close()  # the battery ran out

    laptop = new_phone("Desktop Chrome")
    laptop.goto(f"{live_server.url}/recover")
    laptop.fill("input[name=code]", recovery)
    laptop.click("button:has-text('Become the host')")
    laptop.wait_for_url(f"**/t/{code}/host")
    laptop.wait_for_selector("text=another device became the host with the recovery code")

    # The new host runs the next game, and the phones follow it.
    laptop.click("#night-menu > summary")
    assert laptop.inner_text("[data-recovery-code]") != recovery  # a used code is replaced
    laptop.click("text=Play again…")
    laptop.check("input[name=game][value=generic]")
    laptop.click("button:has-text('Start the next game')")
    laptop.wait_for_url(lambda url: url.endswith("/host") and code not in url)
    new = laptop.url.split("/")[-2]
    assert new != code
    for phone in phones:
        phone.wait_for_url(f"**/t/{new}/me")

    # The old device's host cookie is refused, at the old table and the new one.
    old_device = new_phone()
    old_device.context.add_cookies(old_cookies)
    for table in (code, new):
        response = old_device.goto(f"{live_server.url}/t/{table}/host")
        assert response.status == 403

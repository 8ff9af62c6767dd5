"""The rules lookup in a real browser: a phone at a table opens a "?" link and the bar's "Rules"
in the tray over the scoreboard, searches there, closes it, and the scoreboard is still live."""

import urllib.parse
import urllib.request

import pytest

pytest.importorskip("playwright.sync_api")


def join_without_a_phone(base, code, name):
    """Another player sits down (a plain form post, as a phone's browser would send it)."""
    data = urllib.parse.urlencode({"name": name}).encode()
    urllib.request.urlopen(urllib.request.Request(f"{base}/t/{code}/join", data=data), timeout=10).read()


def test_phone_reads_rules_in_the_tray_without_losing_the_scoreboard(live_server, new_phone):
    host = new_phone()
    host.goto(live_server.url + "/")
    host.click("button[value=blackmail]")  # POST /tables
    host.wait_for_url("**/host")
    code = host.url.split("/")[-2]

    phone = new_phone(color_scheme="dark")
    phone.goto(f"{live_server.url}/t/{code}")
    phone.fill("input[name=name]", "Ana")
    phone.click("button:has-text('Sit down')")
    phone.wait_for_url("**/me")
    me = phone.url
    phone.wait_for_selector("section.me .name:text-is('Ana')")

    # A "?" on the scoreboard opens its entry in the tray. Its circle is small, but a thumb
    # landing up to 8 px outside it still hits it.
    box = phone.locator("section.me a.help[data-help]").bounding_box()
    assert box["width"] < 44
    assert phone.evaluate(
        "([x, y]) => !!document.elementFromPoint(x, y).closest('a.help')", [box["x"] - 7, box["y"] + box["height"] / 2]
    )
    phone.click("section.me a.help[data-help]")
    tray = phone.locator("#tray")
    phone.wait_for_selector("#tray[open] .rules-entry[data-entry='vp-to-win']")
    assert tray.locator("h1").inner_text() == "Victory Points to win, by player count"
    assert "6" in tray.locator("table.rules-table").inner_text()

    # The table changes while the tray is open; nobody has to close it for that.
    join_without_a_phone(live_server.url, code, "Bo")
    phone.wait_for_selector(".others li.other:has(.name:text-is('Bo'))", state="attached")

    phone.click("#tray .close")
    phone.wait_for_selector("#tray", state="hidden")
    assert phone.url == me
    assert phone.locator(".others li.other").count() == 1

    # The bar's "Rules" opens the game's lookup in the tray; results come as you type and open there too.
    phone.click(".bar a.help-link[data-help]")
    phone.wait_for_selector("#tray[open] .rules-panel")
    phone.locator("#tray input[name=q]").press_sequentially("krieg")
    phone.wait_for_selector("#tray .rules-hit[href='/rules/blackmail/dr-krueger']")
    phone.click("#tray .rules-hit[href='/rules/blackmail/dr-krueger']")
    phone.wait_for_selector("#tray .rules-entry[data-entry='dr-krueger']")
    assert "Strength 2" in tray.locator(".rules-body").inner_text()
    phone.keyboard.press("Escape")
    phone.wait_for_selector("#tray", state="hidden")

    # Still the same page, and still live.
    assert phone.url == me
    join_without_a_phone(live_server.url, code, "Cy")
    phone.wait_for_selector(".others li.other:has(.name:text-is('Cy'))")
    assert phone.locator(".others li.other").count() == 2


def test_quick_references_fit_one_phone_screen_and_search_keeps_its_url(live_server, new_phone):
    phone = new_phone()
    for game in ("danger-zone", "blackmail", "assassins"):
        phone.goto(f"{live_server.url}/rules/{game}/quickref")
        height, screen = phone.evaluate("[document.documentElement.scrollHeight, window.innerHeight]")
        assert height <= screen, f"{game}: the quick reference is {height}px on a {screen}px screen"

    phone.goto(f"{live_server.url}/rules")
    phone.locator("input[name=q]").press_sequentially("ghost")
    phone.wait_for_selector(".rules-hit[href='/rules/assassins/ghost']")
    phone.wait_for_url("**/rules?q=ghost")
    phone.reload()
    assert phone.locator(".rules-hit").first.get_attribute("href").startswith("/rules/assassins/")

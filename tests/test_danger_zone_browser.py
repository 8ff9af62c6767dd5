"""Archer: The Danger Zone! in a real browser: a host page, three phones (separate contexts)
and the table screen play from setup through two rounds to a win at 20 Upper Hand.

Round 1 is played on the phones (each reveals and rolls on its own turn); round 2 is
recorded from the host page, which may act for any seat. Every step waits on the pages'
live version, never on a timer."""

import pytest
from browser_steps import sit_down, start_table

pytest.importorskip("playwright.sync_api")

NEWER = "v => +document.getElementById('live-body').dataset.version > v"
AT_LEAST = "v => +document.getElementById('live-body').dataset.version >= v"


def version(page):
    return int(page.get_attribute("#live-body", "data-version"))


def tap(page, selector, everyone):
    """Click on one page, then wait until every page shows the change."""
    before = version(page)
    page.click(selector)
    page.wait_for_function(NEWER, arg=before)
    after = version(page)
    for other in everyone:
        other.wait_for_function(AT_LEAST, arg=after)


def test_three_phones_play_two_rounds_to_a_win_at_twenty(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "danger-zone")
    ana, bo, cy = new_phone(), new_phone(color_scheme="dark"), new_phone(color_scheme="light")
    phones = {"Ana": ana, "Bo": bo, "Cy": cy}
    for name, phone in phones.items():
        sit_down(phone, f"{live_server.url}/t/{code}", name)
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")
    everyone = [host, ana, bo, cy, screen]

    # Setup: each phone picks its own character; the host draws and rolls off.
    for (name, phone), character in zip(phones.items(), ["Archer", "Cheryl", "Lana"]):
        tap(phone, f"button[value={character}]", everyone)
        assert phone.inner_text("[data-my-character]") == character
    assert bo.is_disabled("button[value=Archer]")  # no two alike
    tap(host, "button:has-text('Draw the Locations')", everyone)
    tap(host, "button:has-text('Roll off in the app')", everyone)
    assert "takes the Initiative Token" in screen.inner_text(".dz-setup")
    tap(host, "button:has-text('Start round 1')", everyone)
    for page in everyone:
        assert page.inner_text("[data-round-number]") == "1"

    # Round 1 on the phones: each reveals on its turn, the roller completes a Challenge.
    for turn in range(3):
        name = host.inner_text("[data-next-reveal] b")
        phone = phones[name]
        assert "Your turn to reveal" in phone.inner_text("[data-next-reveal]")
        tap(phone, f".dz-enter button.big >> nth={turn}", everyone)
    tap(host, "button:has-text('Start the Mission')", everyone)
    for row, (kind, difficulty, reward) in enumerate([("Booze", "8", "4"), ("Guns", "12", "3"),
                                                       ("Smarts", "6", "1")], start=1):
        host.select_option(f"select[name=type_{row}]", kind)
        host.fill(f"input[name=difficulty_{row}]", difficulty)
        host.select_option(f"select[name=reward_{row}]", reward)
    tap(host, "button:has-text('Show the Challenges')", everyone)
    first = phones[host.inner_text("[data-next-roll] b")]
    assert "%" in first.inner_text(".dz-card[data-card='1'] [data-odds]")
    tap(first, ".dz-card[data-card='1'] button.big", everyone)
    second = phones[host.inner_text("[data-next-roll] b")]
    tap(second, "button:has-text('I failed the roll')", everyone)
    tap(host, "button:has-text('End the Mission')", everyone)
    tap(host, "button:has-text('Start round 2')", everyone)
    assert screen.inner_text("[data-round-number]") == "2"

    # Round 2 from the host page: one tap per reveal, then a Challenge for the roller.
    for _ in range(3):
        tap(host, ".dz-enter button.big >> nth=0", everyone)
    tap(host, "button:has-text('Start the Mission')", everyone)
    roller = host.inner_text("[data-next-roll] b")
    host.select_option("form.dz-roller select[name=type]", "Guns")
    host.fill("form.dz-roller input[name=difficulty]", "10")
    host.select_option("form.dz-roller select[name=reward]", "4")
    tap(host, "form.dz-roller button", everyone)

    # The roller's own phone takes them to exactly 20 with a custom amount: the game ends.
    phone = phones[roller]
    seat = f"li.dz-seat:has(.name:text-is('{roller}'))"
    now = int(phone.inner_text(f"{seat} [data-score]"))
    phone.click(f"{seat} summary:has-text('Other amount')")
    phone.fill(f"{seat} input[name=amount]", str(20 - now))
    phone.select_option(f"{seat} .dz-custom select[name=reason]", "Card")
    tap(phone, f"{seat} button:has-text('Gain')", everyone)
    for page in everyone:
        page.wait_for_selector("[data-winner]")
        assert page.inner_text("[data-winner-name]") == roller
        assert page.locator(".dz-standings li").first.inner_text().split()[-1] == "20"
        assert page.locator("[data-winner] [data-race-chart] polyline").count() == 3

    # Undo stays available: the host takes the winning change back and play goes on.
    tap(host, ".log li:has-text('won') button:has-text('Undo')", everyone)
    for page in (screen, phone):
        assert page.locator("[data-winner]").count() == 0

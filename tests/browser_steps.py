"""Steps the browser tests share: a host starts a table, a phone sits down, a Blackmail card
is played from the hand."""

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def start_table(page, base_url, game):
    """On the home page, start a table for `game`; returns its code (the host page is open)."""
    page.goto(base_url + "/")
    page.click(f"button[value={game}]")
    page.wait_for_url("**/host")
    return page.url.split("/")[-2]


def sit_down(page, url, name):
    """Open a join URL on a phone and take a seat under `name`."""
    page.goto(url)
    page.fill("input[name=name]", name)
    page.click("button:has-text('Sit down')")
    page.wait_for_url("**/me")


def play_card(page, card, logged, target=None, named=None, dropped=None, button="button.big", hand=""):
    """Open a Blackmail card, fill what it asks, play it; wait until play `logged` is listed.

    If the board re-renders and closes the card between taps, it is opened and tapped again."""
    box = f"{hand} details[data-card='{card}']".strip()
    taps = [f"{box} .pills > label:has-text('{target}')" if target else None,
            f"{box} fieldset:has(input[name=named]) label:has(input[value='{named}'])" if named else None,
            f"{box} fieldset:has(input[name=discarded]) label:has(input[value='{dropped}'])" if dropped else None,
            f"{box} {button}"]
    for attempt in range(3):
        try:
            if not page.locator(box).first.evaluate("card => card.open"):
                page.click(f"{box} > summary")
            for tap in filter(None, taps):
                page.click(tap, timeout=3000)
            break
        except PlaywrightTimeout:
            if attempt == 2:
                raise
    page.wait_for_selector(f".bm-plays li[data-play='{logged}']")

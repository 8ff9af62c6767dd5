"""Steps every browser test takes: a host starts a table, a phone sits down."""


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

"""In a real browser: when a game ends, how it went comes down the live stream to a
320 px phone (with the "Save to BG Stats" link) and the 1280x800 table screen, readable in the
light and the dark scheme (nothing wider than the screen, the TV with no scrolling, each seat
its own colour per scheme); axe finds nothing serious on the phone, the host page, the table
screen or the night page."""

import json
from urllib.parse import unquote

import pytest

from browser_steps import axe_violations, post_as, seat_ids, sit_down, start_table

pytest.importorskip("playwright.sync_api")

SCHEMES = ("light", "dark")
FITS = """() => { const d = document.documentElement;
  return [d.scrollWidth <= innerWidth, d.scrollHeight <= innerHeight]; }"""
SEAT_COLOUR = "() => getComputedStyle(document.querySelector('#live-chart .chart-seat-0')).color"
# Each name at a line's end inside its drawing, its type 11.5 px or more (the drawing scales: on
# a 320 px phone its 360 units are 278 px wide).
LABELS = """() => { const svg = document.querySelector('#live-chart svg.chart-svg'), box = svg.getBoundingClientRect();
  const scale = box.width / svg.viewBox.baseVal.width;
  return [...svg.querySelectorAll('g.chart-seat > text')].map(t => { const r = t.getBoundingClientRect();
    return [t.textContent, r.left >= box.left && r.right <= box.right + .5, +t.getAttribute('font-size') * scale >= 11.5]; }); }"""
# WCAG's contrast of an element's text on its background's element, from the colours as drawn
# (a canvas turns any CSS colour, color-mix() too, into sRGB bytes).
CONTRAST = """([text, back]) => { const ctx = document.createElement('canvas').getContext('2d', {willReadFrequently: true});
  const rgb = css => { ctx.clearRect(0, 0, 1, 1); ctx.fillStyle = css; ctx.fillRect(0, 0, 1, 1); return [...ctx.getImageData(0, 0, 1, 1).data].slice(0, 3); };
  const lum = c => c.map(v => v / 255).map(v => v <= .03928 ? v / 12.92 : ((v + .055) / 1.055) ** 2.4)
    .reduce((sum, v, i) => sum + v * [.2126, .7152, .0722][i], 0);
  const [a, b] = [rgb(getComputedStyle(document.querySelector(text)).color),
                  rgb(getComputedStyle(document.querySelector(back)).backgroundColor)].map(lum);
  return (Math.max(a, b) + .05) / (Math.min(a, b) + .05); }"""


def to(page, which):
    code = page.url.split("/t/")[1].split("/")[0]
    return page.request.get(page.url.split("/t/")[0] + f"/t/{code}/state.json").json()["state"]["to"][which]


def seen_in_both_schemes(page, check):
    """check(page) in each scheme; the seats' colours differ between the two."""
    colours = []
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        check(page)
        colours.append(page.evaluate(SEAT_COLOUR))
    assert colours[0] != colours[1], colours


NEW = "#live-chart, .night-game .chart, .bgstats, .night-scroll"
INSIDE = (
    "([target, parts]) => { const found = document.querySelector(target); return !!(found && found.closest(parts)); }"
)


def axe_in_both_schemes(page, found, name):
    """axe over the whole page in each scheme, keeping what it finds in the new parts (what
    it finds elsewhere is the older screens' own, walked by test_accessibility_browser.py)."""
    for scheme in SCHEMES:
        page.emulate_media(color_scheme=scheme)
        problems = []
        for problem in axe_violations(page):
            nodes = [node for node in problem["nodes"] if page.evaluate(INSIDE, [node.split(" :: ")[0], NEW])]
            if nodes:
                problems.append(dict(problem, nodes=nodes))
        if problems:
            found[f"{name} ({scheme})"] = problems


def test_the_end_of_a_game_on_a_small_phone_and_the_table_screen(live_server, new_phone):
    base = live_server.url
    host = new_phone(color_scheme="dark")
    code = start_table(host, base, "blackmail")
    ana = new_phone("iPhone SE", color_scheme="light")
    sit_down(ana, f"{base}/t/{code}", "Ana")
    for name in ("Bo", "Cyrillic"):
        post_as(host, "/seats", name=name)
    ids = seat_ids(host)
    screen = new_phone("Desktop Chrome", color_scheme="dark")
    screen.set_viewport_size({"width": 1280, "height": 800})
    screen.goto(f"{base}/t/{code}/screen")
    screen.wait_for_selector(".tv-seat")
    post_as(host, "/act/game.start", first_player=str(ids["Bo"]), to=to(host, "start"))
    for winner in ("Ana", "Bo", "Cyrillic", "Ana", "Ana", "Ana"):  # 3 players: 4 Victory Points win
        assert ana.locator("#live-chart").count() == 0
        post_as(host, "/act/round.score", winner=str(ids[winner]), to=to(host, "next_round"))

    # The phone: it comes down the stream, as wide as the phone and no wider.
    ana.wait_for_selector("#live-chart svg.chart-svg")

    def phone_reads(page):
        assert page.evaluate(FITS)[0], "the phone scrolls sideways"
        box = page.locator("#live-chart svg.chart-svg").first.bounding_box()
        assert 250 <= box["width"] <= 320 and box["x"] >= 0
        assert page.locator("#live-chart text", has_text="Ana 4").count() == 1
        labels = page.evaluate(LABELS)
        assert [text for text, *_ in labels] == ["Ana 4", "Bo 1", "Cyrillic 1"]  # eight letters, whole
        assert all(inside and big for _, inside, big in labels), labels
        # "Game over" above the winner: 4.5:1 on the green banner (WCAG 1.4.3).
        assert page.evaluate(CONTRAST, [".bm-kicker", ".bm-winner"]) >= 4.5

    seen_in_both_schemes(ana, phone_reads)
    link = ana.locator("#live-chart a[data-bgstats]")
    assert link.inner_text() == "Save to BG Stats" and link.is_visible()
    assert link.get_attribute("href").startswith("https://app.bgstatsapp.com/createPlay.html?data=")
    assert link.bounding_box()["height"] >= 44
    ana.click("#live-chart .chart-words summary")
    assert "Ana won with 4 Victory Points" in ana.inner_text("#live-chart .chart-words")

    # The table screen: beside the game's end, nothing scrolls, no link.
    screen.wait_for_selector("#live-chart svg.chart-svg")

    def screen_reads(page):
        assert page.evaluate(FITS) == [True, True], "the table screen scrolls"
        box = page.locator("#live-chart svg.chart-svg").bounding_box()
        assert box["height"] >= 250 and box["y"] + box["height"] <= 800 and box["x"] + box["width"] <= 1280

    seen_in_both_schemes(screen, screen_reads)
    assert screen.locator("#live-chart a[data-bgstats]").count() == 0
    assert screen.locator(".bm-winner").is_visible()

    # The host page has the chart, the night page each game's chart and link.
    host.reload()
    host.wait_for_selector("#live-chart svg.chart-svg")
    night = new_phone("iPhone SE", color_scheme="dark")
    night.context.add_cookies(ana.context.cookies())
    night.goto(f"{base}/t/{code}/night")
    night.wait_for_selector("#night-chart-1 svg.chart-svg")
    assert night.evaluate(FITS)[0], "the night page scrolls sideways"
    play = night.get_attribute("a[data-bgstats]", "href").split("data=", 1)[1]
    assert {p["name"]: p["score"] for p in json.loads(unquote(play))["players"]} == {"Ana": 4, "Bo": 1, "Cyrillic": 1}

    found = {}
    for page, name in (
        (ana, "phone at the end"),
        (host, "host page at the end"),
        (screen, "table screen at the end"),
        (night, "night page"),
    ):
        axe_in_both_schemes(page, found, name)
    assert not found, json.dumps(found, indent=1)

"""Steps the browser tests share (Playwright only; what needs no browser is in helpers.py): a
host starts a table, a phone sits down, a Blackmail card is played from the hand, a page posts
as its viewer, what a page shows, axe-core looks at a page (its vendored copy, for the tests
only). tools/screenshots.py and bench/follow_latency.py use these steps too."""

import json
from pathlib import Path

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
    taps = [
        f"{box} .pills > label:has-text('{target}')" if target else None,
        f"{box} fieldset:has(input[name=named]) label:has(input[value='{named}'])" if named else None,
        f"{box} fieldset:has(input[name=discarded]) label:has(input[value='{dropped}'])" if dropped else None,
        f"{box} {button}",
    ]
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


# --- a table driven over HTTP from a page (its cookie, its form token) --------------------

OTHER_NAMES = ["Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy"]


def post_as(page, path, **fields):
    """Post a form as this page's viewer, as its own forms do (its cookie, its form token)."""
    base, code = page.url.split("/t/")[0], page.url.split("/t/")[1].split("/")[0]
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(
        f"{base}/t/{code}{path}",
        form={"csrf": token, "page": "host", **fields},
        headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": base},
    )
    assert response.ok, response.text()


def seat_ids(page):
    state = page.request.get(
        page.url.split("/t/")[0] + "/t/" + page.url.split("/t/")[1].split("/")[0] + "/state.json"
    ).json()
    return {s["name"]: s["id"] for s in state["state"]["seats"]}


def table_of(live_server, new_phone, seats=7):
    """A generic table: the host, Ana on her phone, and `seats` more seats added by the host."""
    host = new_phone()
    code = start_table(host, live_server.url, "generic")
    for name in OTHER_NAMES[:seats]:
        post_as(host, "/seats", name=name)
    return host, code


def ana_and_others(live_server, new_phone, game, others):
    """A table of `game`: the host, Ana on her phone, then `others` seats the host adds.
    Returns (host, ana, code)."""
    host = new_phone()
    code = start_table(host, live_server.url, game)
    ana = new_phone("Pixel 7")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    for name in OTHER_NAMES[:others]:
        post_as(host, "/seats", name=name)
    return host, ana, code


class Host:
    """The host's browser context, driving its table over HTTP as its own forms do."""

    def __init__(self, page, base, game):
        self.page, self.base = page, base
        response = page.request.post(f"{base}/tables", form={"game": game}, max_redirects=0)
        self.code = response.headers["location"].split("/")[2]
        self.csrf = self.token("/host")

    def token(self, path):
        html = self.page.request.get(f"{self.base}/t/{self.code}{path}").text()
        return json.loads(html.split("hx-headers='", 1)[1].split("'", 1)[0])["X-CSRF-Token"]

    def post(self, path, **form):
        response = self.page.request.post(
            f"{self.base}/t/{self.code}{path}",
            form={"csrf": self.csrf, "page": "host", **form},
            headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": self.base},
        )
        assert response.status == 200, (path, form, response.status, response.text()[:300])

    def state(self):
        return self.page.request.get(f"{self.base}/t/{self.code}/state.json").json()["state"]

    def seats(self, names):
        for name in names:
            self.post("/seats", name=name)
        return [s["id"] for s in self.state()["seats"]]


def tablet(new_phone, width=1024, height=768):
    """A page the size of a tablet lying flat (a desktop browser resized)."""
    page = new_phone("Desktop Chrome")
    page.set_viewport_size({"width": width, "height": height})
    return page


def let_in(host_page, base, code, device):
    """The host lets `device` in as a second device in the middle; it then shows the tablet."""
    host_page.goto(f"{base}/t/{code}/host")
    host_page.click("#tablet-menu > summary")
    host_page.click("[data-let-in]")
    device.goto(host_page.locator("[data-let-in-link]").inner_text())
    device.click("[data-claim]")
    device.wait_for_selector(".tb-board")


# --- what a page shows, and a phone's Wi-Fi -------------------------------------------------


def version(page):
    """The last event the page's board shows."""
    return int(page.get_attribute("#live-body", "data-version"))


def shows(name, score):
    """A selector for `name`'s seat showing `score`."""
    return f"[data-seat]:has(.name:text-is('{name}')) [data-score]:text-is('{score}')"


def look(page, within=""):
    """Tap the covered hand open (it stays open across live refreshes)."""
    cover = f"{within} details.bm-cover".strip()
    page.wait_for_selector(cover)
    if not page.locator(cover).first.evaluate("d => d.open"):
        page.click(f"{cover} > summary")


def gone_offline(page):
    """The phone's Wi-Fi drops: its requests fail from now on."""
    page.context.set_offline(True)
    page.wait_for_function("() => !navigator.onLine")


# --- axe-core over a page (test_accessibility_browser.py walks every screen with it) -------

AXE = (Path(__file__).parent / "vendor" / "axe-core-4.14.1" / "axe.min.js").read_text()
WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SETTLE = """() => {
  // A change's flash and its "+2" fade in and out: contrast is judged once they have settled,
  // as if the page had been watched until the running ones end, 3 s at most (a paused or held
  // animation never finishes). Nobody waits for that: each running animation is moved on by
  // that time, which styles every element exactly as it would be then.
  const running = document.getAnimations().filter(a => a.playState === "running" && a.effect
    && a.effect.getTiming().iterations !== Infinity);
  const left = a => { const t = a.effect.getComputedTiming(), rate = a.playbackRate;
    return rate > 0 ? (t.endTime - t.localTime) / rate : rate < 0 ? t.localTime / -rate : Infinity; };
  const wait = Math.min(3000, Math.max(0, ...running.map(left)));
  running.forEach(a => { a.currentTime += wait * a.playbackRate; });
}"""
START_AXE = (
    """([tags, rules]) => {
  ("""
    + SETTLE
    + """)();
  // Started here and collected by the next call: the test drives another page meanwhile, and
  // the two pages' axe runs share the machine's cores.
  window.axeFound = (async () => {
    await new Promise(go => setTimeout(go, 0));
    const only = rules ? {type: "rule", values: rules} : {type: "tag", values: tags};
    const result = await axe.run(document, {runOnly: only, resultTypes: ["violations"]});
    return result.violations.filter(v => v.impact === "critical" || v.impact === "serious").map(v => ({
      id: v.id, impact: v.impact,
      nodes: v.nodes.slice(0, 8).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(0, 2).join(" ")),
      count: v.nodes.length}));
  })();
}"""
)
AXE_FOUND = "() => window.axeFound"


# The rules whose answer can change with the colour scheme alone: the others read the page's
# structure, names and roles, the same in light and dark, so a second scheme runs only these.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]


def start_axe(page, rules=None):
    """Start axe over the page as it is now (its critical and serious WCAG A/AA violations, or
    only those of `rules`); axe_found(page) waits for them."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE)
    page.evaluate(START_AXE, [WCAG, rules])


def axe_found(page):
    return page.evaluate(AXE_FOUND)


def axe_violations(page):
    """The critical and serious WCAG A/AA violations axe finds on the page as it is now."""
    start_axe(page)
    return axe_found(page)

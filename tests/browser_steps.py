"""Steps the browser tests share: a host starts a table, a phone sits down, a Blackmail card
is played from the hand, axe-core looks at a page (its vendored copy, for the tests only)."""

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
START_AXE = """tags => {
  (""" + SETTLE + """)();
  // Started here and collected by the next call: the test drives another page meanwhile, and
  // the two pages' axe runs share the machine's cores.
  window.axeFound = (async () => {
    await new Promise(go => setTimeout(go, 0));
    const result = await axe.run(document, {runOnly: {type: "tag", values: tags}, resultTypes: ["violations"]});
    return result.violations.filter(v => v.impact === "critical" || v.impact === "serious").map(v => ({
      id: v.id, impact: v.impact,
      nodes: v.nodes.slice(0, 8).map(n => n.target.join(" ") + " :: " + (n.failureSummary || "").split("\\n").slice(0, 2).join(" ")),
      count: v.nodes.length}));
  })();
}"""
AXE_FOUND = "() => window.axeFound"


def start_axe(page):
    """Start axe over the page as it is now (its critical and serious WCAG A/AA violations);
    axe_found(page) waits for them."""
    if not page.evaluate("() => !!window.axe"):
        page.evaluate(AXE)
    page.evaluate(START_AXE, WCAG)


def axe_found(page):
    return page.evaluate(AXE_FOUND)


def axe_violations(page):
    """The critical and serious WCAG A/AA violations axe finds on the page as it is now."""
    start_axe(page)
    return axe_found(page)

"""Motion on a phone's page: compositor-only, and no movement for a phone set to reduce motion.

A change flashes the line it touched (a ring that fades) and shows its "+2" (fading in and out,
rising a little). They run on every change on every phone at the table, so they animate only
opacity and transform, which the browser's compositor runs by itself: a box-shadow animation
restyled and repainted the page every frame for a second, in the way of the next live message
on a slow phone. A phone set to reduce motion (prefers-reduced-motion: reduce) sees nothing
move: the ring and the "+2" only fade in place, and the switches jump instead of sliding."""

import pytest

from browser_steps import post_as, seat_ids, sit_down, table_of

pytest.importorskip("playwright.sync_api")

# What each animation on the page changes (its keyframes' properties), and on what.
ANIMATED = """() => document.getAnimations().map(a => ({
  name: a.animationName || '',
  on: (a.effect.target.id || a.effect.target.className) + (a.effect.pseudoElement || ''),
  changes: [...new Set(a.effect.getKeyframes().flatMap(k => Object.keys(k)))]
    .filter(p => !['offset', 'computedOffset', 'easing', 'composite'].includes(p))}))"""
# The flashed line's own box does not animate; its ring does (a line's ::after, or the phone's
# own block's cue element).
FLASH = """e => ({own: getComputedStyle(e).animationName,
                 ring: getComputedStyle(e.querySelector(':scope > .me-cue') || e, e.id === 'me' ? null : '::after').animationName,
                 delta: getComputedStyle(e.querySelector('.delta')).animationName})"""
SWITCH = """e => [getComputedStyle(e).transitionDuration, getComputedStyle(e, '::after').transitionDuration]"""


def a_change_seen(live_server, new_phone, **context):
    """Ana's phone, once the host changed Bo's score and then hers: (the page, what animated,
    how Bo's line and Ana's block flash)."""
    host, code = table_of(live_server, new_phone, seats=1)
    ana = new_phone("Pixel 7", **context)
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    ids = seat_ids(host)
    post_as(host, "/act/score", seat=str(ids["Bo"]), delta="2", reason="Points")
    bo = ana.locator(f"#other-{ids['Bo']}.flash")
    bo.locator(".delta").wait_for()
    animated = ana.evaluate(ANIMATED)
    flashes = [bo.evaluate(FLASH)]
    post_as(host, "/act/score", seat=str(ids["Ana"]), delta="3", reason="Points")
    me = ana.locator("#me:has(> .me-cue.flash)")
    me.locator(".delta").wait_for()
    animated += ana.evaluate(ANIMATED)
    flashes.append(me.evaluate(FLASH))
    return ana, animated, flashes


def test_a_change_animates_only_what_the_compositor_runs(live_server, new_phone):
    ana, animated, flashes = a_change_seen(live_server, new_phone)
    assert animated, "a change shows its +2"
    for animation in animated:
        assert set(animation["changes"]) <= {"opacity", "transform"}, animation
    for flash in flashes:
        assert flash == {"own": "none", "ring": "ring", "delta": "pop"}, flash
    assert ana.locator(".switch input").first.evaluate(SWITCH) == ["0.15s", "0.15s"]


def test_a_phone_set_to_reduce_motion_sees_nothing_move(live_server, new_phone):
    ana, animated, flashes = a_change_seen(live_server, new_phone, reduced_motion="reduce")
    assert animated, "a change still shows its +2, fading in place"
    for animation in animated:
        assert animation["changes"] == ["opacity"], animation
    for flash in flashes:
        assert flash == {"own": "none", "ring": "ring", "delta": "pop-still"}, flash
    assert ana.locator(".switch input").first.evaluate(SWITCH) == ["0s", "0s"]
    assert ana.locator("#me .delta").evaluate("e => getComputedStyle(e).transform") == "none"

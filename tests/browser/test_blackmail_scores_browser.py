"""Scores only, in a real browser: awarding a Victory Point shows "Undo" for five
seconds on the phone that tapped, and only there; the Undo is the log's own /undo."""

from browser_steps import sit_down, start_table


def vp(page, name):
    return f"[data-seat]:has(.name:text-is('{name}')) [data-vp]"


def test_awarding_a_victory_point_offers_undo_for_five_seconds_on_that_phone(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "blackmail")
    ana, bo = new_phone(), new_phone(color_scheme="light")
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    host.wait_for_selector(".bm-setup label.pill:has-text('Bo')")
    host.click("label.mode:has-text('Scores only')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")

    ana.get_by_role("button", name="Bo won round 1").click()
    undo = ana.locator("section.me .bm-undo button")
    undo.wait_for()
    assert "Bo scores a Victory Point" in undo.get_attribute("aria-label")
    bo.wait_for_selector(f"{vp(bo, 'Bo')}:text-is('1')")
    assert bo.locator(".bm-undo button").count() == 0  # only on the phone that tapped
    assert host.locator(".bm-undo button").count() == 0
    undo.click()
    for page in (ana, bo, host):
        page.wait_for_selector(f"{vp(page, 'Bo')}:text-is('0')")
    assert ana.locator(".bm-undo button").count() == 0

    # Tapped again: the Undo goes away by itself after five seconds; the point stays.
    ana.get_by_role("button", name="Ana won round 1").click()
    undo.wait_for()
    undo.wait_for(state="detached", timeout=8000)
    assert ana.locator(f"{vp(ana, 'Ana')}").inner_text() == "1"
    assert ana.locator(".bm-undo").is_hidden()

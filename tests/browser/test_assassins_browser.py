"""Age of Assassins in real browsers, every phone its own browser context (its own cookies);
changes reach the others through the live stream.

1. Three phones (Ana is the host and sits too) with the ghost and the table screen, through
   two rounds with a kill to the end, on the phone-first board: each phone acts from its own
   seat block, and changing another seat takes "Fix a score".
2. Four phones drafting: pick k stays hidden from the other phones, the host page and the
   table screen until all four made it, then shows everywhere at once."""

import json

from browser_steps import sit_down, start_table
from helpers import BASE_DECK

DECK = BASE_DECK
SECRET = "Hidden Dagger"


def other(name):
    """Another seat's line on a phone."""
    return f"li.other[data-name='{name}']"


def hosted(name):
    """A seat on the host page (every control)."""
    return f"li.aoa-seat[data-name='{name}']"


def tile(name):
    """A seat's tile on the table screen."""
    return f"li.tv-seat[data-name='{name}']"


ME = "section.me"


def test_three_phones_with_the_ghost_two_rounds_with_a_kill_to_the_end(live_server, new_phone):
    ana = new_phone()
    code = start_table(ana, live_server.url, "assassins")
    ana.click("text=Take a seat yourself")
    ana.fill("input[name=name]", "Ana")
    ana.click("button:has-text('Sit down')")
    ana.wait_for_url("**/host")
    bo, cy = new_phone(color_scheme="light"), new_phone()
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    sit_down(cy, f"{live_server.url}/t/{code}", "Cy")
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")
    for page in (ana, bo, cy):  # confirmations that name who is still picking are browser dialogs
        page.on("dialog", lambda dialog: dialog.accept())

    # The host types the deck list in once (here by pasting JSON); the count follows typing.
    ana.wait_for_selector(hosted("Cy"))
    ana.click("[data-deck-link]")
    ana.fill("textarea[name=json]", json.dumps(DECK))
    ana.click("[data-import]")
    ana.wait_for_selector("[data-notice]")
    assert "28 of 28" in ana.locator("[data-total]").inner_text().replace("\n", " ")
    ana.fill("input[name=copies_0]", "5")
    ana.wait_for_selector("[data-total-count]:text-is('29')")
    ana.click("[data-back]")
    ana.wait_for_url("**/host")

    # Round 1: the app deals the ghost's face-up cards; every screen shows them.
    ana.click("[data-deal]")
    screen.wait_for_selector("[data-ghost-cards] .aoa-card >> nth=3")
    for page in (bo, cy):
        page.wait_for_selector(f"{other('The ghost')} [data-ghost-cards]")
    assert screen.locator("[data-ghost-cards] .aoa-card.magician").count() < 3

    # Pick 1, each from their own seat: Bo's rear card never leaves his phone.
    bo.fill(f"{ME} input[name=card]", SECRET)
    bo.click(f"{ME} [data-pick=rear]")
    bo.wait_for_selector(f"{ME} [data-waiting]:has-text('waiting for Ana, Cy')")
    ana.click("[data-draft] [data-pick=front]")
    cy.click(f"{ME} [data-pick=front]")
    cy.wait_for_selector(f"{other('Bo')} [data-rows]:has-text('front 0/4 · rear 1/3')")
    screen.wait_for_selector(f"{tile('Bo')} [data-rows]:has-text('rear 1/3')")
    bo.click("[data-draft] > summary")
    bo.wait_for_selector(f"[data-rear] li.filled:has-text('{SECRET}')")
    for page in (ana, cy, screen):
        assert SECRET not in page.content()

    # Cy starts resolving while everyone still has picks: the confirmation names them, and
    # Bo's phone says who started it.
    cy.click("[data-start-resolve]")
    bo.wait_for_selector(f"{ME} [data-forced-notice]:has-text('Cy started resolving')")
    cy.click("[data-next]")
    for page in (cy, ana, bo, screen):
        page.wait_for_selector(".aoa-numbers [aria-current=step]:text-is('2')")

    # Points from each seat's own block; the kill is one deliberate step away on a phone.
    ana.click("[aria-label='Ana plus 3 preliminary']")
    ana.wait_for_selector(f"{hosted('Ana')} [data-prelim]:text-is('3')")
    bo.click(f"{ME} [aria-label='Bo plus 2 preliminary']")
    bo.wait_for_selector(f"{ME} [data-prelim]:text-is('2')")
    cy.click(f"{ME} [aria-label='Cy plus 1 preliminary']")
    cy.wait_for_selector(f"{ME} [data-prelim]:text-is('1')")
    assert not cy.get_by_role("button", name="Bo plus 1 preliminary").is_visible()
    cy.click("details.fix-scores > summary")
    cy.click("[aria-label='Kill Bo']")  # opens the confirmation in the page
    cy.click(f"{hosted('Bo')} [data-confirm]")
    bo.wait_for_selector(f"{ME} [data-killed]")
    for page, where in ((ana, hosted("Bo")), (cy, other("Bo")), (screen, tile("Bo"))):
        page.wait_for_selector(f"{where} [data-killed]")
    assert bo.locator(f"{ME} [data-prelim]").inner_text() == "0"
    assert bo.get_by_role("button", name="Bo plus 1 preliminary").count() == 0  # no taps the rules would refuse

    # Bank round 1 (one tap and a confirmation): survivors' points become real points.
    cy.click("button[aria-label='Resolve number 6']")
    ana.wait_for_selector(".aoa-numbers [aria-current=step]:text-is('6')")
    ana.click("[data-bank]")
    assert "Ana banks 3" in ana.locator("[data-bank-summary]").inner_text()
    ana.click("[data-bank-summary] [data-confirm]")
    for page in (ana, bo, cy, screen):
        page.wait_for_selector("[data-round]:text-is('2')")
    assert [screen.locator(f"{tile(n)} [data-real]").inner_text() for n in ("Ana", "Bo", "Cy")] == ["3", "0", "1"]
    assert screen.locator(f"{tile('Bo')} [data-killed]").count() == 0

    # Round 2: the table deals the ghost by hand and types her four face-up cards. With a deck
    # list stored, dealing by hand is one tap away (the fold opens by itself without a list);
    # Bo's phone, open since before the list was stored, knows of it.
    assert not bo.locator("details.aoa-physical").evaluate("d => d.open")
    bo.click("details.aoa-physical > summary")
    for i, name in enumerate(["Cook", "Soldier", "Card E", "Magician"], start=1):
        bo.fill(f"input[name=card{i}]", name)
    bo.click("button:has-text('Record the ghost')")
    screen.wait_for_selector("[data-ghost-cards] .aoa-card:has-text('Card E')")

    # Big scores from the host page; Ana and Cy both reach 15 and the tie goes to Cy.
    ana.click("[data-start-resolve]")
    ana.wait_for_selector(".aoa-numbers [aria-current=step]:text-is('1')")
    for name, amount in (("Ana", 12), ("Cy", 14)):
        ana.click(f"{hosted(name)} summary:has-text('Other amount')")
        ana.fill(f"{hosted(name)} .aoa-amount input[name=delta]", str(amount))
        ana.fill(f"{hosted(name)} .aoa-amount input[name=reason]", "Cook")
        ana.click(f"{hosted(name)} button:has-text('preliminary points')")
        ana.wait_for_selector(f"{hosted(name)} [data-prelim]:text-is('{amount}')")
    ana.click("button[aria-label='Resolve number 6']")
    bo.wait_for_selector(".aoa-numbers [aria-current=step]:text-is('6')")
    bo.click("[data-bank]")
    bo.click("[data-bank-summary] [data-confirm]")
    for page in (ana, bo, cy, screen):
        page.wait_for_selector("[data-result]")
    banner = screen.locator("[data-result]").inner_text()
    assert "Cy wins the tie on 15 real points" in banner
    assert "anti-clockwise from Ana, counting Ana last" in banner
    assert cy.locator(f"{ME} [data-real]").inner_text() == "15"
    assert bo.locator(f"{other('Cy')} .aoa-badge.win").count() == 1
    assert bo.locator("[data-bank]").count() == 0 and bo.locator(".aoa-quick").count() == 0


def test_four_phones_drafting_see_pick_k_only_once_all_four_made_it(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "assassins")
    names = ("Ana", "Bo", "Cy", "Di")
    phones = {}
    for name in names:
        phones[name] = new_phone()
        sit_down(phones[name], f"{live_server.url}/t/{code}", name)
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")
    screen.wait_for_selector(tile("Di"))
    host.wait_for_selector(hosted("Di"))
    rows = {"Ana": "rear", "Bo": "front", "Cy": "front", "Di": "rear"}

    def hidden_everywhere(who, k, counts):
        """`who` has made pick k: every other screen says so, and still shows `counts` for its rows."""
        watchers = [(phones[n], other(who)) for n in names if n != who]
        watchers += [(host, hosted(who)), (screen, tile(who))]
        for page, where in watchers:
            page.wait_for_selector(f"{where}:has-text('picked')")  # this pick's update has arrived
            assert page.locator(f"{where} [data-rows]").inner_text() == counts, (page.url, who)
            assert f"Pick {k} revealed" not in page.locator(".log").first.text_content()

    for k, made in enumerate(names[:3]):
        phones[made].click(f"{ME} [data-pick={rows[made]}]")
        waiting = ", ".join(n for n in names if n not in names[: k + 1])
        phones[made].wait_for_selector(f"{ME} [data-waiting]:has-text('waiting for {waiting}')")
        hidden_everywhere(made, 1, "front 0/4 · rear 0/3")

    # The last pick: every row appears on every screen at once.
    phones["Di"].click(f"{ME} [data-pick=rear]")
    for name, page in phones.items():
        for seen in names:
            if seen != name:
                count = "front 1/4 · rear 0/3" if rows[seen] == "front" else "front 0/4 · rear 1/3"
                page.wait_for_selector(f"{other(seen)} [data-rows]:text-is('{count}')")
    screen.wait_for_selector(f"{tile('Ana')} [data-rows]:text-is('front 0/4 · rear 1/3')")
    host.wait_for_selector(f"{hosted('Bo')} [data-rows]:text-is('front 1/4 · rear 0/3')")
    assert "Pick 1 revealed: Ana rear, Bo front, Cy front, Di rear" in host.locator(".log").text_content()

    # Pick 2 is hidden again in its turn.
    phones["Bo"].click(f"{ME} [data-pick=rear]")
    hidden_everywhere("Bo", 2, "front 1/4 · rear 0/3")

"""The app deals Once You Go Blackmail... in a real browser: three phones (separate contexts),
the host and the table screen. A full round where every private result is checked on the
phone entitled to it, and checked absent from every other screen.

The deck is rigged so the round is the same every time: the server runs in this process
(waitress in a thread) with the shuffle replaced, since the shared live server deals at random.
"""

import pytest

from browser_steps import look, play_card, sit_down, start_table
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY
from companion.games.blackmail import dealt as deal
from helpers import rigged, server_in_process

# Secret Malory; Ana Lana, Bo Cyril, Cy Krueger; then the draws in turn order (as in the
# hidden-information route test). Lana hands back positions 1, 2, 0.
ORDER = [MALORY, LANA, CYRIL, KRUEGER, ARCHER, CHERYL, RAY, PAM, ARCHER, CYRIL, CHERYL, PAM, KRUEGER, ARCHER]
LANA_ORDER = [1, 4, 2, 3, 0]
SECOND = [RAY, PAM, PAM, CHERYL, ARCHER]


@pytest.fixture
def rigged_server(tmp_path, monkeypatch):
    deals = [rigged(ORDER, LANA_ORDER), rigged(SECOND)]
    monkeypatch.setattr(deal, "new_deal", lambda rng: deals.pop(0))
    with server_in_process(tmp_path, threads=24, channel_request_lookahead=1) as url:
        yield url


def play(page, card, turn, hand=".bm-hand.mine", **taps):
    """A card from this phone's own hand (or, with `hand`, the stand-in's), uncovered first."""
    page.wait_for_selector(hand, state="attached")
    look(page, ".bm-hand.standin" if "standin" in hand else "")
    play_card(page, card, turn, hand=hand, **taps)


def private(page, what):
    return page.locator(f".bm-private li[data-private='{what}']")


VISIBLE_TEXT = """() => {
  const live = document.getElementById("live-body").cloneNode(true);
  // The card count and the name pickers list all eight characters on every screen.
  live.querySelectorAll(".bm-count, .tiles").forEach(node => node.remove());
  return live.textContent.replace(/\\s+/g, " ");
}"""


def only_on(pages, entitled, what, text, turn):
    """The private result shows on the entitled pages, and its words on no other screen."""
    for page in entitled:
        page.wait_for_selector(f'.bm-private li[data-private="{what}"]:has-text("{text}")')
    for page in pages:
        if page not in entitled:
            page.wait_for_selector(f".bm-plays li[data-play='{turn}'], .bm-tv-last[data-play='{turn}']")
            assert text not in page.evaluate(VISIBLE_TEXT), (what, text)


def test_a_dealt_round_on_three_phones_with_each_private_result_on_the_right_phone(rigged_server, new_phone):
    url = rigged_server
    host = new_phone()
    host.on("dialog", lambda dialog: dialog.accept())
    code = start_table(host, url, "blackmail")
    ana, bo, cy = new_phone(), new_phone(color_scheme="light"), new_phone()
    for page, name in ((ana, "Ana"), (bo, "Bo"), (cy, "Cy")):
        sit_down(page, f"{url}/t/{code}", name)
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{url}/t/{code}/screen")
    everyone = [host, ana, bo, cy, screen]

    host.wait_for_selector(".bm-setup label.pill:has-text('Cy')")
    host.click("label.mode:has-text('The app deals')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")
    fingerprint = deal.short(deal.fingerprint(rigged(ORDER, LANA_ORDER)))
    for page in everyone:
        page.wait_for_selector(f"[data-fingerprint]:text-is('{fingerprint}')")
        page.wait_for_selector("[data-deck]:text-is('11')")
    # Each phone holds its own cards, and only those.
    ana.wait_for_selector(".bm-hand.mine")
    assert ana.locator(".bm-hand .cname").all_text_contents() == ["Lana Kane", "Sterling Archer"]
    assert bo.locator(".bm-hand .cname").all_text_contents() == ["Cyril Figgis"]
    assert cy.locator(".bm-hand .cname").all_text_contents() == ["Dr. Krueger"]
    assert host.locator(".bm-hand").count() == 0 and screen.locator(".bm-hand").count() == 0
    assert not ana.locator(".bm-hand .cname").first.is_visible()  # covered until tapped
    # Off turn a held card opens on what it does, its play form there but unseen (blackmail.css)
    look(bo)
    bo.click(".bm-hand .hand-card > summary")
    assert bo.locator(".bm-hand .hand-card .off-turn").is_visible()
    assert not bo.locator(".bm-hand .on-turn").is_visible()
    assert not bo.locator(".bm-hand .hand-play button").first.is_visible()

    look(ana)
    # 1. Ana's Sterling Archer on Bo, naming Cheryl: wrong. Only Ana sees Bo's Cyril.
    play(ana, ARCHER, 1, target="Bo", named=CHERYL)
    only_on(everyone, [ana], "look", "Bo's card: Cyril Figgis", 1)

    # 2. Bo hands his turn to the host, who confirms, sees Bo's hand and plays Cheryl's look.
    bo.on("dialog", lambda dialog: dialog.accept())
    bo.click(".bm-handover button")
    host.click(".bm-standin button")
    host.wait_for_selector(".bm-hand.standin")
    look(host, ".bm-hand.standin")
    assert host.locator(".bm-hand.standin .cname").all_text_contents() == ["Cyril Figgis", "Cheryl/Carol Tunt"]
    assert ana.locator(".bm-hand.standin").count() == 0
    play(host, CHERYL, 2, button="button[value=look]", hand=".bm-hand.standin")
    only_on(everyone, [host, bo], "secret", "secret character: Malory Archer", 2)
    assert host.locator(".bm-hand.standin").count() == 0

    # 3. Cy's Dr. Krueger naming Cheryl: wrong; only Cy sees the secret.
    cy.wait_for_selector(".bm-hand.mine")
    look(cy)
    play(cy, KRUEGER, 3, named=CHERYL)
    only_on([ana, cy, screen], [cy], "secret", "Malory Archer", 3)

    # 4. Ana's Pam on Bo: Bo drops Cyril face up and draws; only Bo sees what.
    play(ana, PAM, 4, target="Bo")
    only_on(everyone, [bo], "drew", "and drew Sterling Archer", 4)

    # 5. Bo's Cyril against Cy: Archer against Ray; Bo is out. Both duelists see both cards.
    bo.wait_for_selector(".bm-hand.mine")
    look(bo)
    play(bo, CYRIL, 5, target="Cy")
    only_on(everyone, [bo, cy], "duel", "Ray Gillette", 5)
    screen.wait_for_selector(".tv-seat.out:has(.name:text-is('Bo'))")

    # 6. Cy's Ray on himself: drops Cheryl, takes the secret (Malory); only Cy knows.
    cy.wait_for_selector(".bm-hand.mine")
    look(cy)
    play(cy, RAY, 6, target="Cy")
    only_on(everyone, [cy], "took_secret", "took the secret character, Malory Archer", 6)
    screen.wait_for_selector("[data-secret='taken_by_ray']")

    # 7. Ana's Lana: each player still in learns only their own new card.
    ana.wait_for_selector(".bm-hand.mine")
    look(ana)
    play(ana, LANA, 7)
    only_on(everyone, [ana], "lana", "now hold Malory Archer", 7)
    only_on(everyone, [cy], "lana", "now hold Pam Poovey", 7)

    # 8. Cy's Sterling Archer names Ana's Malory: Ana is out; Cy wins the round.
    cy.wait_for_selector(".bm-hand.mine")
    look(cy)
    play(cy, ARCHER, 8, target="Ana", named=MALORY)
    for page in everyone:
        page.wait_for_selector(".bm-result")
        page.wait_for_selector(".bm-reveal")
    assert "Cy is the last one left" in screen.locator(".result-text").inner_text()
    assert "Dr. Krueger" in screen.locator(".bm-reveal").inner_text()  # the secret at the end
    text = rigged(ORDER, LANA_ORDER)
    assert ana.locator("[data-commit]").inner_text() == deal.commit_text(text)

    # The verify page checks the revealed deal against the fingerprint shown at the deal.
    ana.click(".bm-reveal a:has-text('Check the shuffle')")
    ana.wait_for_selector("[data-verify-round='1'] [data-check='ok']")
    assert fingerprint in ana.locator("[data-verify-round='1']").inner_text()
    ana.go_back()

    # One tap confirms the Victory Point; round 2 is dealt from a new shuffle.
    host.click(".bm-confirm button.big")
    second = deal.short(deal.fingerprint(rigged(SECOND)))
    for page in everyone:
        page.wait_for_selector(f"[data-fingerprint]:text-is('{second}')")
        page.wait_for_selector("[data-seat]:has(.name:text-is('Cy')) [data-vp]:text-is('1')")
    cy.wait_for_selector(".bm-hand.mine")
    assert cy.locator(".bm-hand .cname").all_text_contents() == ["Pam Poovey", "Sterling Archer"]
    assert cy.locator(".bm-private li[data-private]").count() == 0  # last round's looks are gone
    assert cy.locator(".bm-private").is_hidden()  # (the list stays on the page, empty)

"""Once You Go Blackmail... in a real browser: three phones (separate contexts) play a game card
by card: a deck-out round that ends in a tie, a Dr. Krueger round, then to a game win.
Every card is tapped on the phone whose turn it is; the host sets up and confirms some rounds."""

from browser_steps import play_card as play
from browser_steps import sit_down, start_table
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, LANA, MALORY, PAM, RAY


def my_turn(page):
    page.wait_for_selector(".bm-turn.mine")
    return page


def vp(page, name):
    return page.locator(f"[data-seat]:has(.name:text-is('{name}')) [data-vp]")


def wait_vp(pages, name, value):
    for page in pages:
        page.wait_for_selector(f"[data-seat]:has(.name:text-is('{name}')) [data-vp]:text-is('{value}')")


def test_three_phones_play_a_tied_deck_out_and_a_krueger_round_to_a_win(live_server, new_phone):
    host = new_phone()
    code = start_table(host, live_server.url, "blackmail")
    ana, bo, cy = new_phone(), new_phone(), new_phone(color_scheme="light")
    for phone, name in ((ana, "Ana"), (bo, "Bo"), (cy, "Cy")):
        sit_down(phone, f"{live_server.url}/t/{code}", name)
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")
    phones = {"Ana": ana, "Bo": bo, "Cy": cy}
    everyone = [host, ana, bo, cy, screen]

    # Setup on the host: full tracking, Ana first.
    host.wait_for_selector(".bm-setup label.pill:has-text('Cy')")
    host.click("label.mode:has-text('Full tracking')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")
    for page in everyone:
        page.wait_for_selector("[data-deck]:text-is('11')")  # 16 - secret - 3 dealt - Ana's draw
    assert screen.locator(".tv-band").inner_text().strip().endswith("4 to win")

    # Round 1, card by card from the phones. Ana hides behind Cheryl/Carol.
    ana.wait_for_selector(".bm-turn.mine")
    assert bo.locator(".bm-play").count() == 0  # not Bo's turn: no play form
    play(ana, CHERYL, 1, button="button[value=protect]")
    bo.wait_for_selector(".bm-turn.mine")
    assert bo.locator("li.other:has(.name:text-is('Ana')) .status:has-text('Protected')").count() == 1
    # Sterling Archer offers only Cy: Ana is protected, Bo cannot pick himself.
    assert bo.locator(f"details[data-card='{ARCHER}'] .pills > label").all_text_contents() == ["Cy"]
    play(bo, ARCHER, 2, target="Cy", named=PAM, button="button[value=no]")
    # Ray on Bo: Bo drops Malory Archer, which does nothing (he stays in), and takes the secret.
    cy.wait_for_selector(".bm-turn.mine")
    play(cy, RAY, 3, target="Bo", dropped=MALORY)
    screen.wait_for_selector("[data-secret='taken_by_ray']")
    host.wait_for_selector("[data-secret='taken_by_ray']")
    assert host.locator("[data-count='8'] [data-left]").inner_text() == "0"
    assert screen.locator(".tv-seat.out").count() == 0
    assert screen.locator("[data-deck]").inner_text() == "7"  # 3 turns, Ray's new secret, Ana's draw
    ana.wait_for_selector(".bm-turn.mine")
    assert "protected" not in ana.locator(".bm-me-status").inner_text()  # her turn came
    play(ana, PAM, 4, target="Cy", dropped=LANA)
    play(my_turn(bo), PAM, 5, target="Bo", dropped=KRUEGER)
    play(my_turn(cy), CHERYL, 6, button="button[value=look]")
    play(my_turn(ana), KRUEGER, 7, named=MALORY, button="button[value=no]")
    play(my_turn(bo), ARCHER, 8, target="Cy", named=CYRIL, button="button[value=no]")
    play(my_turn(cy), ARCHER, 9, target="Ana", named=PAM, button="button[value=no]")

    # Deck out: each phone taps the card in hand. Pam is all face up, so Cy cannot pick it.
    for page in everyone:
        page.wait_for_selector("[data-deck]:text-is('0')")
    assert cy.locator(f".bm-hands button[value='{PAM}']").is_disabled()
    for name, card in (("Ana", CYRIL), ("Bo", CYRIL), ("Cy", ARCHER)):
        phones[name].click(f".bm-hands button[value='{card}']")
        for page in everyone:  # every board shows it before the next phone taps
            page.wait_for_selector(
                f".bm-seats li.seat:has(.name:text-is('{name}')) .badge.hand, "
                f"li.hand-row:has(b:text-is('{name}')):has-text('shows'), "
                f".tv-seat:has(.name:text-is('{name}')) .status:has-text('Shows')"
            )
    screen.wait_for_selector(".bm-result")
    assert "tie" in screen.locator(".result-text").inner_text()
    # One tap confirms, from any phone (a page's taps are spaced out so that its own refresh
    # after a post never lands on the next one).
    ana.click(".bm-confirm button.big")
    wait_vp(everyone, "Ana", 1)
    wait_vp(everyone, "Bo", 1)
    assert vp(screen, "Cy").inner_text() == "0"

    # Round 2: the first player is drawn between Ana and Bo; they name the secret with Krueger.
    host.wait_for_selector(".bm-round h2:text-is('Round 2')")
    first = host.locator(".bm-seats li.seat.turn .name").inner_text()
    assert first in ("Ana", "Bo")
    assert "picked at random among" in host.locator(".bm-sub").inner_text()
    phone = phones[first]
    phone.wait_for_selector(".bm-turn.mine")
    play(phone, KRUEGER, 1, named=LANA, button="button[value=yes]")
    screen.wait_for_selector(".bm-result")
    assert screen.locator(".result-text").inner_text() == f"{first} wins the round."
    host.wait_for_selector(".bm-result")
    host.click(".bm-result button.big")
    wait_vp(everyone, first, 2)

    # Rounds 3 and 4: the round winner opens again and names the secret; the host confirms.
    for round_no, points in ((3, 3), (4, 4)):
        host.wait_for_selector(f".bm-round h2:text-is('Round {round_no}')")
        assert host.locator("details.bm-for > summary").inner_text() == f"Record the card for {first}"
        play(my_turn(phone), KRUEGER, 1, named=MALORY, button="button[value=yes]")
        host.wait_for_selector(".bm-result")
        host.click(".bm-result button.big")
        wait_vp(everyone, first, points)

    for page in everyone:
        page.wait_for_selector(".bm-winner")
        assert f"{first} wins the game!" in " ".join(page.locator(".bm-winner h2").inner_text().split())
    assert screen.locator(".tv-seat").count() == 3
    assert host.locator(".bm-setup button.big").is_enabled()  # a rematch is one tap away

"""The fairness check on the phone (issue 16): blackmail.js's SHA-256 against known vectors, its
replay of a round against the Python reducer, and the verify page on a phone that played the
round: ✓ as dealt, and the mismatch named once its remembered card or fingerprint is changed."""

import hashlib
import json
import random
import threading

import pytest

from companion import create_app, store
from companion.games import blackmail as bm
from companion.games.blackmail import dealt as deal
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, MALORY, PAM
from companion.games.blackmail.routes import _replay_facts

from conftest import free_port
from browser_steps import play_card, sit_down, start_table
from test_blackmail_deal import HOST, SCREEN, act, ev, hidden, random_turn, stepped, table
from test_blackmail_deal_browser import look, rigged

# Secret Krueger; Ana Pam, Bo Archer; Ana draws Cheryl. Ana's Pam on Bo: Bo drops Archer and
# draws Cyril, then draws Malory for his turn and plays it. Bo got Archer, Cyril, Malory.
ORDER = [KRUEGER, PAM, ARCHER, CHERYL, CYRIL, MALORY]

VECTORS = ["", "abc", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
           "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
           "lmnopqrsmnopqrstnopqrstu", "a" * 1_000_000, "Café · Lana ✓"] + ["x" * n for n in (55, 56, 63, 64, 65, 119, 120)]


@pytest.fixture
def rigged_server(tmp_path, monkeypatch):
    import waitress

    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged(ORDER))
    store.clear_cache()
    app = create_app({"DATA_DIR": str(tmp_path), "HEARTBEAT_SECONDS": 5})
    server = waitress.create_server(app, host="127.0.0.1", port=free_port(), threads=8)
    threading.Thread(target=server.run, daemon=True).start()
    yield f"http://127.0.0.1:{server.effective_port}"
    server.close()
    store.clear_cache()


def random_rounds(seed, names):
    """Finished dealt rounds from random legal plays: (facts, revealed text, each seat's cards)."""
    rng = random.Random(seed)
    state = table(names)
    state = act(state, "game.start", {"first_player": "random", "tracking": "dealt"}, HOST)
    found = []
    while state["phase"] == "round":
        r = state["round"]
        if r["result"]:
            view = bm.view_for(state, SCREEN)
            reveal = view["round"]["dealt"]["reveal"]
            found.append({"facts": _replay_facts(view, reveal, view["round"]["plays"]), "text": reveal["text"],
                          "got": {str(s): cards for s, cards in hidden(state)["got"].items()}})
            data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, rng)
            state = bm.apply(state, ev("round.confirm", data))
            continue
        state = random_turn(state, rng)
    return found


def test_the_phone_hashes_and_replays_a_round_as_the_app_does(rigged_server, new_phone):
    page = new_phone()
    code = start_table(page, rigged_server, "blackmail")
    page.goto(f"{rigged_server}/t/{code}/blackmail/verify")
    page.wait_for_function("() => window.BlackmailCheck")
    hashed = page.evaluate("texts => texts.map(t => BlackmailCheck.sha256(t))", VECTORS)
    assert hashed == [hashlib.sha256(t.encode()).hexdigest() for t in VECTORS]
    assert hashed[1] == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    rounds = [r for seed, names in ((1, ("Ana", "Bo")), (2, ("Ana", "Bo", "Cy")), (3, ("Ana", "Bo", "Cy", "Di")),
                                    (4, ("Ana", "Bo", "Cy", "Di")), (5, ("Ana", "Bo", "Cy")))
              for r in random_rounds(seed, names)]
    assert len(rounds) >= 15
    replayed = page.evaluate("""rounds => rounds.map(r => {
        const out = BlackmailCheck.replay(BlackmailCheck.parseText(r.text), r.facts);
        const got = {};
        for (const s in out.got) got[s] = out.got[s].map(g => g.card);
        return {problem: out.problem, got: got};
    })""", rounds)
    for r, mine in zip(rounds, replayed):
        assert mine["problem"] is None, (mine, r)
        assert mine["got"] == r["got"], r


def test_the_verify_page_on_a_phone_passes_and_names_a_changed_card(rigged_server, new_phone):
    url = rigged_server
    host = new_phone()
    code = start_table(host, url, "blackmail")
    ana, bo = new_phone(), new_phone()
    sit_down(ana, f"{url}/t/{code}", "Ana")
    sit_down(bo, f"{url}/t/{code}", "Bo")
    host.wait_for_selector(".bm-setup label.pill:has-text('Bo')")
    host.click("label.mode:has-text('The app deals')")
    host.click(".bm-setup label.pill:has-text('Ana')")
    host.click(".bm-setup button.big")
    fingerprint = deal.short(deal.fingerprint(rigged(ORDER)))
    for page in (ana, bo):
        page.wait_for_selector(f"[data-fingerprint]:text-is('{fingerprint}')")
    # The table screen shows the fingerprint at the deal, and the phones say to glance at it.
    screen = new_phone("Desktop Chrome")
    screen.goto(f"{url}/t/{code}/screen")
    screen.wait_for_selector(f".tv-band [data-fingerprint]:text-is('{fingerprint}')")
    assert "table screen" in bo.locator(".bm-print").inner_text()

    look(ana)
    play_card(ana, PAM, 1, target="Bo", hand=".bm-hand.mine")
    bo.wait_for_selector(".bm-hand.mine")
    look(bo)
    play_card(bo, MALORY, 2, hand=".bm-hand.mine")
    bo.wait_for_selector(".bm-reveal")
    key = f"blackmail:{code}:1-1"
    kept = json.loads(bo.evaluate("k => localStorage.getItem(k)", key))
    assert kept["got"] == [ARCHER, CYRIL, MALORY] and kept["fingerprint"] == deal.fingerprint(rigged(ORDER))

    bo.click(".bm-reveal a:has-text('Check the shuffle')")
    check = bo.locator("[data-verify-round='1'] [data-phone-check]")
    bo.wait_for_selector("[data-verify-round='1'] [data-check='ok']")
    assert "3 cards Bo got match" in check.inner_text()
    assert not bo.locator("details.bm-python").evaluate("d => d.open")     # the Python line, folded

    # The phone remembers Pam's redraw as Pam, not Cyril: the page names that card.
    bo.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(dict(kept, got=[ARCHER, PAM, MALORY]))])
    bo.reload()
    bo.wait_for_selector("[data-verify-round='1'] [data-check='bad']")
    assert check.inner_text() == ("✗ Card 2 this phone got was Pam Poovey (5), but the revealed order gives "
                                  "Cyril Figgis (3) (Pam Poovey (5) on turn 1).")
    # A different fingerprint noted at the deal: the revealed text does not hash to it.
    bo.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(dict(kept, fingerprint="0" * 64))])
    bo.reload()
    bo.wait_for_selector("[data-verify-round='1'] [data-check='bad']")
    assert "does not hash to the fingerprint this phone noted" in check.inner_text()
    # The host's browser played no hand: nothing to compare, and it says so.
    host.goto(f"{url}/t/{code}/blackmail/verify")
    host.wait_for_selector("[data-verify-round='1'] [data-check='none']")

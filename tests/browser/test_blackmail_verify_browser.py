"""The fairness check on the phone (issues 16 and 27): the SHA-256 it runs (@noble/hashes, vendored
in static/) against NIST's vectors and Python's hashlib, its replay of a round against the Python
reducer, and the verify page on a phone that played the round: ✓ as dealt, and the mismatch named
once its remembered card or fingerprint is changed. Nothing the page loads comes from elsewhere."""

import hashlib
import json
import random
import socket
import threading

import pytest

from browser_steps import look, play_card, sit_down, start_table
from companion import create_app
from companion.games import blackmail as bm
from companion.games.blackmail import ARCHER, CHERYL, CYRIL, KRUEGER, MALORY, PAM
from companion.games.blackmail import dealt as deal
from companion.games.blackmail.routes import _replay_facts
from companion.tables import store
from helpers import HOST, ROOT, SCREEN, ev, rigged, server_in_process, stepped
from helpers import dealt_act as act
from helpers import dealt_hidden as hidden
from helpers import dealt_random_turn as random_turn
from helpers import dealt_table as table

# Secret Krueger; Ana Pam, Zoë Archer; Ana draws Cheryl. Ana's Pam on Zoë: Zoë drops Archer and
# draws Cyril, then draws Malory for her turn and plays it. Zoë got Archer, Cyril, Malory.
ORDER = [KRUEGER, PAM, ARCHER, CHERYL, CYRIL, MALORY]

# NIST's SHA-256 examples (FIPS 180-4 and its test vectors): the message and its digest.
NIST = {
    "": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    "abc": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq":  # 448 bits
    "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqr"
    "lmnopqrsmnopqrstnopqrstu":  # 896 bits
    "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1",
    "a" * 1_000_000: "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0",
}
# Padding edges (a block holds 55 bytes of message before the length) and UTF-8 of 2 to 4 bytes.
NON_ASCII_NAMES = ("Zoë", "Łukasz", "李雷", "Ñandú 🙂")
VECTORS = (
    list(NIST)
    + ["x" * n for n in (55, 56, 63, 64, 65, 119, 120)]
    + ["Café · Lana ✓", "e\u0301", " | ".join(NON_ASCII_NAMES), "é" * 28, "🙂" * 16]
)

NOBLE = ROOT / "static" / "vendor" / "noble-hashes-2.4.0"
# sha256 of each file as it is in @noble/hashes 2.4.0's npm package (sha512 integrity
# X5XaVWZIBCT7HHZGm5I7ZQXDwLG+bGXuSrMQAW+7Zvl87h1kmc1ZB1VSRJcpUfoUrGQp4Fkoxm5kZ+Ms+aW+eA==).
NOBLE_FILES = {
    "LICENSE": "4f221aee6e072336700c408c68ab3b96a3fc09f6aebe6f48f1bd99e5ef13faec",
    "_md.js": "60cf3010fda89e3e4d3f0e7ff1ce249e9c467f34b4fd41b6fd6101d9f69be763",
    "_u64.js": "b09da8c07fe8187c07649494cdb7cd0bcf13df90b506a9473d19e4d5f8c2e102",
    "sha2.js": "471746bba6ec4c6238ca41358d1d3b40b6ff31cf3363f0b4d550c649c1a8e83b",
    "utils.js": "037ad49adb78168b6b699598fd33f85f7877456b1d28b4d032e2a1a16807947c",
}
HASH_ALL = "texts => Promise.all(texts.map(t => BlackmailCheck.sha256(t)))"


@pytest.fixture
def rigged_server(tmp_path, monkeypatch):
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged(ORDER))
    with server_in_process(tmp_path) as url:
        yield url


def watch_requests(page):
    """Every URL the page asks for, as a list that fills while the page runs."""
    urls = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def only_from(base, urls):
    """URLs not served by the app (data: URLs are no request)."""
    return [u for u in urls if not u.startswith(base + "/") and not u.startswith("data:")]


def test_the_vendored_library_is_the_published_one():
    assert {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in NOBLE.iterdir()} == NOBLE_FILES
    script = (NOBLE.parent.parent / "games" / "blackmail.js").read_text(encoding="utf-8")
    assert "0x428a2f98" not in script  # no SHA-256 round constants of our own


def lan_address():
    """This machine's IPv4 address on its network, or None (only loopback)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("192.0.2.1", 9))  # UDP: picks the route, sends nothing
        except OSError:
            return None
        address = s.getsockname()[0]
    return None if address.startswith("127.") else address


def test_the_phone_hashes_over_plain_http_on_a_lan(tmp_path, new_phone):
    # A phone on the LAN opens http://<address>/…: no secure context, so no crypto.subtle.
    import waitress

    address = lan_address()
    if address is None:
        pytest.skip("this machine has no network address but loopback")
    store.clear_cache()
    server = waitress.create_server(create_app({"DATA_DIR": str(tmp_path)}), host=address, port=0, threads=4)
    threading.Thread(target=server.run, daemon=True).start()
    page = new_phone()
    try:
        base = f"http://{address}:{server.effective_port}"
        code = start_table(page, base, "blackmail")
        page.goto(f"{base}/t/{code}/blackmail/verify")
        page.wait_for_function("() => window.BlackmailCheck")
        assert page.evaluate("() => [isSecureContext, !!(window.crypto && crypto.subtle)]") == [False, False]
        assert page.evaluate(HASH_ALL, ["abc"]) == [NIST["abc"]]
    finally:
        page.context.close()  # its open requests end before the server does
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
            found.append(
                {
                    "facts": _replay_facts(view, reveal, view["round"]["plays"]),
                    "text": reveal["text"],
                    "fingerprint": reveal["fingerprint"],
                    "got": {str(s): cards for s, cards in hidden(state)["got"].items()},
                }
            )
            data = bm.parse("round.confirm", stepped("round.confirm", {}, state), state, HOST, rng)
            state = bm.apply(state, ev("round.confirm", data))
            continue
        state = random_turn(state, rng)
    return found


def test_the_phone_hashes_and_replays_a_round_as_the_app_does(rigged_server, new_phone):
    page = new_phone()
    code = start_table(page, rigged_server, "blackmail")
    urls = watch_requests(page)
    page.goto(f"{rigged_server}/t/{code}/blackmail/verify")
    page.wait_for_function("() => window.BlackmailCheck")
    hashed = page.evaluate(HASH_ALL, VECTORS)
    assert hashed[: len(NIST)] == list(NIST.values())
    assert hashed == [hashlib.sha256(t.encode()).hexdigest() for t in VECTORS]
    assert f"{rigged_server}/static/vendor/noble-hashes-2.4.0/sha2.js" in urls
    assert only_from(rigged_server, urls) == []

    # Real deals (the app's own shuffle), players with names beyond ASCII.
    rounds = [
        r
        for seed, names in (
            (1, ("Ana", "Bo")),
            (2, ("Ana", "Bo", "Cy")),
            (3, ("Ana", "Bo", "Cy", "Di")),
            (4, NON_ASCII_NAMES),
            (5, NON_ASCII_NAMES[:3]),
        )
        for r in random_rounds(seed, names)
    ]
    assert len(rounds) >= 15
    assert any("李雷" in json.dumps(r["facts"], ensure_ascii=False) for r in rounds)
    hashed = page.evaluate(HASH_ALL, [r["text"] for r in rounds])
    assert hashed == [hashlib.sha256(r["text"].encode()).hexdigest() for r in rounds]
    assert hashed == [r["fingerprint"] for r in rounds]  # what the app committed to at the deal
    replayed = page.evaluate(
        """rounds => rounds.map(r => {
        const out = BlackmailCheck.replay(BlackmailCheck.parseText(r.text), r.facts);
        const got = {};
        for (const s in out.got) got[s] = out.got[s].map(g => g.card);
        return {problem: out.problem, got: got};
    })""",
        rounds,
    )
    for r, mine in zip(rounds, replayed):
        assert mine["problem"] is None, (mine, r)
        assert mine["got"] == r["got"], r


def test_the_verify_page_on_a_phone_passes_and_names_a_changed_card(rigged_server, new_phone):
    url = rigged_server
    host = new_phone()
    code = start_table(host, url, "blackmail")
    ana, bo = new_phone(), new_phone()
    sit_down(ana, f"{url}/t/{code}", "Ana")
    sit_down(bo, f"{url}/t/{code}", "Zoë")  # a name beyond ASCII
    host.wait_for_selector(".bm-setup label.pill:has-text('Zoë')")
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
    play_card(ana, PAM, 1, target="Zoë", hand=".bm-hand.mine")
    bo.wait_for_selector(".bm-hand.mine")
    look(bo)
    play_card(bo, MALORY, 2, hand=".bm-hand.mine")
    bo.wait_for_selector(".bm-reveal")
    key = f"blackmail:{code}:1-1"
    kept = json.loads(bo.evaluate("k => localStorage.getItem(k)", key))
    assert kept["got"] == [ARCHER, CYRIL, MALORY] and kept["fingerprint"] == deal.fingerprint(rigged(ORDER))

    urls = watch_requests(bo)
    bo.click(".bm-reveal a:has-text('Check the shuffle')")
    check = bo.locator("[data-verify-round='1'] [data-phone-check]")
    bo.wait_for_selector("[data-verify-round='1'] [data-check='ok']")
    assert "3 cards Zoë got match" in check.inner_text()
    text = bo.locator("[data-verify-round='1'] [data-commit]").inner_text().strip()
    assert (
        bo.evaluate("t => BlackmailCheck.sha256(t)", text)
        == hashlib.sha256(text.encode()).hexdigest()
        == kept["fingerprint"]
    )
    assert any(u.endswith("/static/vendor/noble-hashes-2.4.0/sha2.js") for u in urls)
    assert only_from(url, urls) == []
    assert not bo.locator("details.bm-python").evaluate("d => d.open")  # the Python line, folded

    # The phone remembers Pam's redraw as Pam, not Cyril: the page names that card.
    bo.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(dict(kept, got=[ARCHER, PAM, MALORY]))])
    bo.reload()
    bo.wait_for_selector("[data-verify-round='1'] [data-check='bad']")
    assert check.inner_text() == (
        "✗ Card 2 this phone got was Pam Poovey (5), but the revealed order gives "
        "Cyril Figgis (3) (Pam Poovey (5) on turn 1)."
    )
    # A different fingerprint noted at the deal: the revealed text does not hash to it.
    bo.evaluate("([k, v]) => localStorage.setItem(k, v)", [key, json.dumps(dict(kept, fingerprint="0" * 64))])
    bo.reload()
    bo.wait_for_selector("[data-verify-round='1'] [data-check='bad']")
    assert "does not hash to the fingerprint this phone noted" in check.inner_text()
    # The host's browser played no hand: nothing to compare, and it says so.
    host.goto(f"{url}/t/{code}/blackmail/verify")
    host.wait_for_selector("[data-verify-round='1'] [data-check='none']")

"""In a real browser: when it becomes a phone's turn, that phone cues its player once
(a vibration, "Your turn" in the tab title, the words in its polite live region), never on a
reload, never for its own tap, never on the host page or the table screen; what someone else
did to a player is read out on that player's phone.

navigator.vibrate is stubbed in every page: each call is counted in the tab's sessionStorage,
so a count survives a reload (a cue set off by the reload would show)."""

import pytest

from browser_steps import post_as, seat_ids, sit_down, start_table

pytest.importorskip("playwright.sync_api")

COUNT_VIBRATIONS = """Object.defineProperty(Navigator.prototype, "vibrate", {configurable: true, value: function () {
  sessionStorage.setItem("buzzes", String(+(sessionStorage.getItem("buzzes") || 0) + 1));
  return true;
}});"""


# A beep is a tone started on the page's AudioContext: the stub counts the starts.
COUNT_BEEPS = """window.AudioContext = class {
  constructor() { this.state = "running"; this.currentTime = 0; this.destination = {}; }
  resume() {}
  createGain() { return {gain: {setValueAtTime() {}, exponentialRampToValueAtTime() {}}, connect: x => x}; }
  createOscillator() { return {frequency: {}, connect: x => x, stop() {}, start() {
    sessionStorage.setItem("beeps", String(+(sessionStorage.getItem("beeps") || 0) + 1)); }}; }
};"""


def buzzes(page):
    return int(page.evaluate("+(sessionStorage.getItem('buzzes') || 0)"))


def beeps(page):
    return int(page.evaluate("+(sessionStorage.getItem('beeps') || 0)"))


def counted(new_phone, **kw):
    page = new_phone(**kw)
    page.add_init_script(COUNT_VIBRATIONS)
    page.add_init_script(COUNT_BEEPS)
    return page


def table_of_two_phones(live_server, new_phone, game):
    """A table of `game` with Ana and Bo seated on their own phones; every page counts its
    buzzes and beeps. Returns (host, code, ana, bo)."""
    host = counted(new_phone)
    code = start_table(host, live_server.url, game)
    ana, bo = counted(new_phone), counted(new_phone)
    sit_down(ana, f"{live_server.url}/t/{code}", "Ana")
    sit_down(bo, f"{live_server.url}/t/{code}", "Bo")
    return host, code, ana, bo


def table_version(page):
    code = page.url.split("/t/")[1].split("/")[0]
    return page.request.get(page.url.split("/t/")[0] + f"/t/{code}/state.json").json()["version"]


def caught_up(host, *pages):
    """Wait until every page shows the table's newest version (its stream brought it)."""
    version = table_version(host)
    for page in pages:
        page.wait_for_function("v => +document.getElementById('live-body').dataset.version >= v", arg=version)


def view(host):
    code = host.url.split("/t/")[1].split("/")[0]
    return host.request.get(host.url.split("/t/")[0] + f"/t/{code}/state.json").json()["state"]


def test_danger_zone_cues_the_phone_whose_turn_it_becomes_once(live_server, new_phone):
    host, code, ana, bo = table_of_two_phones(live_server, new_phone, "danger-zone")
    post_as(host, "/seats", name="Cy")  # no phone
    ids = seat_ids(host)
    for name, character in (("Ana", "Archer"), ("Bo", "Lana"), ("Cy", "Cheryl")):
        post_as(host, "/act/character.pick", seat=str(ids[name]), character=character)
    post_as(host, "/act/locations.draw")
    post_as(host, "/act/initiative.record", seat=str(ids["Cy"]))  # reveals go Cy, Ana, Bo
    post_as(host, "/act/order.confirm", order=",".join(str(ids[n]) for n in ("Ana", "Bo", "Cy")))
    screen = counted(new_phone, device="Desktop Chrome")
    screen.goto(f"{live_server.url}/t/{code}/screen")
    host.goto(f"{live_server.url}/t/{code}/host")
    post_as(host, "/act/round.next", to=view(host)["next_step"])
    everyone = [host, ana, bo, screen]
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 0, 0, 0]  # Cy reveals first: nobody's phone

    # Cy's reveal, recorded on the host page, makes it Ana's turn: her phone alone is cued.
    place = view(host)["locations"][0]["name"]
    post_as(host, "/act/movement.enter", seat=str(ids["Cy"]), location=place)
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 0, 0]
    assert ana.title().startswith("Your turn")
    assert not bo.title().startswith("Your turn") and not host.title().startswith("Your turn")
    ana.wait_for_selector("#announce:has-text('Your turn to reveal')", state="attached")

    # A reload is no new turn, nor is someone else's change while it is still her turn; the
    # change is read out on the phone it concerns (Bo's), without a vibration.
    ana.reload()
    ana.wait_for_selector("section.me [data-your-turn]", state="attached")
    assert ana.title().startswith("Your turn")
    post_as(host, "/act/upper_hand.change", seat=str(ids["Bo"]), delta="1", reason="Card")
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 0, 0]
    bo.wait_for_selector("#announce:has-text('+1 Upper Hand for you')", state="attached")

    # Ana reveals on her phone: Bo's turn. Her own tap does not cue her.
    ana.click(f'section.me .dz-enter button.big[value="{place}"]')
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 1, 0]
    assert not ana.title().startswith("Your turn") and bo.title().startswith("Your turn")

    # Bo holds the Mission Leader Token (moved by hand), reveals, and starts the Mission
    # himself: his own tap makes it his turn to roll, so no cue. Then Cy (no phone) rolls and
    # it is Ana's turn to roll: a new turn, a second cue on her phone.
    post_as(host, "/act/token.move", token="mission_leader", seat=str(ids["Bo"]))
    caught_up(host, *everyone)
    bo.click(f'section.me .dz-enter button.big[value="{place}"]')
    caught_up(host, *everyone)
    bo.click(".dz-compact button:has-text('Start the Mission')")
    caught_up(host, *everyone)
    assert view(host)["whose_turn"] == ids["Bo"]
    bo.wait_for_selector("section.me [data-your-turn$='-roll']", state="attached")
    assert [buzzes(p) for p in everyone] == [0, 1, 1, 0]
    bo.click("section.me button:has-text('I failed the roll')")
    caught_up(host, *everyone)
    post_as(host, "/act/challenge.fail", seat=str(ids["Cy"]))
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 2, 1, 0]
    ana.wait_for_selector("#announce:has-text('Your turn to roll')", state="attached")


def test_blackmail_cues_the_player_to_play_and_reads_out_a_card_played_on_them(live_server, new_phone):
    from browser_steps import play_card
    from companion.games.blackmail import ARCHER, CHERYL, PAM

    host, code, ana, bo = table_of_two_phones(live_server, new_phone, "blackmail")
    post_as(host, "/seats", name="Cy")  # no phone
    ids = seat_ids(host)
    host.goto(f"{live_server.url}/t/{code}/host")
    everyone = [host, ana, bo]
    post_as(host, "/act/game.start", to=view(host)["to"]["start"] or "", tracking="full", first_player=str(ids["Ana"]))
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 0]
    ana.wait_for_selector("#announce:has-text('Your turn: play a card')", state="attached")
    play_card(ana, CHERYL, 1, button="button[value=protect]")  # her own tap: Bo's turn
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 1]
    # Bo plays Pam on Cy; Cy's card is recorded on the host page: Ana's turn again, and Cy
    # (no phone) plays Pam on Bo, which Bo's phone reads out.
    post_as(bo, "/act/play", card=str(PAM), target=str(ids["Cy"]), discarded=str(CHERYL))
    post_as(host, "/act/play", seat=str(ids["Cy"]), card=str(PAM), target=str(ids["Bo"]), discarded=str(ARCHER))
    caught_up(host, *everyone)
    bo.wait_for_selector("#announce:has-text('Cy played Pam Poovey')", state="attached")
    assert [buzzes(p) for p in everyone] == [0, 2, 1]


def test_assassins_cues_every_phone_to_pick_and_the_last_one_alone(live_server, new_phone):
    host, code, ana, bo = table_of_two_phones(live_server, new_phone, "assassins")
    host.goto(f"{live_server.url}/t/{code}/host")
    everyone = [host, ana, bo]
    # Bo wants a sound, not a vibration: two switches beside "Keep screen on", kept on reload.
    bo.get_by_role("switch", name="Vibrate on my turn").click()
    bo.get_by_role("switch", name="Sound on my turn").click()  # it plays once, to be heard
    bo.reload()
    assert not bo.get_by_role("switch", name="Vibrate on my turn").is_checked()
    assert bo.get_by_role("switch", name="Sound on my turn").is_checked()
    assert beeps(bo) == 1 and not ana.get_by_role("switch", name="Sound on my turn").is_checked()
    for name in ("Cy", "Dee"):  # four seats: the game can start, and every phone picks at once
        post_as(host, "/seats", name=name)
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 1, 0] and [beeps(ana), beeps(bo)] == [0, 2]
    ids = seat_ids(host)
    ana.click("section.me button[data-pick=front]")  # her own tap
    for name in ("Cy", "Dee"):
        post_as(host, "/act/draft.pick", seat=str(ids[name]), row="rear")
    caught_up(host, *everyone)
    assert beeps(bo) == 3 and buzzes(bo) == 0  # the table waits for Bo alone
    bo.wait_for_selector("#announce:has-text('the table waits for you')", state="attached")
    bo.click("section.me button[data-pick=front]")  # his pick reveals pick 1
    caught_up(host, *everyone)
    assert [buzzes(p) for p in everyone] == [0, 2, 0] and beeps(bo) == 3  # pick 2: Ana, not Bo (his tap)
    assert ana.title().startswith("Your turn") and bo.title().startswith("Your turn")

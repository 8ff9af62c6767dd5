"""Danger Zone screens through the routes: every action, every bad input from the issue,
the table's own text ("from your box"), and what each screen shows."""

import html as html_lib
import re

import pytest

from companion import box
from companion.db import get_db
from companion.games import danger_zone as dz
from companion.tables import store

CHARACTERS = ["Archer", "Cheryl", "Lana"]


def ok(response):
    assert response.status_code < 400, response.get_data(as_text=True)[:2000]
    return response


def refused(response, message):
    text = html_lib.unescape(response.get_data(as_text=True))
    assert response.status_code == 422, text[:2000]
    found = re.search(r'class="error" role="alert">([^<]*)<', text)
    assert found and message in found.group(1), (found and found.group(1), message)
    return text


def state_of(phone):
    return phone.state()["state"]


def location_names(phone):
    return [loc["name"] for loc in state_of(phone)["locations"]]


def table(host, join, names=("Ana", "Bo", "Cy"), want=(), avoid=()):
    """A Danger Zone table in Setup: characters picked, Locations drawn (until `want` are
    in play and `avoid` are not), Ana holding the Initiative Token."""
    host.start("danger-zone")
    phones = [join(host, name) for name in names]
    for phone, character in zip(phones, CHARACTERS + ["Malory", "Cyril", "Pam", "Krieger", "Ray"]):
        ok(phone.act("character.pick", character=character))
    for _ in range(80):
        ok(host.act("locations.draw"))
        drawn = location_names(host)
        if all(w in drawn for w in want) and not any(a in drawn for a in avoid):
            break
    else:
        pytest.fail("the Locations never came up as wanted")
    ok(host.act("initiative.record", seat=phones[0].seat))
    confirm_order(host)
    return phones


def confirm_order(host):
    order = ",".join(str(s["id"]) for s in state_of(host)["seats"])
    ok(host.act("order.confirm", order=order))


def next_step(phone):
    return dz.next_step(state_of(phone))


def start(host):
    ok(host.act("round.next", to="round 1, Movement"))


def next_phase(host, force="1"):
    ok(host.act("round.next", to=next_step(host), force=force))


def own_table(host):
    """The table's own "from your box" copy (the host edits it), not the server defaults."""
    return store.find_table(get_db(), host.code)


def board(phone, path="/me"):
    return html_lib.unescape(ok(phone.page(path)).get_data(as_text=True))


def seat_of(phone, seat):
    return next(s for s in state_of(phone)["seats"] if s["id"] == seat)


def upper_hand(phone, seat):
    return seat_of(phone, seat)["upper_hand"]


# --- setup ---------------------------------------------------------------------------


def test_setup_screens_show_picks_tiles_tokens_and_event_deck(host, join):
    ana, bo, cy = table(host, join, want=[dz.MALORYS_OFFICE])
    page = board(ana)
    assert "You play" in page and "Archer" in page
    assert re.search(r'value="Lana"[^>]*disabled', page)  # Cy's pick is not offered to Ana
    drawn = location_names(host)
    host_page = board(host, "/host")
    tiles = re.search(r"data-locations-in-play>(.*?)</ul>", host_page, re.S).group(1)
    back = re.search(r"data-tokens-to-box>(.*?)</ul>", host_page, re.S).group(1)
    assert all(name in tiles for name in drawn)
    assert all(name in back for name in dz.LOCATIONS if name not in drawn)
    assert "Event cards get shuffled" in host_page
    assert "Draw the Locations again" in host_page and "Start round 1" in host_page
    screen = board(host, "/screen")
    assert "Cy" in screen and "act/" not in screen  # the table screen is read-only


def test_redraw_is_logged_and_only_before_round_one(host, join):
    ana, *_ = table(host, join)
    ok(host.act("locations.draw"))
    log = [entry["text"] for entry in host.state()["log"]]
    assert any("re-drawn" in text for text in log)
    start(host)
    refused(host.act("locations.draw"), "only be drawn again before the first round")


def test_initiative_roll_off_in_the_app(host, join):
    table(host, join)
    ok(host.act("initiative.roll"))
    page = board(host, "/host")
    assert "takes the Initiative Token" in page and 'class="dz-rolloff"' in page


def test_only_the_host_draws_and_rolls(host, join):
    ana, *_ = table(host, join)
    assert ana.act("locations.draw").status_code == 403
    assert ana.act("initiative.roll").status_code == 403
    assert ana.act("initiative.record", seat=ana.seat).status_code == 403


def test_duplicate_character_is_refused(host, join):
    ana, bo, cy = table(host, join)
    refused(bo.act("character.pick", character="Archer"), "Ana already plays Archer")
    assert seat_of(host, bo.seat)["character"] == "Cheryl"


def test_a_phone_picks_only_its_own_character(host, join):
    ana, bo, cy = table(host, join)
    refused(bo.act("character.pick", seat=cy.seat, character="Ray"), "your own seat")
    ok(host.act("character.pick", seat=cy.seat, character="Ray"))
    assert seat_of(host, cy.seat)["character"] == "Ray"


def test_one_player_cannot_start(host, join):
    host.start("danger-zone")
    ana = join(host, "Ana")
    ok(ana.act("character.pick", character="Archer"))
    refused(host.act("locations.draw"), "needs 2 to 8 players; this table has 1")
    refused(host.act("round.next", to="round 1, Movement"), "needs 2 to 8 players")
    assert "needs 2 to 8 players" in board(host, "/host")


def test_a_ninth_seat_is_refused(host, join, client):
    host.start("danger-zone")
    for name in ["P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8"]:
        join(host, name)
    response = client.post(f"/t/{host.code}/join", data={"name": "P9"})
    assert response.status_code == 400
    assert "at most 8 players" in response.get_data(as_text=True)
    assert len(state_of(host)["seats"]) == 8


def test_start_is_refused_until_setup_is_done(host, join):
    host.start("danger-zone")
    join(host, "Ana")
    join(host, "Bo")
    refused(host.act("round.next", to="round 1, Movement"), "Still to pick a character")


# --- rounds --------------------------------------------------------------------------


def test_round_tracker_movement_and_first_player_effects(host, join):
    ana, bo, cy = table(host, join, want=[dz.MALORYS_OFFICE, dz.RECEPTION])
    start(host)
    page = board(bo)
    assert "data-round-number>1<" in page and 'aria-current="step">Movement' in page
    assert "Next to reveal: <b>Ana</b>" in page  # Ana holds the Initiative Token
    assert re.search(r"Reveal order.*Ana</li><li>Bo</li><li>Cy", page, re.S)
    assert "Your turn to reveal" in board(ana)
    refused(bo.act("movement.enter", seat=ana.seat, location=dz.RECEPTION), "your own seat")
    ok(ana.act("movement.enter", location=dz.MALORYS_OFFICE))
    ok(bo.act("movement.enter", location=dz.RECEPTION))
    page = board(cy)
    office = re.search(r'data-location="Malory\'s Office">(.*?)</li>', page, re.S).group(1)
    assert "Ana" in office and "Draw an Event card." in office
    assert "Ana</b> entered Malory's Office first: draw an Event card" in page
    assert state_of(host)["initiative"]["seat"] == bo.seat  # first into Reception
    refused(
        cy.act(
            "movement.enter",
            location="Bullpen"
            if "Bullpen" not in location_names(host)
            else "Breakroom"
            if "Breakroom" not in location_names(host)
            else "Control Room",
        ),
        "not in play",
    )


def test_tiles_show_the_tables_own_text_or_see_your_tile(app, host, join):
    ana, bo, cy = table(host, join, want=["Bullpen", "Breakroom"])
    start(host)
    with app.app_context():
        box.put(get_db(), "danger-zone", "location-bullpen", "Gain 1 Upper Hand.", own_table(host))
    page = board(ana)
    bullpen = re.search(r'data-location="Bullpen">(.*?)</li>', page, re.S).group(1)
    breakroom = re.search(r'data-location="Breakroom">(.*?)</li>', page, re.S).group(1)
    assert "Gain 1 Upper Hand." in bullpen and "See your tile." in breakroom
    with app.app_context():  # the rules lookup's own id works too
        box.put(get_db(), "danger-zone", "breakroom", "Draw a card.", own_table(host))
    assert "Draw a card." in board(ana)


def test_a_boards_box_text_is_read_once_for_its_phones(app, host, join):
    """Every phone renders its board on every change; the table's box text is read once for
    them all (within a second), and an edit made here is read at once."""
    table(host, join)
    reads = []
    with app.app_context():
        own = own_table(host)

        def connect():
            reads.append(1)
            return get_db()

        box.put(get_db(), "danger-zone", "breakroom", "Draw a card.", own)
        for _ in range(8):
            assert box.for_board(connect, "danger-zone", own) == {"breakroom": "Draw a card."}
        assert len(reads) == 1
        box.put(get_db(), "danger-zone", "breakroom", "Draw two cards.", own)
        assert box.for_board(connect, "danger-zone", own) == {"breakroom": "Draw two cards."}
        assert len(reads) == 2


def test_mission_leader_by_least_upper_hand_with_why(host, join):
    ana, bo, cy = table(host, join, avoid=[dz.CONTROL_ROOM])
    start(host)
    ok(host.act("upper_hand.change", seat=cy.seat, delta=-2, reason="Insult"))
    assert "Cy has the least Upper Hand (3) right now" in board(ana)
    next_phase(host)
    page = board(ana)
    assert "Cy leads with the least Upper Hand (3), as the Control Room is not in play." in page
    assert re.search(r"Roll order.*Cy</li><li>Ana</li><li>Bo", page, re.S)


def test_mission_tie_is_rolled_off_and_shown(host, join):
    table(host, join, avoid=[dz.CONTROL_ROOM])
    start(host)
    next_phase(host)
    page = board(host, "/host")
    assert "tied and" in page and "won the roll-off" in page and 'class="dz-rolloff"' in page


def test_challenges_recorded_per_seat_with_odds_on_the_phone(host, join):
    ana, bo, cy = table(host, join, avoid=[dz.CONTROL_ROOM])
    start(host)
    refused(
        ana.act("challenge.complete", type="Booze", difficulty=8, reward=2),
        "Challenges are completed in the Mission phase",
    )
    next_phase(host)
    ok(
        host.act(
            "challenge.draw",
            type_1="Booze",
            difficulty_1=8,
            reward_1=2,
            type_2="Sex",
            difficulty_2=10,
            reward_2=3,
            type_3="Guns",
            difficulty_3=10,
            reward_3=4,
        )
    )
    ana_page, bo_page, cy_page = board(ana), board(bo), board(cy)
    # Archer: 3 dice for Booze (rulebook); Cheryl: 3 dice for Sex; Lana: unknown, all three.
    assert "83.8%</b> with 3 dice" in ana_page
    assert "62.5%</b> with 3 dice" in bo_page
    guns = re.search(r'data-card="3">(.*?)</li>', cy_page, re.S).group(1)
    assert all(f"with {n} di" in guns for n in (1, 2, 3))
    leader = state_of(host)["mission_leader"]["seat"]
    phone = {ana.seat: ana, bo.seat: bo, cy.seat: cy}[leader]
    ok(phone.act("challenge.complete", card=1))
    assert upper_hand(host, leader) == 7
    assert "data-completed>" in board(host, "/screen") and "Booze" in board(host, "/screen")
    other = next(p for p in (ana, bo, cy) if p.seat != leader)
    refused(host.act("challenge.complete", seat=other.seat, card=1), "already completed")
    # One Challenge each per Mission: a second is refused; the host's correction is logged.
    refused(phone.act("challenge.complete", card=2), "each player rolls against one Challenge")
    assert phone.act("challenge.correct", seat=leader, card=2).status_code == 403
    ok(host.act("challenge.correct", seat=leader, card=2))
    assert upper_hand(host, leader) == 10
    assert any(e["text"].startswith("Correction by the host:") for e in host.state()["log"])


@pytest.mark.parametrize(
    "field,value,message",
    [
        ("reward", "5", "reward must be between 1 and 4"),
        ("reward", "0", "reward must be between 1 and 4"),
        ("difficulty", "5", "difficulty must be between 6 and 14"),
        ("difficulty", "15", "difficulty must be between 6 and 14"),
        ("difficulty", "ten", "whole number"),
        ("type", "Charm", "Pick a Challenge type"),
    ],
)
def test_bad_challenge_input_is_refused(host, join, field, value, message):
    ana, *_ = table(host, join)
    start(host)
    next_phase(host)
    form = {"type": "Booze", "difficulty": "8", "reward": "2", field: value}
    refused(ana.act("challenge.complete", **form), message)
    assert seat_of(host, ana.seat)["challenges"] == []


def test_clean_up_passes_initiative_and_next_round(host, join):
    ana, bo, cy = table(host, join, avoid=[dz.RECEPTION])
    start(host)
    next_phase(host)
    next_phase(host)
    page = board(cy)
    assert "passed left to Bo" in page and "Start round 2" in page
    next_phase(host)
    assert "data-round-number>2<" in board(cy)
    refused(host.act("round.next", to="round 1, Clean-up"), "already at round 2, Movement")


# --- Upper Hand ----------------------------------------------------------------------


def test_upper_hand_quick_custom_and_reasons(host, join):
    ana, bo, cy = table(host, join)
    start(host)
    ok(bo.act("upper_hand.change", seat=ana.seat, delta=-2, reason="Insult"))
    ok(bo.act("upper_hand.change", seat=cy.seat, amount=3, sign="+", reason="Card"))
    ok(bo.act("upper_hand.change", seat=cy.seat, delta="−1", reason="Correction"))
    assert upper_hand(host, ana.seat) == 3 and upper_hand(host, cy.seat) == 7
    page = board(ana)
    assert "−1 Correction · Bo" in page.replace("-1", "−1")
    log = [entry["text"] for entry in host.state()["log"]]
    assert "Ana -2 Upper Hand, insult (now 3)" in log


@pytest.mark.parametrize(
    "form,message",
    [
        ({"delta": "-6", "reason": "Insult"}, "would go below 0"),
        ({"delta": "0", "reason": "Insult"}, "cannot be zero"),
        ({"delta": "99", "reason": "Insult"}, "between -20 and 20"),
        ({"delta": "1", "reason": "Bribe"}, "Pick a reason"),
        ({"amount": "6", "sign": "-", "reason": "Card"}, "would go below 0"),
        ({"amount": "x", "sign": "+", "reason": "Card"}, "whole number"),
    ],
)
def test_bad_upper_hand_changes_are_refused(host, join, form, message):
    ana, *_ = table(host, join)
    start(host)
    refused(ana.act("upper_hand.change", seat=ana.seat, **form), message)
    assert upper_hand(host, ana.seat) == 5


def test_winner_banner_on_every_screen_and_undo_reopens(host, join):
    ana, bo, cy = table(host, join)
    start(host)
    ok(bo.act("upper_hand.change", seat=bo.seat, delta=15, reason="Card"))
    for page in (board(ana), board(bo), board(cy), board(host, "/host"), board(host, "/screen")):
        banner = re.search(r"data-winner>(.*?)</section>", page, re.S).group(1)
        assert "Bo</span>\n    wins!" in banner or re.search(r"Bo</span>\s*wins!", banner)
        assert re.search(r"Final standings.*Bo.*20.*Ana.*5", banner, re.S)
        # The race is the game's end chart under the board, drawn once: no old race beside it.
        assert "data-race-chart" not in page
        end = re.search(r'<section id="live-chart".*?</section>', page, re.S).group(0)
        assert "Upper Hand by round" in end and end.count("<polyline") == 3
        assert ">Bo 20</text>" in end and ">20 wins</text>" in end
    refused(ana.act("upper_hand.change", seat=ana.seat, delta=1, reason="Insult"), "The game is over")
    win = [e for e in host.state()["log"] if "won" in e["text"]][-1]
    ok(host.post(f"/undo/{win['id']}"))
    assert "data-winner" not in board(ana)


def test_race_chart_is_svg_without_style_attributes(host, join):
    ana, bo, cy = table(host, join)
    start(host)
    ok(host.act("upper_hand.change", seat=bo.seat, delta=3, reason="Insult"))
    for _ in range(3):
        next_phase(host)  # to round 2
    page = board(host, "/host")
    chart = re.search(r"<svg[^>]*data-race-chart.*?</figure>", page, re.S).group(
        0
    )  # each seat's line is an <svg> inside
    assert "style=" not in chart
    assert chart.count("<polyline") == 3 and 'stroke="#' in chart
    assert ">Start<" in chart and ">R1<" in chart and ">now<" in chart
    assert "Bo 8" in chart
    # A phone keeps it folded away; the TV has no room for it mid-game (seats first).
    assert re.search(r'<details class="fold[^"]*">.*data-race-chart.*</details>', board(ana), re.S)
    assert "data-race-chart" not in board(host, "/screen")


# --- Events and dice -----------------------------------------------------------------


def test_events_preview_in_the_confirmation_and_apply_once(host, join):
    ana, bo, cy = table(host, join, want=[dz.MALORYS_OFFICE])
    start(host)
    ok(host.act("upper_hand.change", seat=cy.seat, delta=4, reason="Insult"))
    ok(ana.act("movement.enter", location=dz.MALORYS_OFFICE))
    page = board(bo)
    assert "Embarrassing Pictures, passed left: passed left 2 times to Cy, who loses 2 Upper Hand. Apply?" in page
    assert "Rona Thorne: least Upper Hand (5): Ana +4, Bo +2. Apply?" in page
    ok(bo.act("event.embarrassing_pictures", drawer=ana.seat, direction="left"))
    assert upper_hand(host, cy.seat) == 7
    ok(bo.act("event.rona_thorne", drawer=ana.seat))
    assert upper_hand(host, ana.seat) == 9 and upper_hand(host, bo.seat) == 7
    ok(bo.act("event.woodhouse", drawer=ana.seat, amount=2, sign="-"))
    assert upper_hand(host, ana.seat) == 7  # alone at Malory's Office
    ok(cy.act("event.uta", drawer=ana.seat))
    assert "Uta" in board(cy) and "data-last-event" in board(cy)
    refused(cy.act("event.uta", drawer=ana.seat, **{f"roll_{ana.seat}": "3"}), "Type a roll for every player")


def test_events_need_malorys_office(host, join):
    ana, *_ = table(host, join, avoid=[dz.MALORYS_OFFICE])
    start(host)
    assert "Embarrassing Pictures" not in board(ana)
    refused(ana.act("event.rona_thorne", drawer=ana.seat), "not in play")


def test_digital_dice_and_roll_off(host, join):
    ana, bo, cy = table(host, join)
    ok(ana.act("dice.roll", dice=3))
    assert 'class="dz-die"' in board(bo)
    ok(bo.act("dice.roll", rolloff=1, dice=1, **{f"with_{ana.seat}": 1, f"with_{cy.seat}": 1}))
    roll = state_of(host)["last_roll"]
    assert roll["rolloff"]["winner"] in (ana.seat, cy.seat)
    refused(bo.act("dice.roll", rolloff=1, dice=1, **{f"with_{ana.seat}": 1}), "at least two")
    refused(bo.act("dice.roll", rolloff=1, dice=1), "Tick at least two")
    refused(bo.act("dice.roll", dice=4), "between 1 and 3")


@pytest.mark.parametrize("entry", ["dice-lana", "lana-dice"])  # the rules lookup's own id too
def test_odds_table_and_typed_dice_from_the_box(app, host, join, entry):
    ana, bo, cy = table(host, join)
    page = board(cy)
    assert "dz-odds-table" in page and "2.8%" in page  # 2 dice, difficulty 12
    with app.app_context():
        box.put(get_db(), "danger-zone", entry, "Booze 2, Guns 3, Sex 1, Smarts 2", own_table(host))
    start(host)
    next_phase(host)
    ok(host.act("challenge.draw", type_1="Guns", difficulty_1=10, reward_1=3))
    card = re.search(r'data-card="1">(.*?)</li>', board(cy), re.S).group(1)
    assert "62.5%</b> with 3 dice" in card and "(typed in)" in card and "with 1 die" not in card


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Booze 2, Guns 3, Sex 1, Smarts 2", {"Booze": 2, "Guns": 3, "Sex": 1, "Smarts": 2}),
        ('{"booze": 1, "guns": 9}', {"Booze": 1}),
        ("smarts: 3", {"Smarts": 3}),
        ("nothing here", {}),
    ],
)
def test_typed_dice_are_read_not_guessed(text, expected):
    assert dz.parse_typed_dice(text) == expected


def test_a_late_joiner_picks_a_character_from_the_scoreboard(host, join):
    ana, bo, cy = table(host, join)
    start(host)
    di = join(host, "Di")
    assert "Pick character" in board(di) and "Pick character" not in board(ana)
    refused(di.act("character.pick", character="Archer"), "Ana already plays Archer")
    ok(di.act("character.pick", character="Ray"))
    assert seat_of(host, di.seat)["character"] == "Ray"
    refused(ana.act("character.pick", character="Pam"), "fixed once the first round has started")


def test_eight_phones_tapping_next_phase_together_move_the_table_once(host, join):
    import threading

    names = ("Ana", "Bo", "Cy", "Di", "Ed", "Flo", "Gus")
    phones = [host] + table(host, join, names)
    start(host)
    to = next_step(host)
    barrier, statuses = threading.Barrier(len(phones)), []

    def tap(phone):
        barrier.wait()
        statuses.append(phone.act("round.next", to=to, force="1").status_code)

    threads = [threading.Thread(target=tap, args=(p,)) for p in phones]
    [t.start() for t in threads]
    [t.join() for t in threads]
    assert sorted(statuses) == [200] + [422] * 7
    assert state_of(host)["phase"] == "Mission"
    assert [e["kind"] for e in host.state()["log"]].count("round.next") == 2

"""Every form that moves the game on or records a step names the step it
belongs to (games.base.STEP_FIELD), and a tap for another step is refused, in one place
(games.base.check_named_step, asked by store.act for every door).

Each action kind is sent the way a phone sends it: its form's fields as a page drew them,
after the step moved on (a stale page), and after it moved on further while the tap waited
on a phone that lost the Wi-Fi (held across a step)."""

import html as html_lib
import re

import pytest

from companion.db import get_db
from companion.games import assassins, base, blackmail
from companion.games import danger_zone as dz
from companion.tables import store
from helpers import act_forms

STEP = base.STEP_FIELD
REFUSED = "That tap was made at"


# --- the forms as a page draws them ------------------------------------------------------


def form_for(phone, kind, path="/me", **match):
    """The fields of the page's first form for `kind` whose fields hold `match`."""
    for fields in act_forms(phone, path).get(kind, []):
        if all(fields.get(k) == str(v) for k, v in match.items()):
            return dict(fields)
    raise AssertionError(f"no {kind} form with {match} on {path}")


def send(phone, kind, fields, **more):
    """Post a form's fields as drawn (csrf: the phone's own), with the choices a person made."""
    data = {k: v for k, v in fields.items() if k != "csrf"}
    data.update({k: str(v) for k, v in more.items()})
    return phone.post(f"/act/{kind}", data)


def error_text(response):
    text = html_lib.unescape(response.get_data(as_text=True))
    found = re.search(r'class="error" role="alert">([^<]*)<', text)
    return found.group(1) if found else text[:600]


def refused_as_stale(response, was, now):
    said = error_text(response)
    assert response.status_code == 422, said
    assert REFUSED in said and was in said and now in said, said


def step_of(phone):
    return phone.state()["state"]["step"]


def version(phone):
    return phone.state()["log"][-1]["id"] if phone.state()["log"] else 0


def ok(response):
    assert response.status_code < 400, error_text(response)
    return response


# --- the one check, for every kind of every game ------------------------------------------


def bound_kinds(module):
    return sorted(set(module.KINDS) - set(module.ANY_STEP))


@pytest.mark.parametrize("slug,kind", [(m.SLUG, kind) for m in (dz, blackmail, assassins) for kind in bound_kinds(m)])
def test_every_kind_of_every_game_is_refused_for_another_step(app, slug, kind):
    """A tap of any kind that belongs to a step, named for another step, changes nothing and
    says why, before the rules look at its other fields: the one check, in store.act, that
    every door (phone, host page, tablet, the game's own routes) goes through."""
    with app.app_context():
        db = get_db()
        table, _ = store.create_table(db, slug)
        for name in ("Ana", "Bo", "Cy"):
            store.add_seat(db, table, name, store.HOST)
        folded = store.load(db, table)
        now = table.module.step_now(folded.state)
        with pytest.raises(base.RuleError) as refusal:
            store.act(db, table, kind, {STEP: "round 9 of an old screen"}, store.HOST)
        said = str(refusal.value)
        assert REFUSED in said and "round 9 of an old screen" in said and now in said, said
        assert store.load(db, table).version == folded.version


def test_kinds_that_hold_any_step_are_not_refused_for_it(host, join):
    host.start("danger-zone")
    ana = join(host, "Ana")
    response = ana.act("character.pick", character="Archer", **{STEP: "round 9 of an old screen"})
    ok(response)


def test_the_plain_scoreboard_has_no_steps(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    ok(ana.act("score", seat=ana.seat, delta=2, **{STEP: "anything at all"}))
    assert "step" not in ana.state()["state"]


def test_every_step_kind_form_on_every_page_names_the_step_now(host, join, app):
    """Each game at a few steps: every form of a kind that belongs to a step, on the phone,
    the host page and the tablet, names the step the table is at."""

    def check(phone, path, module):
        now = step_of(host)
        for kind, forms in act_forms(phone, path).items():
            if kind in module.ANY_STEP:
                continue
            for fields in forms:
                assert fields.get(STEP) == now, (path, kind, fields)

    seen = set()
    # Danger Zone: Setup, Movement, Mission.
    ana, _bo, _cy = dz_table(host, join)
    for _ in range(3):
        for phone, path in ((ana, "/me"), (host, "/host")):
            check(phone, path, dz)
            seen.update(act_forms(phone, path))
        ok(host.act("round.next", to=dz.next_step(host.state()["state"]), force="1", page="host"))
    assert {"movement.enter", "round.next", "dice.roll", "challenge.draw"} <= seen, seen


# --- the findings, as a table met them -----------------------------------------------------


def dz_table(host, join):
    """Danger Zone in Setup, three seats with characters, Ana holding the Initiative."""
    host.start("danger-zone")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy")]
    for phone, character in zip(phones, ("Archer", "Cheryl", "Lana")):
        ok(phone.act("character.pick", character=character))
    ok(host.act("locations.draw"))
    ok(host.act("initiative.record", seat=phones[0].seat))
    order = ",".join(str(s["id"]) for s in host.state()["state"]["seats"])
    ok(host.act("order.confirm", order=order))
    return phones


def dz_next(host, force="1"):
    ok(host.act("round.next", to=dz.next_step(host.state()["state"]), force=force, page="host"))


def dz_to_round(host, number):
    """On to round `number`'s Movement, skipping whoever has not had their go."""
    while not (host.state()["state"]["round"] == number and host.state()["state"]["phase"] == "Movement"):
        dz_next(host)


def test_danger_zone_reveal_kept_from_round_3_is_not_round_4s(host, join):
    ana, bo, cy = dz_table(host, join)
    dz_to_round(host, 3)
    state = host.state()["state"]
    phone = next(p for p in (ana, bo, cy) if p.seat == state["whose_turn"])
    location = state["locations"][0]["name"]
    tap = form_for(phone, "movement.enter", location=location)  # drawn in round 3, held offline
    assert tap[STEP] == "round 3, Movement"
    dz_to_round(host, 4)  # the host moves on meanwhile
    response = send(phone, "movement.enter", tap)
    refused_as_stale(response, "round 3, Movement", "round 4, Movement")
    state = host.state()["state"]
    assert not any(seat["location"] for seat in state["seats"])
    assert state["mission_leader"]["seat"] is None or state["mission_leader"]["why"] != "first"


def test_danger_zone_stale_page_each_kind(host, join):
    """A page drawn in one phase, tapped after the phase moved on: the reveal, the Challenge
    cards, a Challenge, a roll, an Event card, the next step."""
    ana, bo, cy = dz_table(host, join)
    dz_to_round(host, 1)
    first = next(p for p in (ana, bo, cy) if p.seat == host.state()["state"]["whose_turn"])
    enter = form_for(first, "movement.enter")
    next_from_movement = form_for(host, "round.next", "/host")
    dz_next(host)  # on to the Mission
    refused_as_stale(send(first, "movement.enter", enter), "round 1, Movement", "round 1, Mission")
    refused_as_stale(send(host, "round.next", next_from_movement, force="1"), "round 1, Movement", "round 1, Mission")
    mission = {kind: form_for(host, kind, "/host") for kind in ("challenge.draw", "dice.roll")}
    events = {kind: forms[0] for kind, forms in act_forms(host, "/host").items() if kind.startswith("event.")}
    dz_next(host)  # on to Clean-up
    for kind, fields in {**mission, **events}.items():
        refused_as_stale(send(host, kind, fields), "round 1, Mission", "round 1, Clean-up")


def blackmail_full(host, join):
    host.start("blackmail")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy")]
    start = host.state()["state"]["to"]["start"]
    ok(host.act("game.start", to=start, tracking="full", first_player=phones[0].seat, page="host"))
    return phones


def test_blackmail_play_held_across_turns(host, join):
    ana, bo, cy = blackmail_full(host, join)
    protect = dict(form_for(ana, "play"))  # Ana's turn 1, drawn on her phone
    assert protect[STEP].startswith("turn 1 of round 1")
    plays = [(ana, blackmail.KRUEGER), (bo, blackmail.KRUEGER), (cy, blackmail.CHERYL)]
    for phone, card in plays:  # meanwhile the host records turns 1–3
        ok(host.act("play", seat=phone.seat, card=card, named="1", choice="protect", page="host"))
    assert step_of(host).startswith("turn 4 of round 1")  # Ana's turn again
    response = send(ana, "play", protect, card=blackmail.CHERYL, choice="protect")
    refused_as_stale(response, "turn 1 of round 1", "turn 4 of round 1")
    assert len(host.state()["state"]["round"]["plays"]) == 3


def assassins_table(host, join):
    host.start("assassins")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy", "Di")]
    return phones


def test_assassins_points_held_from_number_3_land_nowhere(host, join):
    ana, bo, _cy, _di = assassins_table(host, join)
    ok(host.act("resolve.step", step="next", to="1", force="1", page="host"))
    ok(host.act("resolve.step", step="next", to="2", page="host"))
    ok(host.act("resolve.step", step="next", to="3", page="host"))
    points = form_for(ana, "points", seat=ana.seat)
    kill = form_for(host, "kill", "/host", seat=bo.seat)
    assert points[STEP] == "number 3 of round 1"
    ok(host.act("resolve.step", step="next", to="4", page="host"))
    refused_as_stale(send(ana, "points", points, delta="2"), "number 3 of round 1", "number 4 of round 1")
    refused_as_stale(send(host, "kill", kill), "number 3 of round 1", "number 4 of round 1")
    state = host.state()["state"]
    assert not any(s.get("preliminary") for s in state["seats"]) and not any(s.get("dead") for s in state["seats"])


def test_assassins_draft_pick_held_into_resolving(host, join):
    ana, *_ = assassins_table(host, join)
    pick = form_for(ana, "draft.pick")
    assert pick[STEP] == "the draft of round 1"
    ok(host.act("resolve.step", step="next", to="1", force="1", page="host"))
    refused_as_stale(
        send(ana, "draft.pick", pick, row="front", card="Soldier"), "the draft of round 1", "number 1 of round 1"
    )

"""Each game's course from its log (companion/charts/series.py), drawn and told (svg.py)."""

import json
import random
import re
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

from flask import render_template

from companion.charts import series, svg
from companion.games import assassins, blackmail
from companion.games import danger_zone as dz
from companion.games.blackmail.moves import next_round_step, start_step
from companion.tables import store
from helpers import DZ_NO_TOKENS as NO_TOKENS
from helpers import HOST

NAUGHTY = "<script>alert(1)</script>"


class Log:
    """A table's events as store.events returns them, each parsed against the fold before it."""

    def __init__(self, game, options=None):
        self.game, self.options = game, options or {}
        self.table = store.Table(0, "TEST", game, "", None, self.options)
        self.events = []

    def state(self):
        return store._fold(self.table, self.events).state

    def add(self, kind, data, by=HOST):
        at = datetime(2024, 5, 1, 20, 0, tzinfo=timezone.utc) + timedelta(minutes=len(self.events))
        self.events.append(
            {"id": len(self.events) + 1, "kind": kind, "data": data, "by": by, "at": at.isoformat(), "action_id": None}
        )
        return len(self.events)

    def act(self, kind, form=None, by=HOST, seed=1):
        form = {k: str(v) for k, v in (form or {}).items()}
        data = self.table.module.parse(kind, form, self.state(), by, random.Random(seed))
        return self.add(kind, json.loads(json.dumps(data)), by)  # as the store keeps it

    def join(self, seat, name):
        return self.add("seat.join", {"seat": seat, "name": name, "phone": True})

    def undo(self, event_id):
        return self.add("undo", {"event": event_id})

    def charts(self):
        return series.charts(self.events, self.game, self.options)


def line(chart, seat, kind="seats"):
    return next(s for s in chart[kind] if s["seat"] == seat)["points"]


# --- Danger Zone ------------------------------------------------------------------------


def dz_next(log):
    return log.act("round.next", {"to": dz.next_step(log.state()), "force": "1"})


def dz_started(names=("Ana", "Bo", "Cy"), initiative=2):
    log = Log(dz.SLUG)
    for seat, name in enumerate(names, 1):
        log.join(seat, name)
        log.act("character.pick", {"seat": seat, "character": dz.CHARACTERS[seat - 1]})
    log.add("locations.draw", {"locations": NO_TOKENS, "draw": 1})
    log.act("initiative.record", {"seat": initiative})
    log.act("order.confirm", {"order": ",".join(str(s) for s in range(1, len(names) + 1))})
    dz_next(log)
    return log


def dz_round_end(log):
    for _ in range(3):  # Movement -> Mission -> Clean-up -> the next round's Movement
        dz_next(log)


def test_danger_zone_upper_hand_by_round_without_the_undone_change_and_with_a_late_seat():
    log = dz_started()
    log.act("upper_hand.change", {"seat": 1, "delta": 3})
    wrong = log.act("upper_hand.change", {"seat": 2, "delta": 4})
    log.undo(wrong)
    dz_round_end(log)
    log.join(4, "Di")  # sits down in round 2, at 5 Upper Hand
    log.act("upper_hand.change", {"seat": 4, "delta": 2})
    dz_round_end(log)
    log.act("upper_hand.change", {"seat": 1, "delta": 12})  # 20: the game ends in round 3

    [chart] = log.charts()
    assert chart["steps"] == ["Start", "Round 1", "Round 2", "Round 3"]
    assert chart["line"] == dz.WINNING_UPPER_HAND and chart["measure"] == "Upper Hand"
    assert line(chart, 1) == [[0, 5], [1, 8], [2, 8], [3, 20]]
    assert line(chart, 2) == [[0, 5], [1, 5], [2, 5], [3, 5]]  # the undone +4 is not there
    assert line(chart, 4) == [[2, 7], [3, 7]]  # begins where Di joined
    assert chart["finished"] and chart["winners"] == [1]
    assert chart["start_seat"] == 2  # the Initiative Token opened round 1
    assert [row["seats"] for row in chart["lead_changes"]] == [[1]]
    # The same numbers as the game's own race.
    race = dz.race_chart(log.state())
    for seat in race["series"]:
        drawn = dict(map(tuple, line(chart, seat["seat"])))
        assert [drawn.get(i) for i in range(len(race["rounds"]))] == seat["points"]


def test_danger_zone_left_under_way_ends_on_its_numbers_now():
    log = dz_started()
    log.act("upper_hand.change", {"seat": 3, "delta": 6})
    [chart] = log.charts()
    assert chart["steps"] == ["Start", "Round 1 so far"] and not chart["finished"]
    assert line(chart, 3) == [[0, 5], [1, 11]] and chart["winners"] == []


# --- Blackmail --------------------------------------------------------------------------


def bm_start(log, first):
    return log.act("game.start", {"first_player": first, "to": start_step(log.state())})


def bm_round(log, *winners):
    form = {"winners": " ".join(map(str, winners)), "to": next_round_step(log.state())}
    return log.act("round.score", form)


def test_blackmail_victory_points_per_round_per_game_with_the_target_and_round_winners():
    log = Log(blackmail.SLUG)
    for seat, name in enumerate(("Ana", "Bo", "Cy"), 1):
        log.join(seat, name)
    bm_start(log, 2)
    bm_round(log, 1)
    bm_round(log, 2)
    log.undo(bm_round(log, 3))  # undone: Cy won no round
    bm_round(log, 1)
    bm_round(log, 1, 2)
    bm_round(log, 1)  # Ana reaches 4: the game is over
    log.join(4, "Di")  # between games
    bm_start(log, 4)
    bm_round(log, 4)
    log.act("game.reset")  # a game the host reset is no game
    bm_start(log, 3)
    bm_round(log, 3)

    first, second = log.charts()
    assert first["line"] == blackmail.VP_TO_WIN[3] and second["line"] == blackmail.VP_TO_WIN[4]
    assert first["steps"] == ["Start"] + [f"Round {n}" for n in range(1, 6)]
    assert line(first, 1) == [[0, 0], [1, 1], [2, 1], [3, 2], [4, 3], [5, 4]]
    assert line(first, 3) == [[i, 0] for i in range(6)]
    assert first["round_winners"] == [[1, [1]], [2, [2]], [3, [1]], [4, [1, 2]], [5, [1]]]
    assert first["finished"] and first["winners"] == [1] and first["start_seat"] == 2
    assert [s["seat"] for s in first["seats"]] == [1, 2, 3]  # Di sat down after it
    assert second["number"] == 2 and not second["finished"] and second["start_seat"] == 3
    assert line(second, 4) == [[0, 0], [1, 0]] and line(second, 3) == [[0, 0], [1, 1]]


def test_blackmail_points_come_when_the_round_is_confirmed_not_when_it_ends():
    log = Log(blackmail.SLUG, {"tracking": "full"})
    for seat, name in enumerate(("Ana", "Bo", "Cy"), 1):
        log.join(seat, name)
    bm_start(log, 1)
    log.act("play", {"card": blackmail.ARCHER, "target": 2, "named": blackmail.PAM})
    log.act("play", {"card": blackmail.KRUEGER, "named": blackmail.MALORY, "correct": "yes"})
    [chart] = log.charts()
    assert chart["steps"] == ["Start"]  # the round is over, its point not yet given
    log.act("round.confirm", {"to": next_round_step(log.state())})
    [chart] = log.charts()
    assert chart["steps"] == ["Start", "Round 1"] and chart["round_winners"] == [[1, [2]]]
    assert line(chart, 2) == [[0, 0], [1, 1]]


# --- Age of Assassins -------------------------------------------------------------------


def aa_bank(log):
    log.act("resolve.step", {"number": 6, "at": "draft"})
    log.act("bank", {"to": log.state()["round"] + 1})


def aa_table(names=("Ana", "Bo", "Cy")):
    log = Log(assassins.SLUG)
    for seat, name in enumerate(names, 1):
        log.join(seat, name)
    return log


def points(log, seat, delta, kind="points"):
    return log.act(kind, {"seat": seat, "delta": delta, "reason": "Card effect"})


def test_assassins_real_points_by_banking_preliminary_apart_ghost_apart_and_the_tie_break():
    log = aa_table()
    points(log, 1, 5)
    points(log, 2, 3)
    points(log, 3, 2)
    points(log, assassins.GHOST, 4)
    log.act("kill", {"seat": 3})  # Cy banks nothing this round
    points(log, 2, 1, "points.real")  # real at once, kept
    aa_bank(log)
    log.undo(points(log, 1, 10))
    points(log, 1, 4)
    points(log, 2, 5)
    aa_bank(log)
    points(log, 1, 6)
    points(log, 2, 6)
    aa_bank(log)  # 15 each: the game ends on a tie

    [chart] = log.charts()
    assert chart["line"] == assassins.WIN_AT and chart["steps"] == ["Start", "Round 1", "Round 2", "Round 3"]
    assert line(chart, 1) == [[0, 0], [1, 5], [2, 9], [3, 15]]
    assert line(chart, 2) == [[0, 0], [1, 4], [2, 9], [3, 15]]
    assert line(chart, 3) == [[0, 0], [1, 0], [2, 0], [3, 0]]
    assert line(chart, 1, "preliminary") == [[1, 5], [2, 4], [3, 6]]
    assert line(chart, 3, "preliminary") == [[1, 0], [2, 0], [3, 0]]  # killed: nothing banked
    ghost = [s for s in chart["preliminary"] if s["ghost"]]
    assert [(s["seat"], s["name"], s["points"]) for s in ghost] == [
        (assassins.GHOST, "Ghost", [[1, 4], [2, 0], [3, 0]])
    ]
    assert all(not s["ghost"] for s in chart["seats"])  # never among the players
    # Tied on 15: the one met first anti-clockwise from the first seat (Ana) wins, so Bo.
    assert chart["winners"] == [2] == [assassins.outcome(log.state())["winner"]]
    assert chart["tie_order"][:2] == [3, 2] and chart["finished"]
    assert "Bo wins the tie" in chart["note"]


def test_assassins_all_equal_nobody_wins():
    log = aa_table()
    for seat in (1, 2, 3):
        points(log, seat, 15)
    aa_bank(log)
    [chart] = log.charts()
    assert chart["finished"] and chart["winners"] == [] and "dog" in chart["note"]
    assert "dog" in svg.words(chart)


# --- the plain scoreboard ---------------------------------------------------------------


def test_scoreboard_after_each_change_renamed_removed_and_joined_late():
    log = Log("generic")
    log.join(1, "Ana")
    log.join(2, "Bo")
    log.act("score", {"seat": 1, "delta": 3})
    log.undo(log.act("score", {"seat": 2, "delta": 9}))
    log.add("seat.rename", {"seat": 2, "name": "Bob"})
    log.join(3, "Cy")
    log.act("score", {"seat": 3, "delta": 4})
    log.add("seat.remove", {"seat": 1})
    log.act("score", {"seat": 2, "delta": 1})
    [chart] = log.charts()
    assert chart["steps"] == ["Start", "Change 1", "Change 2", "Change 3"] and chart["line"] is None
    assert line(chart, 1) == [[0, 0], [1, 3], [2, 3]]  # ends where Ana left
    assert line(chart, 2) == [[0, 0], [1, 0], [2, 0], [3, 1]]
    assert line(chart, 3) == [[2, 4], [3, 4]]
    assert [s["name"] for s in chart["seats"]] == ["Ana", "Bob", "Cy"]
    assert not chart["finished"]  # until the night moves on
    log.add("night.next", {"code": "NEXT", "game": "generic", "table": 2})
    [chart] = log.charts()
    assert chart["finished"] and chart["winners"] == [3]
    assert ["Change 2", "Cy", "points", 4] in series.rows(chart)
    json.dumps(chart)  # plain data


# --- the drawing and its words ----------------------------------------------------------


def test_svg_escapes_names_and_says_who_led_in_words(app):
    log = Log("generic")
    log.join(1, NAUGHTY)
    log.join(2, "Bo")
    log.act("score", {"seat": 1, "delta": 3})
    log.act("score", {"seat": 2, "delta": 5})
    log.act("score", {"seat": 2, "delta": 1})
    [chart] = log.charts()
    drawn = svg.drawing(chart, "chart-TEST-1")
    assert "<script" not in drawn["svg"] and "&lt;script&gt;" in drawn["svg"]
    ET.fromstring(str(drawn["svg"]))  # well formed
    assert drawn["words"] == (
        "At the start everyone was level on 0 points. After change 1 "
        f"{NAUGHTY} took the lead with 3 points. After change 2 Bo took the lead "
        "with 5 points. After change 3 Bo still led with 6 points."
    )
    with app.test_request_context():
        html = render_template("charts/_chart.html", drawn=drawn)
    assert "<script" not in html and 'aria-describedby="chart-TEST-1-words"' in html
    assert 'id="chart-TEST-1-words"' in html and "Bo took the lead" in html


def test_svg_seats_differ_by_more_than_colour_and_the_goal_is_drawn():
    log = dz_started(names=("Ana", "Bo", "Cy", "Di"))
    dz_round_end(log)
    [chart] = log.charts()
    root = ET.fromstring(str(svg.drawing(chart, "dz")["svg"]))
    ns = "{http://www.w3.org/2000/svg}"
    groups = [g for g in root.iter(f"{ns}g") if "chart-seat" in (g.get("class") or "")]
    assert len(groups) == 4 and len({g.get("class") for g in groups}) == 4
    dashes = {g.find(f"{ns}polyline").get("stroke-dasharray") for g in groups}
    shapes = {re.sub(r"[-\d.,\s]", "", g.find(f"{ns}path").get("d")) for g in groups}  # the path's commands
    assert len(dashes) == 4 and len(shapes) == 4
    assert root.get("viewBox") == f"0 0 {svg.WIDTH} {svg.HEIGHT}"
    assert "20 wins" in str(svg.drawing(chart, "dz")["svg"]) and "style=" not in str(svg.drawing(chart, "dz")["svg"])
    assert svg.words(chart).startswith(f"The first to reach {dz.WINNING_UPPER_HAND} Upper Hand wins.")


def test_svg_of_an_assassins_game_draws_the_preliminary_points_and_the_ghost_apart():
    log = aa_table()
    points(log, 1, 5)
    points(log, assassins.GHOST, 4)
    aa_bank(log)
    [chart] = log.charts()
    drawn = svg.drawing(chart, "aa")
    assert drawn["preliminary"] is not None and "chart-ghost" in drawn["preliminary"]
    assert "chart-ghost" not in drawn["svg"] and "Ghost" not in drawn["svg"]
    assert "never wins" in drawn["words"] and "After round 1 Ana took the lead with 5 real points" in drawn["words"]


def test_blackmail_words_say_who_won_each_round():
    log = Log(blackmail.SLUG)
    for seat, name in enumerate(("Ana", "Bo"), 1):
        log.join(seat, name)
    bm_start(log, 1)
    for winner in (2, 1, 1, 1, 1, 1, 1):
        bm_round(log, winner)
    [chart] = log.charts()
    text = svg.words(chart)
    assert text.startswith("6 Victory Points win the game.") and "Round 1 went to Bo." in text
    assert "After round 1 Bo took the lead with 1 Victory Point." in text
    assert "After round 3 Ana took the lead with 2 Victory Points." in text and text.endswith(
        "Ana won with 6 Victory Points."
    )
    assert 'class="chart-won"' in svg.drawing(chart, "bm")["svg"]


def test_a_table_with_nothing_played_yet_draws_nothing_and_says_so():
    log = Log(blackmail.SLUG)
    log.join(1, "Ana")
    [chart] = log.charts()
    assert chart["steps"] == [] and [s["points"] for s in chart["seats"]] == [[]]
    drawn = svg.drawing(chart, "empty")
    assert drawn["words"] == "Nothing has been scored yet."
    ET.fromstring(str(drawn["svg"]))


def test_names_at_the_line_ends_are_whole_up_to_ten_letters_and_fit_the_drawing():
    """The right margin is as wide as the longest name there needs ("Sterling" was cut to
    "Sterli…" at 412 px), up to ten letters; a longer one is cut, and every one fits."""
    ns = "{http://www.w3.org/2000/svg}"

    def drawn(names):
        log = Log("generic")
        for seat, name in enumerate(names, 1):
            log.join(seat, name)
        log.act("score", {"seat": 1, "delta": 3})
        log.act("score", {"seat": 2, "delta": 12})
        [chart] = log.charts()
        root = ET.fromstring(str(svg.drawing(chart, "names")["svg"]))
        labels = [g.find(f"{ns}text") for g in root.iter(f"{ns}g") if "chart-seat" in (g.get("class") or "")]
        plot_end = max(float(line.get("x2")) for line in root.find(f"{ns}g").iter(f"{ns}line"))
        return [(t.text, float(t.get("x"))) for t in labels], plot_end

    labels, long_end = drawn(("Sterling", "Wilhelmina", "Bartholomew-Jones", "Bo"))
    assert [text for text, _ in labels] == ["Sterling 3", "Wilhelmina 12", "Bartholom… 0", "Bo 0"]
    for text, x in labels:
        assert x + svg._width(text) <= svg.WIDTH, text  # measured a little over DejaVu Sans Bold
    # Short names leave the plot more room; the type stays the same size.
    labels, short_end = drawn(("Ana", "Bo"))
    assert [text for text, _ in labels] == ["Ana 3", "Bo 12"] and short_end > long_end
    assert svg.WIDTH - long_end <= svg.MAX_RIGHT and long_end - svg.LEFT >= 190

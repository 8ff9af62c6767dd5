"""Each game's course as its rules count it, read again from the table's log.

The log is folded once more through the store's own step (store._step), so an undone or
refused entry is left out exactly as the table's state leaves it out, and each game's numbers
are read from the states along the way. A chart is plain, JSON-safe data:

  {"game": slug, "number": the table's n-th game (as records.table_games counts them),
   "measure": "Upper Hand" | "Victory Points" | "real points" | "points",
   "unit": "Round" | "Change", "line": the goal (20, the 6/4/3 target, 15) or None,
   "steps": ["Start", "Round 1", …, "Round 5 so far"],
   "seats": [{"seat": id, "name": its latest name, "ghost": False, "points": [[step, value], …]}],
   "preliminary": the same shape (Age of Assassins: preliminary points as each round was
                  banked, the ghost's as {"seat": "ghost", "ghost": True}), else [],
   "round_winners": [[step, [seat ids]], …] (Blackmail), else [],
   "leaders": [{"step", "seats", "value"}] after each step, "lead_changes": those where the
   lead went to other seats, "winners": [seat ids] (never the ghost), "finished",
   "start_seat": who began (None where the game records nobody), "tie_order": seat ids in the
   order the rules break a tie (Age of Assassins) or None, "note": the end in words, or ""}

A seat's points begin at the first step after it sat down and end where it left.
"""

from companion.games import assassins, blackmail, danger_zone
from companion.games.assassins.state import tie_reference
from companion.games.base import clockwise_from
from companion.nights.records import MEASURES
from companion.tables import store

ROUND, CHANGE = "Round", "Change"
START = "Start"
GHOST_NAME = "Ghost"
CSV_HEADER = ["step", "seat", "measure", "value"]


def charts(events, game, options=None):
    """The charts of the games played at one table, oldest first, from its events (dicts as
    store.events returns them) and its game and options: one chart for every game that
    records.table_games lists, in the same order."""
    log = _Log(game, options, events)
    if game == blackmail.SLUG:
        return _blackmail(log)
    if game == danger_zone.SLUG:
        return [_danger_zone(log)]
    if game == assassins.SLUG:
        return [_assassins(log)]
    return [_generic(log)]


def table_charts(db, table):
    """charts() for a table in the database."""
    return charts(store.events(db, table), table.game, table.options)


def rows(chart):
    """The chart as rows for a CSV (under CSV_HEADER): one per seat and step it had a value."""
    out = []
    for kind, measure in (("seats", chart["measure"]), ("preliminary", "preliminary points")):
        for line in chart[kind]:
            out.extend([chart["steps"][step], line["name"], measure, value] for step, value in line["points"])
    return out


class _Log:
    """A table's log folded again; `state` follows along as moves() is read."""

    def __init__(self, game, options, events):
        self.table = store.Table(0, "", game, "", None, dict(options or {}))
        self.events = events
        self.folded = store.Folded(
            0, self.table.module.new_state(self.table.options), [], store._voided(events), {}, {}
        )

    @property
    def state(self):
        return self.folded.state

    def moves(self):
        """(before, after, event) for each entry that stands, roster entries included."""
        for event in self.events:
            before = self.folded.state
            self.folded = store._step(self.table, self.folded, event, strict=False)
            entry = self.folded.log[-1]
            if event["kind"] in store.NIGHT_KINDS or event["kind"] == "undo":
                continue
            if not entry["undone"] and not entry.get("skipped"):
                yield before, self.folded.state, event


class _Chart:
    def __init__(self, game, number, unit, line):
        self.data = {
            "game": game,
            "number": number,
            "measure": MEASURES.get(game, MEASURES["generic"])[1],
            "unit": unit,
            "line": line,
            "steps": [],
            "seats": [],
            "preliminary": [],
            "round_winners": [],
            "leaders": [],
            "lead_changes": [],
            "winners": [],
            "finished": False,
            "start_seat": None,
            "tie_order": None,
            "note": "",
        }
        self.names, self.order, self.present = {}, [], []
        self.lines = {"seats": {}, "preliminary": {}}

    def seen(self, state):
        """Note the seats as they sit now: names change, and a seat that left keeps its last."""
        self.present = [seat["id"] for seat in state["seats"]]
        for seat in state["seats"]:
            if seat["id"] not in self.names:
                self.order.append(seat["id"])
            self.names[seat["id"]] = seat["name"]

    def step(self, label, values, preliminary=()):
        """A new step: values are [(seat, value)] for the seats at the table then."""
        index = len(self.data["steps"])
        self.data["steps"].append(label)
        for kind, pairs in (("seats", values), ("preliminary", preliminary)):
            for seat, value in pairs:
                self.lines[kind].setdefault(seat, []).append([index, value])
        return index

    def so_far(self, label, values):
        """A game left under way ends on its numbers now, if they moved since the last step."""
        last = len(self.data["steps"]) - 1
        kept = {seat: points[-1][1] for seat, points in self.lines["seats"].items() if points[-1][0] == last}
        if last >= 0 and dict(values) != kept:
            self.step(label, values)

    def end(self, finished, winners, note=""):
        self.data.update(finished=finished, winners=list(winners), note=note)

    def chart(self):
        data = self.data
        ids = [s for s in self.order if s in self.lines["seats"] or s in self.present]
        data["seats"] = [
            {"seat": s, "name": self.names[s], "ghost": False, "points": self.lines["seats"].get(s, [])} for s in ids
        ]
        data["preliminary"] = [
            {
                "seat": s,
                "name": GHOST_NAME if s == assassins.GHOST else self.names[s],
                "ghost": s == assassins.GHOST,
                "points": points,
            }
            for s, points in sorted(self.lines["preliminary"].items(), key=lambda item: item[0] == assassins.GHOST)
        ]
        data["leaders"], data["lead_changes"] = _leads(data)
        return data


def _leads(data):
    """Who led after each step (ties share the lead), and the steps where that changed."""
    at = {}
    for line in data["seats"]:
        for step, value in line["points"]:
            at.setdefault(step, []).append((line["seat"], value))
    leaders, changes, before = [], [], None
    for step in sorted(at):
        top = max(value for _, value in at[step])
        row = {"step": step, "seats": [seat for seat, value in at[step] if value == top], "value": top}
        leaders.append(row)
        if before is not None and set(row["seats"]) != set(before):
            changes.append(row)
        before = row["seats"]
    return leaders, changes


def _values(state, key, default=0):
    return [(seat["id"], state[key].get(seat["id"], default)) for seat in state["seats"]]


def _danger_zone(log):
    """Upper Hand at the start and at each round's end (the race the game keeps), and where
    the game ended if someone reached 20 mid-round."""
    chart = _Chart(danger_zone.SLUG, 1, ROUND, danger_zone.WINNING_UPPER_HAND)
    for before, after, _event in log.moves():
        chart.seen(after)
        if before["phase"] == danger_zone.SETUP and after["phase"] != danger_zone.SETUP:
            chart.data["start_seat"] = after["round_initiative"]  # the Initiative Token opens round 1
        for point in after["race"][len(before["race"]) :]:
            label = START if point["round"] == 0 else f"{ROUND} {point['round']}"
            chart.step(
                label,
                [(s["id"], point["upper_hand"][s["id"]]) for s in after["seats"] if s["id"] in point["upper_hand"]],
            )
    state = log.state
    chart.seen(state)
    chart.end(bool(state["winners"]), state["winners"])
    if not state["winners"] and state["phase"] != danger_zone.SETUP:
        chart.so_far(f"{ROUND} {state['round']} so far", _values(state, "upper_hand", danger_zone.START_UPPER_HAND))
    return chart.chart()


def _blackmail(log):
    """One chart per game at the table (records._blackmail_games counts them the same way):
    Victory Points at the start and after each round, and who won each round."""
    found, current, ended = [], None, None
    for before, after, event in log.moves():
        if current and not current.data["finished"]:
            current.seen(after)
        if event["kind"] == "game.start":
            if ended:
                found.append(ended)
            ended = None
            current = _Chart(blackmail.SLUG, 0, ROUND, after["target"])  # the rules' target for this many
            current.seen(after)
            current.data["start_seat"] = after["round"]["first_player"]
            current.step(START, _values(after, "vp"))
        elif event["kind"] == "game.reset":
            current = ended = None  # a game the host reset is no game
        elif current and len(after["history"]) > len(before["history"]):
            record = after["history"][-1]
            step = current.step(f"{ROUND} {record['number']}", [(row["seat"], row["vp"]) for row in record["vp"]])
            current.data["round_winners"].append([step, list(record["winners"])])
        if current and after["phase"] == "game_over" and before["phase"] != "game_over":
            current.end(True, after["winners"])
            ended = current
    state = log.state
    if ended and state["phase"] == "game_over":
        found.append(ended)
    elif state["phase"] == "round" or not found:  # under way, or never begun
        if current is None:
            current = _Chart(blackmail.SLUG, 0, ROUND, None)
            current.seen(state)
        found.append(current)
    charts = [chart.chart() for chart in found]
    for number, chart in enumerate(charts, start=1):
        chart["number"] = number
    return charts


def _assassins(log):
    """Real points at the start and as each round is banked; beside them, the preliminary
    points each seat (and the ghost, who never banks) had when the round was banked."""
    chart = _Chart(assassins.SLUG, 1, ROUND, assassins.WIN_AT)
    for before, after, _event in log.moves():
        chart.seen(after)
        if not before["started"] and after["started"]:
            chart.step(START, _values(before, "real"))
        if len(after["history"]) > len(before["history"]):
            record = after["history"][-1]
            preliminary = [(row["seat"], row["points"]) for row in record["banked"]]
            if assassins.has_ghost(before):
                preliminary.append((assassins.GHOST, before["ghost"]["preliminary"]))
            chart.step(
                f"{ROUND} {record['round']}", [(row["seat"], row["real"]) for row in record["banked"]], preliminary
            )
    state = log.state
    chart.seen(state)
    outcome = assassins.outcome(state)
    if outcome:
        chart.end(True, [] if outcome["winner"] is None else [outcome["winner"]], outcome["text"])
    elif state["started"]:
        chart.so_far(f"{ROUND} {state['round']} so far", _values(state, "real"))
    if state["seats"]:
        # The tie-break (assassins.state.tie_winner): the tied seat last clockwise from the
        # reference seat wins, so that order reversed ranks every tie.
        chart.data["tie_order"] = list(reversed(clockwise_from(state, tie_reference(state))))
    return chart.chart()


def _generic(log):
    """Each seat's score at the start and after every change. The scoreboard has no end of
    its own: as in the records, it ends when the night moves on, and the most points win."""
    chart = _Chart(log.table.game if log.table.game in MEASURES else "generic", 1, CHANGE, None)
    changes = 0
    for before, after, event in log.moves():
        chart.seen(after)
        if event["kind"] != "score":
            continue
        if not changes:
            chart.step(START, _values(before, "score"))
        changes += 1
        chart.step(f"{CHANGE} {changes}", _values(after, "score"))
    state = log.state
    chart.seen(state)
    if log.folded.night.get("next") and changes and state["seats"]:
        top = max(value for _, value in _values(state, "score"))
        chart.end(True, [seat for seat, value in _values(state, "score") if value == top])
    return chart.chart()

"""What a table's log says of the core's own events (seats and the night), and the night's
part of a fold: pure functions the event log (store.py) calls, no SQL.

A night is the chain of tables started from one another ("play again"); companion.nights holds its
rows and routes. What happens to a night is logged as events of its tables
(NIGHT_KINDS), which no game module reads: the fold keeps them in Folded.night.
"""

from companion.games.base import RuleError, from_shared_screen

# The tablet's arrangement is logged with them: no game reads it, and its new version is
# what carries it to every open tablet (tablet_store.arrange).
ARRANGED = "tablet.layout"
NIGHT_KINDS = {
    "night.from",
    "night.next",
    "night.screen",
    "host.cohost",
    "host.uncohost",
    "host.handover",
    "host.recovered",
    ARRANGED,
}
MOVED_ON = "The night has moved on to the next game, so this one stays as it was. Nothing changed."


def check_open(folded):
    """A table the night has left is kept as it ended: readable and exportable, not changed."""
    if folded.night.get("next"):
        raise RuleError(MOVED_ON)


def night_step(night, event):
    data, kind = event["data"], event["kind"]
    night = dict(night, cohosts=list(night.get("cohosts", ())))
    if kind == "night.next":
        night["next"] = {"code": data["code"], "game": data["game"], "at": event["at"]}
    elif kind == "night.from":
        night["from"] = {"code": data["code"], "game": data["game"]}
    elif kind == "night.screen":
        night["screen"] = bool(data["show"])
    elif kind == "host.cohost" and data["seat"] not in night["cohosts"]:
        night["cohosts"].append(data["seat"])
    elif kind in ("host.uncohost", "host.handover"):
        night["cohosts"] = [s for s in night["cohosts"] if s != data["seat"]]
    return night


def night_text(state, event):
    # The next table is named nowhere in the log: a stranger with this table's code learns
    # nothing of it (its code is in the event's data, which only the host's export shows).
    data, kind = event["data"], event["kind"]
    name = {s["id"]: s["name"] for s in state["seats"]}.get(data.get("seat"), "?")
    return {
        "night.from": "the seats came over from the last game",
        "night.next": "started the next game",
        "night.screen": (
            "put the night's standings on the table screen"
            if data.get("show")
            else "put the game back on the table screen"
        ),
        "host.cohost": f"{name} is now a co-host",
        "host.uncohost": f"{name} is no longer a co-host",
        "host.handover": f"handed the host role to {name}",
        "host.recovered": "another device became the host with the recovery code",
        ARRANGED: "arranged the panels on the tablet",
    }[kind]


def actor_name(state, actor, event):
    if actor["seat"] is not None:
        for seat in state["seats"]:
            if seat["id"] == actor["seat"]:
                # Nobody mistakes a tap on the shared tablet for the player's own phone.
                return seat["name"] + (" (at the tablet)" if from_shared_screen(actor) else "")
        if event["kind"] == "seat.join":
            return event["data"]["name"]
    return "Host" if actor["role"] == "host" else "?"


def roster_text(before, event):
    data, kind = event["data"], event["kind"]
    names = {s["id"]: s["name"] for s in before["seats"]}
    if kind == "seat.join":
        return f"{data['name']} sat down"
    if kind == "seat.rename":
        return f"{names.get(data['seat'], '?')} is now {data['name']}"
    if kind == "seat.remove":
        return f"{names.get(data['seat'], '?')} left the table"
    if kind == "seat.reorder":
        return "seats reordered: " + ", ".join(names.get(i, "?") for i in data["order"])
    return ""

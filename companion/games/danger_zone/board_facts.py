"""What each part of the Danger Zone board shows, worked out from the board's view
(routes.board_view): a phone's own block, its Upper Hand controls, each seat's line (among the
others, under "Fix a score", on the host's list, on the table screen), the round tracker, the
phone's phase panel, the Events and the dice.

Each function returns the values its partial renders from: `view` among them holds the
entries of the view that part reads (under the same names, so its template reads them as the
board does), `by_id` the seats' names (and in Setup, for a phone's own pick, their
characters). No part holds the step: a form sends the fragment's one step field
(forms.STEP_INCLUDE), so a new step changes no part. The viewer's own facts (its odds, its notice, its turn) go only into its
own parts. Nothing in this game is hidden from another seat, but a part still holds only
what its page shows.
"""

from .rules import SETUP


def _names(view, seats=None):
    """by_id as `who` reads it: each seat's name (of these seats only, if given)."""
    by_id = view["by_id"]
    return {sid: {"name": by_id[sid]["name"]} for sid in (by_id if seats is None else seats) if sid in by_id}


def _flash(view, seat_id, version):
    """The last Upper Hand change if it is this seat's and made at this version (its flash)."""
    change = view["last_change"]
    if change and change["seat"] == seat_id and change["event"] == version:
        return change
    return None


def _by_name(change):
    """The seat that made a change, whose name its line shows."""
    by = change and change.get("by")
    return [by["seat"]] if by and by.get("seat") is not None else []


def _status(view, seat):
    """What _status.html reads besides the seat: the phase, and this seat's turn and cards."""
    sid = seat["id"]
    return {
        "phase": view["phase"],
        "round": view["round"],
        "whose_turn": sid if view["whose_turn"] == sid else None,
        "mission": {
            "cards": [c for c in view["mission"]["cards"] if c["done_by"] == sid],
            "over": view["mission"]["over"],
        },
    }


def _seat(seat):
    """A seat as its lines show it (all but its phone)."""
    return {key: value for key, value in seat.items() if key != "phone"}


def _steps(view):
    return {"reasons": view["reasons"], "quick_steps": view["quick_steps"]}


def me_facts(view, me, version):
    """A phone's own block (_me.html): its seat, the change made to it, and what it does now."""
    mine = view["by_id"][me]
    change = view["last_change"]
    phase, over = view["phase"], view["over"]
    you = view["you"] or {}
    facts = {
        "over": over,
        "phase": phase,
        "round": view["round"],
        "started": view["started"],
        "whose_turn": view["whose_turn"],
        "you": {"notice": you.get("notice")},
        "by_id": _names(view),  # who made the change, whose turn, who took a card
        "last_roll": None,
    }
    if over:
        facts.update(winners=view["winners"], winning_upper_hand=view["winning_upper_hand"])
    elif phase == SETUP:
        # the characters to pick from, and who holds which (_pick.html)
        facts["setup"] = {"characters": view["setup"]["characters"]}
        facts["seats"] = [{"name": seat["name"], "character": seat["character"]} for seat in view["seats"]]
        facts["by_id"] = {
            sid: dict(name, character=view["by_id"][sid]["character"]) for sid, name in facts["by_id"].items()
        }
    else:
        if not mine["character"]:
            facts["setup"] = {"characters_free": view["setup"]["characters_free"]}
        if phase == "Movement":
            # every Location's name (the buttons), the effect of the one this seat entered
            facts["locations"] = [
                {"name": location["name"], "effect": location["effect"]}
                if location["name"] == mine["location"]
                else {"name": location["name"]}
                for location in view["locations"]
            ]
            facts["reveal_order"] = view["reveal_order"]
        elif phase == "Mission":
            facts["mission"] = {"cards": view["mission"]["cards"], "over": view["mission"]["over"]}
            facts["roll_order"] = view["roll_order"]
            facts["you"].update(specialty=you.get("specialty"), odds=you.get("odds"))
            facts.update({key: view[key] for key in ("challenge_types", "difficulty_range", "reward_range")})
        roll = view["last_roll"]
        if roll and roll.get("seat") == me:
            facts["last_roll"] = roll
    return {
        "me": me,
        "mine": mine,
        "view": facts,
        "change": change if change and change["seat"] == me else None,
        "flashed": bool(change and change["seat"] == me and change["event"] == version),
    }


def uh_facts(view, seat, mine):
    """One seat's Upper Hand controls (_upper_hand.html): its id and name, the steps."""
    return {"uh_seat": {"id": seat["id"], "name": seat["name"]}, "uh_mine": mine, "view": _steps(view)}


def tracker_facts(view, phone):
    """The round tracker (_tracker.html): the round, the tokens, the orders this page shows."""
    phase = view["phase"]
    facts = {
        "started": view["started"],
        "round": view["round"],
        "phases": view["phases"],
        "phase": phase,
        "players": len(view["seats"]),
        "by_id": _names(view),
        "initiative": {"seat": view["initiative"]["seat"], "why": view["initiative"]["why"]},
        "mission_leader": {"seat": view["mission_leader"]["seat"], "why": view["mission_leader"]["why"]},
        "leader_preview": None,
        "reveal_order": None,
        "roll_order": None,
        "whose_turn": view["whose_turn"] if phase in ("Movement", "Mission") else None,
    }
    if phase == "Movement" and view["leader_preview"]:
        facts["leader_preview"] = {"short": view["leader_preview"]["short"]}
    if not (phone and phase != "Movement"):
        facts["reveal_order"] = view["reveal_order"]
    if not (phone and phase == "Movement"):
        facts["roll_order"] = view["roll_order"]
    if not phone:
        facts["challenges_to_draw"] = view["challenges_to_draw"]
        facts["locations"] = [{"name": location["name"]} for location in view["locations"]]
    return {"phone": phone, "view": facts}


def _next_phase(view):
    """What the button that moves the table on reads (board.html's next_phase)."""
    return {"next_step": view["next_step"], "pending": view["pending"], "pending_text": view["pending_text"]}


def panel_facts(view, me):
    """A phone's panel for this phase (_phone_panel.html). The Mission's shows this phone's
    odds and whether it rolls or leads; the others are the same on every phone."""
    phase = view["phase"]
    facts = {"phase": phase, "whose_turn": view["whose_turn"], **_next_phase(view)}
    if phase == "Movement":
        facts["by_id"] = _names(view)
        facts["locations"] = [
            {key: location[key] for key in ("id", "name", "first", "here", "effect")} for location in view["locations"]
        ]
        facts["leader_preview"] = view["leader_preview"] and {"short": view["leader_preview"]["short"]}
        return {"view": facts, "me": None}
    if phase == "Mission":
        facts["by_id"] = _names(view)
        facts["mission_leader"] = {"seat": view["mission_leader"]["seat"], "why": view["mission_leader"]["why"]}
        facts["mission"] = {"cards": view["mission"]["cards"], "over": view["mission"]["over"]}
        facts["you"] = {"odds": (view["you"] or {}).get("odds")}
        facts.update(
            {key: view[key] for key in ("challenges_to_draw", "challenge_types", "difficulty_range", "reward_range")}
        )
        return {"view": facts, "me": me}
    facts["initiative"] = {"why": view["initiative"]["why"]}
    facts["round"] = view["round"]
    facts["by_id"] = {}
    return {"view": facts, "me": None}


def events_facts(view, phone, me, acting):
    """The Events (_events.html): the previews, the last Event, the seats Uta lists."""
    ev = view["event_previews"]
    facts = {"event_previews": ev, "last_event": view["last_event"], "by_id": _names(view)}
    if ev and ev.get("drawer") is not None and acting:
        facts["uta_dice"] = view["uta_dice"]
        facts["seats"] = [{"id": seat["id"], "name": seat["name"]} for seat in view["seats"]]
    return {
        "view": facts,
        "phone": phone,
        "acting": acting,
        "you_draw": bool(phone and ev and ev.get("drawer") is not None and ev.get("drawer") == me),
    }


def tools_facts(view):
    """The dice and odds (_tools.html): the last roll, the seats a roll-off may take, the
    viewer's character's dice (a phone's own)."""
    you = view["you"]
    roll = view["last_roll"]
    facts = {
        "last_roll": roll,
        "seats": [{"id": seat["id"], "name": seat["name"]} for seat in view["seats"]],
        "you": you and {"character": you.get("character"), "skill_dice": you.get("skill_dice")},
    }
    facts["by_id"] = _names(view) if roll else {}
    return {"view": facts}


def race_facts(view):
    """The Upper Hand race (_chart.html, routes.race_plot): the race, each seat's name, Upper
    Hand and colour, and whether the game is on."""
    seats = [{"id": seat["id"], "name": seat["name"], "upper_hand": seat["upper_hand"]} for seat in view["seats"]]
    facts = {key: view[key] for key in ("race", "started", "over", "color")}
    return {"view": dict(facts, seats=seats)}


def other_facts(view, seat, version):
    """A seat's line among the others on a phone (_other_line.html)."""
    change = _flash(view, seat["id"], version)
    leaders = view["leaders"]
    return {
        "seat": _seat(seat),
        "change": change,
        "view": dict(_status(view, seat), started=view["started"], by_id=_names(view, _by_name(change))),
        "lead": bool(seat["id"] in leaders and view["started"] and len(leaders) < len(view["seats"])),
    }


def others_facts(view, version, skip):
    """A phone's lines for every seat but its own (`skip`), each as other_facts."""
    return [other_facts(view, seat, version) for seat in view["seats"] if seat["id"] != skip]


def fixes_facts(view, skip):
    """A phone's rows under "Fix a score" for every seat but its own, each as fix_facts."""
    return [fix_facts(view, seat) for seat in view["seats"] if seat["id"] != skip]


def fix_facts(view, seat):
    """A seat's row under "Fix a score" (_fix_line.html): its name, number and quick steps."""
    return {"seat": {"id": seat["id"], "name": seat["name"], "upper_hand": seat["upper_hand"]}, "view": _steps(view)}


def seat_facts(view, seat, version, me, acting, is_host):
    """A seat's line on the host's list (_seat_line.html)."""
    sid = seat["id"]
    change = _flash(view, sid, version)
    facts = {
        "started": view["started"],
        "over": view["over"],
        "winning_upper_hand": view["winning_upper_hand"],
        "color": {sid: view["color"][sid]},
        "winners": [sid] if sid in view["winners"] else [],
        "by_id": _names(view, _by_name(change)),
        **_steps(view),
    }
    if acting and view["started"] and not seat["character"] and (is_host or me == sid):
        facts["setup"] = {"characters_free": view["setup"]["characters_free"]}
    return {
        "seat": _seat(seat),
        "change": change,
        "view": facts,
        "me": me if me == sid else None,
        "acting": acting,
        "is_host": is_host,
    }


def tile_facts(view, seat, version, rolloff, rolloff_label):
    """A seat's tile on the table screen (_tv_seat.html): its numbers, its turn, its roll-off
    dice (its rows of the roll-off only), its short status."""
    sid = seat["id"]
    if rolloff:
        rolloff = {
            "winner": rolloff["winner"],
            "rounds": [[row for row in rows if row["seat"] == sid] for rows in rolloff["rounds"]],
        }
    return {
        "seat": _seat(seat),
        "change": _flash(view, sid, version),
        "rolloff": rolloff or None,
        "rolloff_label": rolloff_label if rolloff else "",
        "view": dict(_status(view, seat), started=view["started"], winners=[sid] if sid in view["winners"] else []),
    }

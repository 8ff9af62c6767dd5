"""Age of Assassins screens that /act/<kind> cannot serve: the deck list typed in from the box,
and the ghost deal, which reads that list on the server (a phone never sends the deck).

The deck list is kept with companion.box under game "assassins", entry "deck-list", as JSON
text, in this table's box (a new table starts from the server's defaults).
"""

import functools
import json

from flask import Blueprint, abort, g, make_response, redirect, render_template, request, url_for

from companion import access, box
from companion.access import door
from companion.db import get_db
from companion.games.assassins import deck
from companion.games.assassins.rules import SLUG
from companion.games.base import STEP_FIELD, RuleError, read_json
from companion.tables import store
from companion.web.changes import action_id, apply_change

bp = Blueprint("assassins", __name__)
GAME = SLUG
DECK_ENTRY = "deck-list"
MAX_ROWS = 40  # more lines than a 28-card deck plus its 3 extras can need
BLANK_ROWS = 3  # empty lines offered under a stored list
ADD_ROWS_MAX = 10


def game_table(code):
    table = g.table
    if table.game != GAME:
        abort(404, "This table is not playing Age of Assassins.")
    return table


# --- the stored deck list ---------------------------------------------------------------


def stored_deck(db):
    """The stored deck list, checked, or RuleError saying why the app cannot deal from it."""
    return _checked(box.get(db, GAME, DECK_ENTRY, g.get("table")))


def _checked(body):
    if not body:
        raise RuleError("No deck list is stored yet: type it in from your box, or deal the ghost by hand.")
    try:
        return deck.import_deck_list(body)
    except RuleError as error:
        raise RuleError(f"The stored deck list is not complete ({error}) Fix it, or deal the ghost by hand.") from None


def save_deck(db, entries):
    box.put(
        db, GAME, DECK_ENTRY, table=g.table, body=json.dumps(deck.validate_deck_list(entries), separators=(",", ":"))
    )


def deck_info():
    """What the screens need from the stored list (names, numbers, extras). Read as a board
    reads its box text (box.for_board: once a second at most, at once after an edit here),
    since a page's stream is one request for as long as the page is open."""
    return _deck_info(box.for_board(get_db, GAME, g.get("table")).get(DECK_ENTRY))


def saved_deck_info():
    """deck_info as the database holds it now: the deck-list page shows what was just saved,
    whichever process saved it."""
    return _deck_info(box.get(get_db(), GAME, DECK_ENTRY, g.get("table")))


@functools.lru_cache(maxsize=64)  # read on every render of every board: parsed once per list
def _deck_info(body):
    try:
        entries, problem = _checked(body), None
    except RuleError as error:
        entries, problem = None, (str(error) if body else None)
    known = list(deck.REGULAR_NAMES) + list(deck.EXTRAS)
    names = [e["name"] for e in entries] if entries else known

    def numbers(test):
        return sorted({e["number"] for e in entries or () if test(e["name"])})

    return {
        "complete": bool(entries),
        "problem": problem,
        "entries": entries or [],
        "names": names,
        "extras": [e["name"] for e in entries or () if e["name"] in deck.EXTRAS],
        "magician_numbers": numbers(deck.is_magician),
        "grave_digger_numbers": numbers(lambda name: deck.counts_as(name) == "Grave Digger"),
    }


# A function, not data: only the Age of Assassins board calls it, so other pages pay nothing.
bp.app_template_global("assassins_deck_info")(deck_info)


# --- the deck-list page -----------------------------------------------------------------


def default_rows():
    """The names the rulebook gives, numbers and copies left for the table to type in."""
    rows = [{"name": name, "number": "", "copies": ""} for name in deck.REGULAR_NAMES]
    rows += [{"name": "", "number": "", "copies": ""} for _ in range(6)]
    rows += [{"name": name, "number": "", "copies": deck.EXTRA_COPIES} for name in deck.EXTRAS]
    return rows


def rows_for(entries):
    rows = [dict(e) for e in entries]
    rows += [{"name": "", "number": "", "copies": ""} for _ in range(BLANK_ROWS)]
    listed = {e["name"] for e in entries}
    rows += [{"name": n, "number": "", "copies": deck.EXTRA_COPIES} for n in deck.EXTRAS if n not in listed]
    return rows


def posted_rows(form):
    """The lines of the form as typed (strings), capped at MAX_ROWS."""
    try:
        count = min(int(form.get("rows", "0")), MAX_ROWS)
    except ValueError:
        count = 0
    rows = []
    for i in range(count):
        name = " ".join(form.get(f"name_{i}", "").split())[: deck.NAME_MAX + 10]
        if deck.canonical_name(name) in deck.EXTRAS:
            copies = str(deck.EXTRA_COPIES)  # the box has one of each extra
        else:
            copies = form.get(f"copies_{i}", "").strip()[:6]
        rows.append({"name": name, "number": form.get(f"number_{i}", "").strip()[:6], "copies": copies})
    return rows


def entries_of(rows):
    """The lines that make up the deck list: blank lines and extras without a number are left out."""
    kept = []
    for row in rows:
        if not row["name"] and not row["number"] and not row["copies"]:
            continue
        if deck.canonical_name(row["name"]) in deck.EXTRAS and not row["number"]:
            continue  # an extra the table does not own or does not want to list
        kept.append(row)
    return kept


def regular_total(rows):
    total = 0
    for row in rows:
        if deck.canonical_name(row["name"]) in deck.EXTRAS:
            continue
        try:
            total += max(int(row["copies"]), 0)
        except (TypeError, ValueError):
            pass
    return total


def render_deck_page(table, viewer, rows, status=200, problems=(), notice=None, import_error=None, import_text=""):
    stored = saved_deck_info()
    return render_template(
        "games/assassins/deck.html",
        table=table,
        viewer=viewer,
        rows=rows,
        problems=list(problems),
        notice=notice,
        import_error=import_error,
        import_text=import_text,
        stored=stored,
        total=regular_total(entries_of(rows)),
        deck_size=deck.DECK_SIZE,
        numbers=deck.CARD_NUMBERS,
        extras=deck.EXTRAS,
        known=list(deck.REGULAR_NAMES) + list(deck.EXTRAS),
        can_edit=viewer["role"] == "host",
        csrf=access.csrf_token(table),
        back=url_for("tables.host" if viewer["role"] == "host" else "tables.player", code=table.code),
        max_rows=MAX_ROWS,
        add_rows_max=ADD_ROWS_MAX,
    ), status


@bp.get("/t/<code>/assassins/deck")
def deck_page(code):
    table = game_table(code)
    viewer = door.require()
    stored = saved_deck_info()
    rows = rows_for(stored["entries"]) if stored["complete"] else default_rows()
    notice = "Deck list saved for this table." if request.args.get("saved") else None
    return render_deck_page(table, viewer, rows, notice=notice)


@bp.post("/t/<code>/assassins/deck")
def deck_save(code):
    table = game_table(code)
    # The whole table deals from the list, so changing it is the host's call.
    viewer = door.require(host=True)
    access.check_csrf(table)
    rows = posted_rows(request.form)
    if request.form.get("do") == "add":
        try:
            more = int(request.form.get("add", "1"))
        except ValueError:
            more = 1
        more = max(1, min(more, ADD_ROWS_MAX, MAX_ROWS - len(rows)))
        if len(rows) >= MAX_ROWS:
            return render_deck_page(table, viewer, rows, 422, [f"A deck list has at most {MAX_ROWS} lines."])
        rows += [{"name": "", "number": "", "copies": ""} for _ in range(more)]
        return render_deck_page(table, viewer, rows)
    problems = deck.deck_list_problems(entries_of(rows))
    if problems:
        return render_deck_page(table, viewer, rows, 422, problems)
    save_deck(get_db(), entries_of(rows))
    return redirect(url_for("assassins.deck_page", code=table.code, saved=1), 303)


def deck_text_from(text):
    """Deck-list JSON, or a whole "from your box" export holding one, as deck-list JSON text.
    Read with base.read_json, as every person's JSON is: a file nested a thousand deep is a
    422 with a sentence, not a RecursionError (a 500)."""
    try:
        data = read_json(text, "That deck list")
    except RuleError:
        return text  # import_deck_list reads it again and says what is wrong with it
    if isinstance(data, dict) and isinstance(data.get("entries"), list):
        for item in data["entries"]:
            if isinstance(item, dict) and item.get("game") == GAME and item.get("entry") == DECK_ENTRY:
                return item.get("body") or ""
        raise RuleError("That export has no Age of Assassins deck list in it.")
    return text


@bp.post("/t/<code>/assassins/deck/import")
def deck_import(code):
    table = game_table(code)
    viewer = door.require(host=True)
    access.check_csrf(table)
    upload = request.files.get("file")
    text = upload.read().decode("utf-8", "replace") if upload and upload.filename else request.form.get("json", "")
    stored = saved_deck_info()
    rows = rows_for(stored["entries"]) if stored["complete"] else default_rows()
    if not text.strip():
        return render_deck_page(table, viewer, rows, 422, import_error="Paste a deck list in JSON, or pick a file.")
    try:
        entries = deck.import_deck_list(deck_text_from(text))
    except RuleError as error:
        return render_deck_page(table, viewer, rows, 422, import_error=str(error), import_text=text[:8000])
    save_deck(get_db(), entries)
    return redirect(url_for("assassins.deck_page", code=table.code, saved=1), 303)


@bp.get("/t/<code>/assassins/deck-list.json")
def deck_export(code):
    game_table(code)
    door.require()
    try:
        entries = stored_deck(get_db())
    except RuleError as error:
        abort(404, str(error))
    response = make_response(json.dumps({"game": GAME, "cards": entries}, indent=2))
    response.headers["Content-Type"] = "application/json"
    response.headers["Content-Disposition"] = 'attachment; filename="age-of-assassins-deck-list.json"'
    return response


# --- the ghost deal ---------------------------------------------------------------------


def named_step():
    """The step the deal's form was drawn at (games.base.check_named_step), as a form sends it."""
    step = request.form.get(STEP_FIELD)
    return {STEP_FIELD: step[:200]} if step else {}


@bp.post("/t/<code>/assassins/ghost-deal")
def ghost_deal(code):
    def write(db, table, viewer):
        if table.game != GAME:
            abort(404, "This table is not playing Age of Assassins.")
        extras = ",".join(request.form.getlist("extras"))[:200]
        # The deck is read here, on the server; whatever else the form carries is ignored.
        store.act(
            db, table, "ghost.deal", {"deck": stored_deck(db), "extras": extras, **named_step()}, viewer, action_id()
        )

    return apply_change(write)


@bp.post("/t/<code>/assassins/ghost-down-deal")
def ghost_down_deal(code):
    def write(db, table, viewer):
        if table.game != GAME:
            abort(404, "This table is not playing Age of Assassins.")
        # As for her face-up cards: the deck is read on the server, never taken from the form.
        store.act(db, table, "ghost.down.deal", {"deck": stored_deck(db), **named_step()}, viewer, action_id())

    return apply_change(write)

"""Rules lookup screens: search as you type, one page per entry, quick references, and the
table's own text ("from your box") for what is printed only on components.

One URL serves the whole page or, for htmx, just a fragment:
  - the search box asks for its results list (HX-Target: rules-results);
  - the tray over a game screen (a "?" link or the bar's "Rules") asks for the panel or
    the entry without the page around it.
Box text belongs to a table: its host edits the table's copy at /t/<code>/rules/<game>/<entry>
(the tray on a table's pages opens that copy). The server-wide defaults a new table copies
are edited at /rules/... only by whoever runs the server: `companion serve` prints an
address with the server's admin key, which gives that browser an admin cookie. Each admin
form carries a token bound to that cookie and to what it writes.
"""

import hashlib
import hmac
import json
import re
from urllib.parse import urlsplit

from flask import Blueprint, abort, current_app, g, make_response, redirect, render_template, request, url_for
from werkzeug.exceptions import RequestEntityTooLarge

from companion import access, box
from companion.access import door
from companion.box.text import DECK_ENTRY, box_entry, box_items, checked_text, deck_lines, import_box, readable
from companion.db import get_db
from companion.games.base import RuleError
from companion.lookup import search as rules
from companion.tables import store

bp = Blueprint("rules", __name__)

RESULTS_TARGET = "rules-results"
RESULT_LIMIT = 25
SNIPPET = 120  # characters of an entry's text shown under a result
IMPORT_MAX_BYTES = 1024 * 1024  # a full export of every box text fits several times over
# Browse order on a game's page: how to play first, the app's own readings last.
GROUPS = (
    ("rule", "How to play"),
    ("card", "Cards"),
    ("table", "Tables by player count"),
    ("missing", "Printed on your component"),
    ("reading", "The app's readings"),
)


# --- small helpers ----------------------------------------------------------------------


def fragment_target():
    """The htmx target of this request, "" for a whole page (a history restore is one too)."""
    if not request.headers.get("HX-Request") or request.headers.get("HX-History-Restore-Request"):
        return ""
    return request.headers.get("HX-Target") or "tray-body"


ADMIN_COOKIE = "tc_admin"
NOT_ADMIN = (
    "Only whoever runs the server can change the text every new table starts with. "
    "A table's host changes that table's own copy from the table's pages."
)


def _sign(text):
    key = current_app.config["SECRET_KEY"].encode()
    return hmac.new(key, text.encode(), hashlib.sha256).hexdigest()[:32]


def admin_cookie_value():
    return _sign("admin:" + current_app.config["ADMIN_KEY"])


def is_admin():
    return hmac.compare_digest(request.cookies.get(ADMIN_COOKIE, "").encode(), admin_cookie_value().encode())


def form_token(purpose):
    """Bound to the admin's cookie: a visitor without it has no token to copy."""
    return _sign(f"rules-box:{purpose}:{request.cookies.get(ADMIN_COOKIE, '')}")


def check_token(purpose):
    if not is_admin():
        abort(403, NOT_ADMIN)
    # Bytes: compare_digest refuses str with non-ASCII characters (a 500, not a 403).
    if not hmac.compare_digest(request.form.get("token", "").encode(), form_token(purpose).encode()):
        abort(403, "This form is out of date or came from another site. Reload the page and try again.")


def tray_table():
    """The table whose page opened the rules tray (htmx names the page's address), or None."""
    if not fragment_target():
        return None
    found = re.match(r"^/t/([0-9A-Za-z]{1,20})(/|$)", urlsplit(request.headers.get("HX-Current-URL", "")).path)
    return store.find_table(get_db(), found.group(1)) if found else None


def game_title(game):
    return next((g["title"] for g in rules.games() if g["slug"] == game), game)


@bp.app_template_filter("rule_snippet")
def snippet(text, size=SNIPPET):
    """The start of an entry's text on one line; lines that end without a stop get a " · "."""
    lines = [" ".join(line.split()) for line in (text or "").splitlines() if line.strip()]
    flat = ""
    for line in lines:
        flat += ("" if not flat else " " if flat[-1] in ".!?:;…" else " · ") + line
    return flat if len(flat) <= size else flat[:size].rsplit(" ", 1)[0] + "…"


@bp.app_template_filter("rule_paragraphs")
def rule_paragraphs(text):
    """Text as paragraphs of lines: a blank line starts a paragraph, a newline a line.
    Returns plain strings; the template escapes them."""
    out = []
    for block in re.split(r"\n\s*\n", (text or "").strip()):
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if lines:
            out.append(lines)
    return out


@bp.app_template_filter("rule_line")
def rule_line(line):
    """(head, rest) of a quick-reference line: "Draft: 7 cards each" -> ("Draft", "7 cards each")."""
    head, sep, rest = line.partition(": ")
    if sep and 0 < len(head) <= 48:
        return head, rest
    return None, line


def table_body(entry):
    """An entry's text without its first paragraph when that paragraph only repeats the table."""
    table = entry.get("table")
    paragraphs = re.split(r"\n\s*\n", entry["body"].strip())
    if not table or not paragraphs:
        return entry["body"]
    lines = [line for line in paragraphs[0].splitlines() if line.strip()]
    rows = table.get("rows", [])
    repeats = len(lines) == len(rows) and all(
        all(str(cell) in line for cell in row.values()) for line, row in zip(lines, rows)
    )
    return "\n\n".join(paragraphs[1:]) if repeats else entry["body"]


# --- the pages --------------------------------------------------------------------------


def fold_box(results):
    """Search results as cards: the table's text rides on its entry's card."""
    cards = []
    for e in results:
        if (
            e["source"] == "box"
            and cards
            and (cards[-1]["entry"]["game"], cards[-1]["entry"]["id"]) == (e["game"], e["id"])
        ):
            cards[-1]["box"] = e
        else:
            cards.append({"entry": e, "box": None})
    return cards


def run_search(game):
    """(context, status) for the search part of /rules or /rules/<game>; inside a table's
    tray, that table's box text is searched."""
    q = request.args.get("q", "")
    context = {"q": q[: rules.MAX_QUERY * 2], "cards": [], "message": None}
    if not q.strip():
        return context, 200
    try:
        found = rules.search(q, game=game, limit=RESULT_LIMIT, box=box_items(get_db(), game, tray_table()))
    except rules.QueryError as error:
        context["message"] = str(error)
        return context, 400
    context["cards"] = fold_box(found)
    if not found:
        context["message"] = "Nothing found. Try fewer words, a card number or a name."
    return context, 200


def browse(game):
    """A game's entries grouped for reading without a search."""
    stored = box.for_game(get_db(), game)
    everything = rules.entries(game)
    groups = []
    for kind, heading in GROUPS:
        items = [dict(e, typed=e["id"] in stored) for e in everything if e["kind"] == kind]
        if items:
            groups.append({"kind": kind, "heading": heading, "entries": items})
    return groups


def render_lookup(game):
    """/rules and /rules/<game>: the page, the tray panel, or just the results."""
    context, status = run_search(game)
    context.update(
        game=game,
        title=game_title(game) if game else None,
        games=rules.games(),
        search_url=url_for("rules.game", game=game) if game else url_for("rules.index"),
        groups=browse(game) if game and not context["q"].strip() else None,
        quickref=rules.quickref(game) if game else None,
    )
    target = fragment_target()
    if target == RESULTS_TARGET:
        return render_template("rules/_results.html", **context), status
    if target:
        return render_template("rules/_panel.html", tray=True, **context), status
    return render_template("rules/lookup.html", tray=False, **context), status


def not_found(game, message):
    context = {
        "game": game,
        "title": game_title(game) if game else None,
        "games": rules.games(),
        "message": message,
        "q": "",
        "cards": [],
        "search_url": url_for("rules.game", game=game) if game else url_for("rules.index"),
    }
    template = "rules/_not_found.html" if fragment_target() else "rules/not_found.html"
    return render_template(template, tray=bool(fragment_target()), **context), 404


def entry_context(game, entry, table=None, **extra):
    """An entry page's context; with `table`, box text is that table's own copy."""
    context = {
        "game": game,
        "title": game_title(game),
        "entry": entry,
        "related": [r for r in (rules.get(game, rid) for rid in entry.get("related", ())) if r],
        "table_text": table_body(entry) if entry.get("table") else None,
        "share_url": share_url(game, entry["id"]),
    }
    db = get_db()
    if entry["kind"] == "missing":
        context.update(box_form(game, entry, box.get(db, game, entry["id"], table), table))
    # A card whose details live in a related missing entry (a character's skill dice) shows
    # what the table typed there too, so one tap answers the question.
    typed = [r for r in context["related"] if r["kind"] == "missing"]
    stored = box.for_game(db, game, table) if typed else {}
    context["related_box"] = [
        {"entry": r, "text": readable(game, r["id"], stored[r["id"]])} for r in typed if r["id"] in stored
    ]
    context.update(extra)
    return context


def share_url(game, entry_id):
    """The entry's address as another phone on the LAN would type it."""
    base = current_app.config.get("PUBLIC_URL") or request.host_url
    return base.rstrip("/") + url_for("rules.entry", game=game, entry=entry_id)


def box_form(game, entry, stored, table=None, text=None, error=None, notice=None):
    """What the "from your box" part of a missing entry shows: a table's copy (its host may
    change it) or the server-wide default (only the server's admin may)."""
    is_deck = (game, entry["id"]) == DECK_ENTRY
    shown = readable(game, entry["id"], stored) if stored else None
    if table is not None:
        url = url_for("rules.table_box_save", code=table.code, game=game, entry=entry["id"])
        token, editable = None, True  # the table page's form token rides in a header
        where = "Kept for this table. Only the table's host can change it."
    else:
        url = url_for("rules.box_save", game=game, entry=entry["id"])
        token, editable = form_token(f"{game}/{entry['id']}"), is_admin()
        where = "The default every new table on this server starts with."
    return {
        "box": {
            "stored": shown,
            "cards": deck_lines(stored) if is_deck and stored else None,
            "text": text if text is not None else (shown or ""),
            "error": error,
            "notice": notice,
            "max": box.MAX_BODY,
            "token": token,
            "url": url,
            "editable": editable,
            "where": where,
            "csrf": access.csrf_token(table) if table is not None else None,
            "hint": (
                "One card a line: number, name, copies (like “1 Magician 5”)." if is_deck else entry.get("box_hint")
            ),
        }
    }


@bp.get("/rules")
def index():
    return render_lookup(None)


@bp.get("/rules/<game>")
def game(game):
    if game not in rules.GAMES:
        return not_found(None, f"There is no game called “{game[:60]}” in the rules lookup.")
    return render_lookup(game)


def render_entry(game, entry, table):
    if game not in rules.GAMES:
        return not_found(None, f"There is no game called “{game[:60]}” in the rules lookup.")
    found = rules.get(game, entry)
    if found is None:
        return not_found(game, f"{game_title(game)} has no rules entry called “{entry[:80]}”. Search for it instead.")
    context = entry_context(game, found, table, tray=bool(fragment_target()))
    if request.args.get("saved") and "box" in context:
        context["box"]["notice"] = SAVED[table is None]
    if fragment_target():
        return render_template("rules/_entry.html", **context)
    template = "rules/quickref.html" if found["kind"] == "quickref" else "rules/entry.html"
    return render_template(template, **context)


SAVED = {True: "Saved. New tables on this server start with it.", False: "Saved for this table."}


@bp.get("/rules/<game>/<entry>")
def entry(game, entry):
    return render_entry(game, entry, tray_table())


@bp.get("/t/<code>/rules/<game>/<entry>")
def table_entry(code, game, entry):
    return render_entry(game, entry, g.table)


def save_box(game, entry, table):
    """Store posted box text for a table's copy or the defaults; the answer in place."""
    found = box_entry(game, entry) if game in rules.GAMES else None
    if found is None:
        abort(404, "The rules lookup keeps no box text for that entry.")
    db = get_db()
    posted = request.form.get("text", "")
    try:
        if table is not None:
            store.check_open(store.load(db, table))  # a table the night left stays as it ended
        box.put(db, game, entry, checked_text(game, entry, posted), table)
    except RuleError as error:
        form = box_form(
            game, found, box.get(db, game, entry, table), table, text=posted[: box.MAX_BODY * 2], error=str(error)
        )
        if fragment_target():
            return render_template("rules/_box.html", game=game, entry=found, tray=True, **form), 422
        context = entry_context(game, found, table, tray=False)
        context.update(form)
        return render_template("rules/entry.html", **context), 422
    if table is not None:
        from companion.web.changes import changed

        changed(table)  # the board shows box text (tile texts, odds, the ghost deal)
    if fragment_target():
        stored = box.get(db, game, entry, table)
        return render_template(
            "rules/_box.html",
            game=game,
            entry=found,
            tray=True,
            **box_form(game, found, stored, table, notice=SAVED[table is None] if stored else "Removed."),
        )
    if table is None:
        return redirect(url_for("rules.entry", game=game, entry=entry, saved=1) + "#box", 303)
    return redirect(url_for("rules.table_entry", code=table.code, game=game, entry=entry, saved=1) + "#box", 303)


@bp.post("/rules/<game>/<entry>/box")
def box_save(game, entry):
    if game in rules.GAMES and box_entry(game, entry):
        check_token(f"{game}/{entry}")
    return save_box(game, entry, None)


@bp.post("/t/<code>/rules/<game>/<entry>/box")
def table_box_save(code, game, entry):
    table = g.table
    door.require(host=True)
    access.check_csrf(table)
    return save_box(game, entry, table)


@bp.get("/admin/<key>")
def admin(key):
    """The address `companion serve` prints: this browser may then change the defaults."""
    limiter = access.guess_limiter()
    limiter.check(request.remote_addr)
    if not hmac.compare_digest(key.encode(), current_app.config["ADMIN_KEY"].encode()):
        limiter.miss(request.remote_addr)
        abort(403, "That is not this server's admin address. It is printed when the server starts.")
    # The admin's page: each player's records, and a way on to the box text defaults.
    response = redirect(url_for("hosts.admin_home"), 303)
    response.set_cookie(
        ADMIN_COOKIE, admin_cookie_value(), max_age=30 * 86400, httponly=True, samesite="Lax", secure=request.is_secure
    )
    return response


# --- the whole box: overview, export, import --------------------------------------------


def render_box_page(status=200, error=None, notice=None, text=""):
    stored = {(r["game"], r["entry"]) for r in box.export(get_db())["entries"]}
    sections = [
        {
            "game": g["slug"],
            "title": g["title"],
            "entries": [dict(e, typed=(g["slug"], e["id"]) in stored) for e in rules.missing(g["slug"])],
        }
        for g in rules.games()
    ]
    return render_template(
        "rules/box.html",
        sections=sections,
        count=len(stored),
        error=error,
        notice=notice,
        text=text,
        token=form_token("import"),
        admin=is_admin(),
        max_kb=IMPORT_MAX_BYTES // 1024,
    ), status


@bp.get("/rules/box")
def box_page():
    imported = request.args.get("imported", "")
    notice = f"Imported {imported} entries." if imported.isdigit() else None
    return render_box_page(notice=notice)


@bp.get("/rules/box.json")
def box_export():
    response = make_response(json.dumps(box.export(get_db()), ensure_ascii=False, indent=2))
    response.headers["Content-Type"] = "application/json; charset=utf-8"
    response.headers["Content-Disposition"] = 'attachment; filename="table-companion-box.json"'
    return response


@bp.get("/rules/box/import")
def box_import_page():
    return redirect(url_for("rules.box_page"))


@bp.post("/rules/box/import")
def box_import():
    # An export can outgrow the app's usual form limit; this view alone reads up to 1 MB.
    request.max_content_length = IMPORT_MAX_BYTES
    request.max_form_memory_size = IMPORT_MAX_BYTES
    too_big = f"That file is too big: an export is at most {IMPORT_MAX_BYTES // 1024} KB. Nothing was imported."
    try:
        form, files = request.form, request.files
    except RequestEntityTooLarge:
        return render_box_page(413, error=too_big)
    check_token("import")
    upload = files.get("file")
    raw = upload.read(IMPORT_MAX_BYTES + 1) if upload and upload.filename else form.get("json", "").encode()
    if len(raw) > IMPORT_MAX_BYTES:
        return render_box_page(413, error=too_big)
    if not raw.strip():
        return render_box_page(422, error="Pick an exported file, or paste its text, then import.")
    try:
        count = import_box(get_db(), raw.decode("utf-8"))
    except UnicodeDecodeError:
        return render_box_page(422, error="That file is not text: export one from this page and try again.")
    except RuleError as error:
        return render_box_page(422, error=f"{error} Nothing was imported.", text=form.get("json", "")[:20000])
    return redirect(url_for("rules.box_page", imported=count), 303)

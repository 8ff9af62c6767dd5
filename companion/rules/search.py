"""Rules lookup: load the shipped entries and search them with SQLite FTS5.

The entries live in data/<game>.json beside this module (read through importlib.resources,
so a wheel works too). The FTS5 index is built once per process, in memory; each thread gets
its own copy of it (sqlite3 serialize/deserialize, or a rebuild on Pythons without them), so
searches never wait on each other or on anything else in the app.

Public:
  search(query, game=None, limit=20, box=None) -> [entry, ...]
  get(game, entry_id) -> entry | None
  entries(game=None) -> [entry, ...]
  quickref(game), missing(game=None), card(game, number), games(), check_data()
  QueryError (a ValueError: its text is shown to the player)
  KIND_LABELS: how each kind is captioned ("reading" -> "the app's reading", ...)

Every entry returned is a fresh dict (callers may change it freely) with the data file's
fields plus "source" ("rules" or "box") and "label" (e.g. "the app's reading").
"""

import functools
import json
import re
import sqlite3
import threading
from importlib import resources

GAMES = ("danger-zone", "blackmail", "assassins")
KINDS = ("rule", "card", "reading", "table", "missing", "quickref")
KIND_LABELS = {
    "rule": "rule",
    "card": "card",
    "reading": "the app's reading",
    "table": "table",
    "missing": "printed on your component",
    "quickref": "quick reference",
    "box": "from your box",
}
MAX_QUERY = 200     # characters; longer is refused with a message
MAX_TERMS = 12      # words used from one query, to bound the work per keystroke
MAX_LIMIT = 100

# The table's own words: a query word on the left also matches the phrase on the right.
ALIASES = {
    "uh": "upper hand",
    "vp": "victory points",
    "vps": "victory points",
    "ml": "mission leader",
    "leader": "mission leader",
    "init": "initiative",
    "pp": "preliminary points",
    "prelim": "preliminary",
    "rp": "real points",
    "dz": "danger zone",
    "aoa": "age of assassins",
    "oygb": "blackmail",
    "qr": "quick reference",
    "ref": "reference",
    "cheat": "quick reference",
    "1st": "first",
    "dead": "killed",
    "die": "dice",
    "immune": "protected",
    "peek": "look",
    "tiebreak": "tie",
    "counterclockwise": "anti clockwise",
    "anticlockwise": "anti clockwise",
    "color": "colour",
    "krieger": "krueger",
    "krueger": "krieger",
    "carol": "cheryl",
    "duchess": "archer",
    "elim": "out",
    "eliminate": "out",
    "eliminated": "out",
    "elimination": "out",
}

# Dropped from a query when they are finished words (not the word being typed).
STOP_WORDS = frozenset("""a about an and are as at be by can do does for from happen happens how i
    if in into is it its many me much my of on or should the there to what when where which
    who why will with would you your""".split())
FEW = 3             # an all-words search finding fewer than this is topped up by any-word hits

_NUMBER_QUERY = re.compile(r"^(?:#|no\.?|nr\.?|card|number|n)?\s*(\d{1,2})$")
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")


class QueryError(ValueError):
    """A search the lookup refuses; its text is safe to show to the player."""


def _words(text):
    return _WORD.findall(_POSSESSIVE.sub("", text.lower()))


def _stem(word):
    """A light stem for matching word forms: "copies" -> "copy", "killed" -> "kill"."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ing", "es", "ed", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)]
    return word


def _norm(text):
    return " ".join(_words(text))


# ---------------------------------------------------------------- loading (once per process)

class _Data:
    def __init__(self):
        self.titles = {}        # game -> the game's title
        self.rows = []          # rowid - 1 -> entry dict (never handed out)
        self.frozen = []        # rowid - 1 -> the entry as JSON text, copied out on demand
        self.by_key = {}        # (game, id) -> rowid
        self.by_game = {g: [] for g in GAMES}
        self.names = {}         # (game, normalised title or alias) -> [rowid]
        self.numbers = {}       # (game, card number) -> [rowid]
        self.image = None       # the FTS database as bytes, for per-thread copies


_load_lock = threading.Lock()
_data = None
_local = threading.local()


def _read_files():
    folder = resources.files(__package__).joinpath("data")
    docs = []
    for game in GAMES:
        docs.append(json.loads(folder.joinpath(f"{game}.json").read_text(encoding="utf-8")))
    return docs


def _load():
    global _data
    if _data is not None:
        return _data
    with _load_lock:
        if _data is not None:
            return _data
        d = _Data()
        for doc in _read_files():
            game = doc["game"]
            d.titles[game] = doc["title"]
            for e in doc["entries"]:
                e = dict(e, game=game)
                d.rows.append(e)
                rowid = len(d.rows)
                d.frozen.append(json.dumps(e, ensure_ascii=False))
                d.by_key[(game, e["id"])] = rowid
                d.by_game[game].append(rowid)
                for name in [e["title"]] + list(e.get("aliases", ())):
                    d.names.setdefault((game, _norm(name)), []).append(rowid)
                if e.get("number") is not None:
                    d.numbers.setdefault((game, int(e["number"])), []).append(rowid)
        conn = sqlite3.connect(":memory:")
        _build_index(conn, d)
        if hasattr(conn, "serialize"):
            d.image = conn.serialize()
        conn.close()
        _data = d
        return d


def _build_index(conn, d):
    conn.execute(
        "CREATE VIRTUAL TABLE rules USING fts5(game UNINDEXED, kind UNINDEXED, "
        "title, aliases, tags, body, gametitle, "
        "tokenize = 'unicode61 remove_diacritics 2', prefix = '1 2 3')")
    conn.executemany(
        "INSERT INTO rules (rowid, game, kind, title, aliases, tags, body, gametitle) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(i, e["game"], e["kind"], e["title"], " ; ".join(e.get("aliases", ())),
          " ; ".join(e.get("tags", ())), e["body"], d.titles[e["game"]])
         for i, e in enumerate(d.rows, 1)])
    conn.commit()


def _conn():
    conn = getattr(_local, "conn", None)
    if conn is None:
        d = _load()
        conn = sqlite3.connect(":memory:")
        if d.image is not None:
            conn.deserialize(d.image)
        else:
            _build_index(conn, d)
        _local.conn = conn
    return conn


def _out(rowid):
    e = json.loads(_load().frozen[rowid - 1])
    e["source"] = "rules"
    e["label"] = KIND_LABELS.get(e["kind"], e["kind"])
    return e


# ---------------------------------------------------------------- lookups

def games():
    """[{"slug", "title"}] in the order the lookup lists them."""
    d = _load()
    return [{"slug": g, "title": d.titles[g]} for g in GAMES]


def entries(game=None):
    """All entries of one game (file order), or of every game; [] for an unknown game."""
    d = _load()
    if game is None:
        return [_out(i) for g in GAMES for i in d.by_game[g]]
    if game not in d.by_game:
        return []
    return [_out(i) for i in d.by_game[game]]


def get(game, entry_id):
    """One entry, or None when the game or the id is unknown."""
    if not isinstance(game, str) or not isinstance(entry_id, str):
        return None
    rowid = _load().by_key.get((game, entry_id))
    return _out(rowid) if rowid else None


def quickref(game):
    return get(game, "quickref")


def missing(game=None):
    """Entries whose text is printed on a component: one "from your box" form each."""
    return [e for e in entries(game) if e["kind"] == "missing"]


def card(game, number):
    """The card entry with that number in that game (Blackmail's 1-8), or None."""
    try:
        rows = _load().numbers.get((game, int(number)))
    except (TypeError, ValueError):
        return None
    return _out(rows[0]) if rows else None


# ---------------------------------------------------------------- search

def _terms(query):
    """Query words, each with the phrase its alias adds (or None). Finished stop words drop
    out; the word still being typed (no space after it) stays."""
    words = _words(query)
    typing = words[-1] if words and not query[-1:].isspace() else None
    kept = [w for i, w in enumerate(words)
            if w not in STOP_WORDS or (i == len(words) - 1 and w == typing)]
    if not kept:
        kept = words    # a query of nothing but stop words still searches for them
    seen, terms = set(), []
    for w in kept:
        if w not in seen:
            seen.add(w)
            terms.append((w, ALIASES.get(w)))
    return terms[:MAX_TERMS]


def _quote(text):
    return '"' + text.replace('"', '""') + '"'


def _match_expr(terms, joiner):
    """A MATCH string built only from quoted words, so no user text is ever FTS syntax.
    Each word is a prefix (results as you type); a finished word also matches its bare
    stem ("insults" finds "insult", "killed" finds "kill"). No Porter stemmer in the index:
    it would stem "initiative" to "initi" and then the typed prefix "initia" would miss."""
    parts = []
    for word, phrase in terms:
        options = [_quote(word) + "*"]
        stem = _stem(word)
        if stem != word:
            options.append(_quote(stem) + "*")
        if phrase:
            options.append(_quote(phrase))
        parts.append(options[0] if len(options) == 1 else "(" + " OR ".join(options) + ")")
    return f" {joiner} ".join(parts)


# Column weights: title, aliases, tags, body, game title (unindexed columns first, at 0).
_RANK = ("bm25(rules, 0, 0, 10.0, 8.0, 3.0, 1.0, 0.5)"
         " * CASE kind WHEN 'quickref' THEN 0.5 ELSE 1.0 END")


def _fts(terms, game, limit):
    """Rows matching every term, best first; when that finds fewer than FEW, rows matching
    any term follow (a spoken question rarely has all its words in one entry)."""
    conn = _conn()
    sql = "SELECT rowid FROM rules WHERE rules MATCH ?"
    if game:
        sql += " AND game = ?"
    sql += f" ORDER BY {_RANK} LIMIT ?"
    rows = []
    for joiner in ("AND", "OR") if len(terms) > 1 else ("AND",):
        args = [_match_expr(terms, joiner)] + ([game] if game else []) + [limit]
        try:
            rows += [r[0] for r in conn.execute(sql, args) if r[0] not in rows]
        except sqlite3.Error:
            pass    # belt and braces: a query we failed to make safe finds nothing
        if len(rows) >= FEW:
            break
    return rows


def _priority(query, terms, game):
    """Rows a query names outright: a card number, or an entry's title or alias."""
    d = _load()
    scope = [game] if game else list(GAMES)
    rows = []
    m = _NUMBER_QUERY.match(query.strip().lower())
    if m:
        for g in scope:
            rows += d.numbers.get((g, int(m.group(1))), [])
    name = _norm(query)
    for g in scope:
        rows += d.names.get((g, name), [])
        # "krieger" in Blackmail, "duchess" anywhere: the alias word as a name
        if len(terms) == 1 and terms[0][1]:
            rows += d.names.get((g, _norm(terms[0][1])), [])
    return rows


def search(query, game=None, limit=20, box=None):
    """Entries matching query, best first. game limits to one game; box is the table's own
    text ("from your box"): a list of {game, id, title, body} merged into the results.
    Empty query -> []. Over MAX_QUERY characters or an unknown game -> QueryError."""
    if game is not None and game not in GAMES:
        raise QueryError("There is no such game in the rules lookup.")
    if query is None:
        return []
    if not isinstance(query, str):
        raise QueryError("Type some words to search for.")
    if len(query) > MAX_QUERY:
        raise QueryError(f"That search is too long: keep it under {MAX_QUERY} characters.")
    if not query.strip():
        return []
    try:
        limit = max(1, min(MAX_LIMIT, int(limit)))
    except (TypeError, ValueError):
        limit = 20
    terms = _terms(query)
    if not terms:
        return []

    first = _dedupe(_priority(query, terms, game))
    rest = [r for r in _fts(terms, game, limit) if r not in first]
    results = [_out(r) for r in (first + rest)[:limit]]
    if box:
        results = _merge_box(results, len(first), terms, game, box)
    return results[:limit]


def _dedupe(rows):
    seen, out = set(), []
    for r in rows:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out


# ---------------------------------------------------------------- "from your box"
# The table's typed text changes while the app runs and is small (a few dozen entries), so
# it is matched here in Python rather than re-indexed: nothing to invalidate, and each
# thread's copy of the shipped index stays read-only.

@functools.lru_cache(maxsize=2048)
def _box_text(text):
    """(sorted distinct words, " normalised text ") of one piece of typed text."""
    words = _words(text)
    return tuple(sorted(set(words))), " " + " ".join(words) + " "


def _hits(terms, text):
    """How many query terms the text matches: prefix of a word (loosely stemmed), or the
    term's alias phrase."""
    words, flat = _box_text(text)
    hits = 0
    for word, phrase in terms:
        stem = _stem(word)
        if any(w.startswith(stem) for w in words) or (phrase and f" {_norm(phrase)} " in flat):
            hits += 1
    return hits


def _valid_box_item(item, game):
    return (isinstance(item, dict) and item.get("game") in GAMES
            and (game is None or item["game"] == game)
            and isinstance(item.get("id"), str) and isinstance(item.get("body"), str)
            and isinstance(item.get("title") or "", str))


def _box_entry(item, shipped):
    title = item.get("title") or (shipped["title"] if shipped else "") or item["id"]
    return {"game": item["game"], "id": item["id"], "title": title, "body": item["body"],
            "kind": "box", "tags": [], "aliases": [], "related": [item["id"]] if shipped else [],
            "source": "box", "label": KIND_LABELS["box"]}


def _merge_box(results, n_first, terms, game, box):
    """Shipped results keep their order; the table's text for an entry follows it. Other
    typed text that matches every term comes after the named matches (title hit) or at
    the end (body hit only), with its shipped entry when there is one."""
    d = _load()
    items = [i for i in (box if isinstance(box, (list, tuple)) else ()) if _valid_box_item(i, game)]
    if not items:
        return results
    by_key = {(i["game"], i["id"]): i for i in items}

    head, tail, shown = [], [], set()
    for n, e in enumerate(results):
        key = (e["game"], e["id"])
        group = [e]
        if key in by_key:
            group.append(_box_entry(by_key[key], e))
        shown.add(key)
        (head if n < n_first else tail).extend(group)

    early, late = [], []
    for key, item in by_key.items():    # one text per entry: the last one given wins
        if key in shown:
            continue
        title = item.get("title") or ""
        if _hits(terms, title + " " + item["body"]) < len(terms):
            continue
        rowid = d.by_key.get(key)
        shipped = _out(rowid) if rowid else None
        group = ([shipped] if shipped else []) + [_box_entry(item, shipped)]
        (early if title and _hits(terms, title) else late).extend(group)
    return head + early + tail + late


# ---------------------------------------------------------------- data checks (for tests)

def check_data():
    """Problems in the shipped data files, as readable strings ([] when all is well)."""
    problems = []
    d = _load()
    seen = set()
    for e in d.rows:
        key = (e["game"], e["id"])
        where = f"{e['game']}/{e['id']}"
        if key in seen:
            problems.append(f"{where}: duplicate id")
        seen.add(key)
        if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", e["id"]):
            problems.append(f"{where}: id is not a slug")
        if e["kind"] not in KINDS:
            problems.append(f"{where}: unknown kind {e['kind']!r}")
        for field in ("title", "body"):
            if not isinstance(e.get(field), str) or not e[field].strip():
                problems.append(f"{where}: empty {field}")
        if re.search(r"<[a-zA-Z/]", e["body"]):
            problems.append(f"{where}: body looks like HTML")
        for rel in e.get("related", ()):
            if (e["game"], rel) not in d.by_key:
                problems.append(f"{where}: related entry {rel!r} does not exist")
        if e["kind"] == "missing" and "printed on your component" not in e["body"]:
            problems.append(f"{where}: missing entry does not say where the text is")
        if ("number" in e) != ("copies" in e):
            problems.append(f"{where}: number and copies go together")
    for g in GAMES:
        if (g, "quickref") not in d.by_key:
            problems.append(f"{g}: no quick reference")
    return problems

"""Rules lookup, the shipped side: how text becomes words, the entries loaded once per
process into a small inverted index, the lookups by id, game and card number, and the checks
on the data files.

The entries live in data/<game>.json beside this module (read through importlib.resources,
so a wheel works too). The index is built on first use and read-only after that: threads
share it without locks. Query reading (query.py) and ranking (search.py) split words with
the helpers here, so a query word and an indexed word always mean the same thing.
"""

import functools
import json
import re
import threading
import unicodedata
from importlib import resources

import snowballstemmer

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

# Dropped from a query when they are finished words (not the word being typed). The last
# line holds what is left of contractions typed with or without the apostrophe.
STOP_WORDS = frozenset(
    """a about am an and are as at be been by can could do does for from
    get gets got had has have happen happens how i if in into is it its many me much my of
    on or should so that the then there this to was were what whats when where which who
    why will with would you your
    d don dont doesn doesnt im isn isnt ll m re t ve""".split()
)

# Where a word stands in an entry, and what that is worth.
FIELD_WEIGHTS = {"title": 10.0, "aliases": 8.0, "tags": 3.0, "body": 1.0}

_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def _fold(text):
    """Lower case without accents: "Café" -> "cafe"."""
    text = text.lower()
    if text.isascii():
        return text
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text))


def _words(text):
    return _WORD.findall(_POSSESSIVE.sub("", _fold(text)))


# Snowball's English (Porter 2) stemmer. A stemmer object keeps its state while it works,
# so threads take turns; the cache means each word is stemmed once per process.
_stemmer = snowballstemmer.stemmer("english")
_stem_lock = threading.Lock()


@functools.lru_cache(maxsize=8192)
def _stem(word):
    """The word's stem, for matching word forms: "copies" -> "copi", "protection" -> "protect"."""
    with _stem_lock:
        return _stemmer.stemWord(word)


def _norm(text):
    return " ".join(_words(text))


def _deletes(word, depth):
    """Every string made by deleting up to depth letters from word (itself included)."""
    out, edge = {word}, {word}
    for _ in range(depth):
        edge = {w[:i] + w[i + 1 :] for w in edge for i in range(len(w))} - out
        out |= edge
    return out


def _max_typos(word):
    return 0 if len(word) < 4 else 1 if len(word) < 8 else 2


# ---------------------------------------------------------------- loading (once per process)


class _Data:
    def __init__(self):
        self.titles = {}  # game -> the game's title
        self.rows = []  # rowid - 1 -> entry dict (never handed out)
        self.frozen = []  # rowid - 1 -> the entry as JSON text, copied out on demand
        self.by_key = {}  # (game, id or former id) -> rowid
        self.by_game = {g: [] for g in GAMES}
        self.names = {}  # (game, normalised title or alias) -> [rowid]
        self.spoken_names = {}  # game -> [(" normalised name ", rowid)]: names found in a query
        self.numbers = {}  # (game, card number) -> [rowid]
        self.postings = {}  # word -> {rowid: best field weight}
        self.phrases = {}  # rowid -> [(field weight, " normalised field text ")]
        self.title_words = {}  # rowid -> frozenset of the title's non-stop words
        self.topic_words = set()  # words of any title, alias or tag: what entries are about
        self.vocab = []  # every indexed word, sorted (prefix completion)
        self.name_vocab = []  # words of titles and aliases, sorted (short prefixes)
        self.stems = {}  # stem -> [words]
        self.deletes = {}  # word with letters deleted -> {words} (typo lookup)
        self.game_words = {}  # game -> words of its title that name nothing in it


_load_lock = threading.Lock()
_data = None


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
        if _data is None:
            _data = _build(_read_files())
    return _data


def _build(docs):
    d = _Data()
    former = []
    for doc in docs:
        game = doc["game"]
        d.titles[game] = doc["title"]
        # Words of the game's title: those naming no card pick the game ("blackmail");
        # those naming one ("Archer") are a surname there, see _index_entry.
        naming = {
            w
            for e in doc["entries"]
            if e["kind"] in ("card", "missing")
            for n in [e["title"]] + list(e.get("aliases", ()))
            for w in _words(n)
        }
        title = {w for w in _words(doc["title"]) if w not in STOP_WORDS}
        d.game_words[game] = frozenset(title - naming)
        surnames = title & naming
        for e in doc["entries"]:
            e = dict(e, game=game)
            d.rows.append(e)
            rowid = len(d.rows)
            d.frozen.append(json.dumps(e, ensure_ascii=False))
            d.by_game[game].append(rowid)
            d.by_key.setdefault((game, e["id"]), rowid)
            former += [((game, old), rowid) for old in e.get("former_ids", ())]
            for name in [e["title"]] + list(e.get("aliases", ())):
                norm = _norm(name)
                d.names.setdefault((game, norm), []).append(rowid)
                if norm:
                    d.spoken_names.setdefault(game, []).append((f" {norm} ", rowid))
            if e.get("number") is not None:
                d.numbers.setdefault((game, int(e["number"])), []).append(rowid)
            _index_entry(d, rowid, e, surnames)
    for key, rowid in former:  # after every id: a live id always wins
        d.by_key.setdefault(key, rowid)
    d.vocab = sorted(d.postings)
    names = {w for e in d.rows for n in [e["title"]] + list(e.get("aliases", ())) for w in _words(n)}
    d.name_vocab = sorted(names)
    for w in d.vocab:
        d.stems.setdefault(_stem(w), []).append(w)
        if not w.isdigit() and _max_typos(w):
            for s in _deletes(w, _max_typos(w)):
                d.deletes.setdefault(s, set()).add(w)
    return d


def _index_entry(d, rowid, e, surnames):
    """Post the entry's words with the weight of the best field each stands in. A surname
    from the game's title ("Archer" in "Malory Archer") weighs as a title word only where it
    is the whole name (Sterling Archer's alias "Archer"); elsewhere it is a mention."""
    fields = {
        "title": [e["title"]],
        "aliases": list(e.get("aliases", ())),
        "tags": list(e.get("tags", ())),
        "body": [e["body"]],
    }
    texts = []
    for field, parts in fields.items():
        for part in parts:
            words = _words(part)
            if field != "body":
                d.topic_words.update(words)
            texts.append((FIELD_WEIGHTS[field], " " + " ".join(words) + " "))
            for w in words:
                weight = FIELD_WEIGHTS[field]
                if w in surnames and len(words) > 1:
                    weight = min(weight, FIELD_WEIGHTS["body"])
                hits = d.postings.setdefault(w, {})
                if hits.get(rowid, 0) < weight:
                    hits[rowid] = weight
    d.phrases[rowid] = texts
    title = _words(e["title"])
    d.title_words[rowid] = frozenset(w for w in title if w not in STOP_WORDS and (w not in surnames or len(title) == 1))


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
    """One entry, or None when the game or the id is unknown. An id an entry used to have
    (its "former_ids") finds it too, so an old link keeps working."""
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
        for old in e.get("former_ids", ()):
            if d.by_key.get((e["game"], old)) != d.by_key[key]:
                problems.append(f"{where}: former id {old!r} belongs to another entry")
            if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", old):
                problems.append(f"{where}: former id {old!r} is not a slug")
    for g in GAMES:
        if (g, "quickref") not in d.by_key:
            problems.append(f"{g}: no quick reference")
    return problems

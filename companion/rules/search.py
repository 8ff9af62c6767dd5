"""Rules lookup: load the shipped entries and search them.

The entries live in data/<game>.json beside this module (read through importlib.resources,
so a wheel works too). They are few (about 130), so the search is a small inverted index
in plain Python, built once per process and read-only after that: threads share it without
locks, and every scoring rule is here to read rather than hidden in a bm25 formula.

How a query is read, word by word (stop words dropped, at most MAX_TERMS words):
  - a word matches the same word, a word with the same stem ("kills" finds "killed"), a
    longer word it starts (as you type: "magici" finds "Magician"), or the phrase its table
    alias stands for ("uh" finds "Upper Hand");
  - a word the entries never use is read as the nearest word they do use (one typo, two in
    long words: "kreiger" is "krieger");
  - words of a game's own title ("danger", "blackmail") pick the game rather than match:
    "Archer" stays a word because it names cards in both Archer games;
  - a number in a question ("do I have to play the 8") also names the card with that number.
An entry scores, per word, by where the word stands (title over aliases over tags over
text) times how rare the word is, scaled by the share of the query it answers. An entry
whose title the query names, or whose alias stands in the query, gets a bonus; the app's
readings and the quick references weigh less than the rules they comment on.

Public:
  search(query, game=None, limit=20, box=None) -> [entry, ...]
  get(game, entry_id) -> entry | None       (an entry's former ids still find it)
  entries(game=None) -> [entry, ...]
  quickref(game), missing(game=None), card(game, number), games(), check_data()
  QueryError (a ValueError: its text is shown to the player)
  KIND_LABELS: how each kind is captioned ("reading" -> "the app's reading", ...)

Every entry returned is a fresh dict (callers may change it freely) with the data file's
fields plus "source" ("rules" or "box") and "label" (e.g. "the app's reading").
"""

import bisect
import functools
import json
import math
import re
import threading
import unicodedata
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
    "tiebreaker": "tie",
    "counterclockwise": "anti clockwise",
    "anticlockwise": "anti clockwise",
    "color": "colour",
    "colors": "colour",
    "krieger": "krueger",
    "krueger": "krieger",
    "carol": "cheryl",
    "duchess": "archer",
    "elim": "out",
    "eliminate": "out",
    "eliminated": "out",
    "elimination": "out",
}

# Dropped from a query when they are finished words (not the word being typed). The last
# line holds what is left of contractions typed with or without the apostrophe.
STOP_WORDS = frozenset("""a about am an and are as at be been by can could do does for from
    get gets got had has have happen happens how i if in into is it its many me much my of
    on or should so that the then there this to was were what whats when where which who
    why will with would you your
    d don dont doesn doesnt im isn isnt ll m re t ve""".split())

# Where a word stands in an entry, and what that is worth.
FIELD_WEIGHTS = {"title": 10.0, "aliases": 8.0, "tags": 3.0, "body": 1.0}
NUMBER_WEIGHT = 12.0        # "the 8" names card 8 as surely as its title would
# How well a query word fits an entry word.
EXACT, STEMMED, COMPLETED, CORRECTED = 1.0, 0.95, 0.85, 0.7
# Bonuses, in the units of a title hit: the query names the entry.
TITLE_BONUS = 6.0           # times the share of the title's words the query holds
NAME_BONUS = 8.0            # per word of a title or alias that stands whole in the query
KIND_FACTORS = {"reading": 0.7, "quickref": 0.4, "missing": 0.95}
SHORT_PREFIX = 2            # typed prefixes this short complete to names only
MAX_COMPLETIONS = 60

_NUMBER_QUERY = re.compile(r"^(?:#|no\.?|nr\.?|card|number|n)?\s*(\d{1,2})$")
_WORD = re.compile(r"[^\W_]+")
_POSSESSIVE = re.compile(r"['\u2019]s\b")
_COMBINING = re.compile(r"[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


class QueryError(ValueError):
    """A search the lookup refuses; its text is safe to show to the player."""


def _fold(text):
    """Lower case without accents: "Café" -> "cafe"."""
    text = text.lower()
    if text.isascii():
        return text
    return _COMBINING.sub("", unicodedata.normalize("NFKD", text))


def _words(text):
    return _WORD.findall(_POSSESSIVE.sub("", _fold(text)))


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


def _distance(a, b, limit):
    """Edit distance with adjacent swaps counted once ("ei" for "ie"), or limit + 1 when
    it is over limit."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2, prev = None, list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        if min(cur) > limit:
            return limit + 1
        prev2, prev = prev, cur
    return prev[-1]


def _deletes(word, depth):
    """Every string made by deleting up to depth letters from word (itself included)."""
    out, edge = {word}, {word}
    for _ in range(depth):
        edge = {w[:i] + w[i + 1:] for w in edge for i in range(len(w))} - out
        out |= edge
    return out


def _max_typos(word):
    return 0 if len(word) < 4 else 1 if len(word) < 8 else 2


# ---------------------------------------------------------------- loading (once per process)

class _Data:
    def __init__(self):
        self.titles = {}        # game -> the game's title
        self.rows = []          # rowid - 1 -> entry dict (never handed out)
        self.frozen = []        # rowid - 1 -> the entry as JSON text, copied out on demand
        self.by_key = {}        # (game, id or former id) -> rowid
        self.by_game = {g: [] for g in GAMES}
        self.names = {}         # (game, normalised title or alias) -> [rowid]
        self.spoken_names = {}  # game -> [(" normalised name ", rowid)]: names found in a query
        self.numbers = {}       # (game, card number) -> [rowid]
        self.postings = {}      # word -> {rowid: best field weight}
        self.phrases = {}       # rowid -> [(field weight, " normalised field text ")]
        self.title_words = {}   # rowid -> frozenset of the title's non-stop words
        self.vocab = []         # every indexed word, sorted (prefix completion)
        self.name_vocab = []    # words of titles and aliases, sorted (short prefixes)
        self.stems = {}         # stem -> [words]
        self.deletes = {}       # word with letters deleted -> {words} (typo lookup)
        self.game_words = {}    # game -> words of its title that name nothing in it


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
        naming = {w for e in doc["entries"] if e["kind"] in ("card", "missing")
                  for n in [e["title"]] + list(e.get("aliases", ())) for w in _words(n)}
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
    for key, rowid in former:       # after every id: a live id always wins
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
    fields = {"title": [e["title"]], "aliases": list(e.get("aliases", ())),
              "tags": list(e.get("tags", ())), "body": [e["body"]]}
    texts = []
    for field, parts in fields.items():
        for part in parts:
            words = _words(part)
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
    d.title_words[rowid] = frozenset(w for w in title if w not in STOP_WORDS
                                     and (w not in surnames or len(title) == 1))


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


# ---------------------------------------------------------------- reading the query

@functools.lru_cache(maxsize=4096)
def _corrections(word):
    """The known words nearest to an unknown word: ("krieger",) for "kreiger"; () when
    nothing is close enough. Candidates share a deletion with the word (symmetric delete),
    then the real distance decides; a tie goes to the word more entries use."""
    d = _load()
    limit = _max_typos(word)
    if not limit or word.isdigit():
        return ()
    found = set()
    for s in _deletes(word, limit):
        found |= d.deletes.get(s, set())
    scored = [(_distance(word, w, limit), -len(d.postings[w]), w) for w in found]
    scored = [s for s in scored if s[0] <= limit]
    if not scored:
        return ()
    best = min(s[0] for s in scored)
    return tuple(w for dist, _, w in sorted(scored) if dist == best)[:3]


@functools.lru_cache(maxsize=4096)
def _expand(word, typing, correct=True):
    """The indexed words one query word stands for, with how well each fits:
    ((word, quality), ...). typing: the word is still being typed (a prefix); correct:
    an unknown word may be read as a near one (not when the table's own text uses it)."""
    d = _load()
    fits = {}

    def add(w, quality):
        if fits.get(w, 0) < quality:
            fits[w] = quality

    if word in d.postings:
        add(word, EXACT)
    if not word.isdigit():      # "1" must not find "15"
        for w in d.stems.get(_stem(word), ()):
            add(w, STEMMED)
        if typing or len(word) >= 4:
            pool = d.name_vocab if typing and len(word) <= SHORT_PREFIX else d.vocab
            i = bisect.bisect_left(pool, word)
            for w in pool[i:i + MAX_COMPLETIONS]:
                if not w.startswith(word):
                    break
                add(w, COMPLETED)
    if not fits and correct:
        for w in _corrections(word):
            add(w, CORRECTED)
    alias, quality = ALIASES.get(word), EXACT
    if alias is None and len(fits) == 1:    # "kreiger" -> "krieger" -> also "krueger"
        source, quality = next(iter(fits.items()))
        alias = ALIASES.get(source)
    if alias and " " not in alias:
        for w in d.stems.get(_stem(alias), ()) + ([alias] if alias in d.postings else []):
            add(w, quality)
    return tuple(fits.items())


@functools.lru_cache(maxsize=1024)
def _phrase_hits(phrase):
    """{rowid: best field weight} of entries holding the words of phrase in a row."""
    d = _load()
    needle = " " + _norm(phrase) + " "
    hits = {}
    for rowid, texts in d.phrases.items():
        for weight, text in texts:
            if needle in text and hits.get(rowid, 0) < weight:
                hits[rowid] = weight
    return hits


class _Query:
    """What search() needs from the query text."""

    def __init__(self, query, game, own=frozenset()):
        d = _load()
        words = _words(query)
        typing = words[-1] if words and _WORD.match(_fold(query[-1:])) else None
        scope = [game] if game else list(GAMES)

        # Words of a game's title pick the game: dropped in its own lookup, and in the
        # all-games box they narrow it to that game ("dz setup").
        named_games, kept = [], []
        for w in words:
            alias_words = set(_words(ALIASES.get(w, "")))     # "dz" -> danger, zone
            picks = [g for g in scope if w in d.game_words[g]
                     or (alias_words and alias_words <= d.game_words[g] | STOP_WORDS)]
            if picks:
                named_games += [g for g in picks if g not in named_games]
            else:
                kept.append(w)
        if not game and named_games:
            scope = named_games
        self.scope = scope
        self.named_game_only = bool(words) and not kept and bool(named_games)

        finished = [w for w in kept if w not in STOP_WORDS or w == typing]
        if not finished and not self.named_game_only:
            finished = kept     # a query of nothing but stop words still searches for them
        seen, terms = set(), []
        for w in finished:
            if w not in seen:
                seen.add(w)
                terms.append(w)
        self.terms = terms[:MAX_TERMS]
        self.typing = typing
        self.words = words
        self.own = own      # words of the table's own text: searched as typed, never corrected
        # The query as names are looked for in it, its typos put right ("skil dice").
        self.text = " " + " ".join(_best_word(w, w == typing, w not in own) for w in words) + " "


def _best_word(word, typing, correct):
    """The word as typed when the entries use it, else the nearest word they do use."""
    if word in _load().postings:
        return word
    fits = _expand(word, typing, correct)
    return max(fits, key=lambda f: (f[1], -len(f[0])))[0] if fits else word


# ---------------------------------------------------------------- search

def _priority(query, q):
    """Rows a query names outright: a card number, or an entry's title or alias (as typed,
    or with its typos put right)."""
    d = _load()
    rows = []
    m = _NUMBER_QUERY.match(query.strip().lower())
    if m:
        for g in q.scope:
            rows += d.numbers.get((g, int(m.group(1))), [])
    names = [" ".join(q.terms), " ".join(q.words)]
    if len(q.terms) == 1:
        w = q.terms[0]
        fixed = [c for c, quality in _expand(w, False, w not in q.own) if quality == CORRECTED]
        names += fixed[:1]
        if ALIASES.get(w):        # "krieger" in Blackmail, "duchess" anywhere
            names.append(_norm(ALIASES[w]))
    for g in q.scope:
        for name in names:
            rows += d.names.get((g, name), [])
    return rows


def _scored(q):
    """Rowids of the entries matching any query word, best first (file order on a tie)."""
    d = _load()
    in_scope = set()
    for g in q.scope:
        in_scope.update(d.by_game[g])
    n = len(in_scope)

    per_term = []       # [(idf, {rowid: weight}, {indexed words it stands for})]
    for w in q.terms:
        fits = _expand(w, w == q.typing, w not in q.own)
        hits = {}
        for word, quality in fits:
            for rowid, weight in d.postings.get(word, {}).items():
                if rowid in in_scope and hits.get(rowid, 0) < weight * quality:
                    hits[rowid] = weight * quality
        alias = ALIASES.get(w)
        if alias and " " in alias:
            for rowid, weight in _phrase_hits(alias).items():
                if rowid in in_scope and hits.get(rowid, 0) < weight:
                    hits[rowid] = weight
        if w.isdigit():
            for g in q.scope:
                for rowid in d.numbers.get((g, int(w)), ()):
                    hits[rowid] = max(hits.get(rowid, 0), NUMBER_WEIGHT)
        idf = math.log(1 + n / (1 + len(hits)))
        words = {word for word, _ in fits} | set(_words(alias or ""))
        per_term.append((idf, hits, words))

    total_idf = sum(t[0] for t in per_term) or 1.0
    scores = {}
    for idf, hits, _ in per_term:
        for rowid, weight in hits.items():
            scores[rowid] = scores.get(rowid, 0.0) + idf * weight

    names = {}
    for g in q.scope:
        for name, rowid in d.spoken_names.get(g, ()):
            if name in q.text:
                names[rowid] = max(names.get(rowid, 0), name.count(" ") - 1)

    ranked = []
    for rowid, base in scores.items():
        covered = sum(idf for idf, hits, _ in per_term if rowid in hits)
        score = base * covered / total_idf
        title = d.title_words[rowid]
        if title:
            named = sum(1 for t in title if any(t in words for _, _, words in per_term))
            score += TITLE_BONUS * max(idf for idf, _, _ in per_term) * named / len(title)
        if rowid in names:
            score += NAME_BONUS * names[rowid]
        score *= KIND_FACTORS.get(d.rows[rowid - 1]["kind"], 1.0)
        ranked.append((-score, rowid))
    ranked.sort()
    return [rowid for _, rowid in ranked]


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
    q = _Query(query, game, _own_words(box, game))
    if q.named_game_only:       # "danger zone": the game's overview and quick reference
        d = _load()
        first = [d.by_key[(g, i)] for g in q.scope for i in ("overview", "quickref")
                 if (g, i) in d.by_key]
        return [_out(r) for r in first][:limit]
    if not q.terms:
        return []

    first = _dedupe(_priority(query, q))
    rest = [r for r in _scored(q) if r not in first]
    results = [_out(r) for r in (first + rest)[:limit]]
    if box:
        terms = [(w, ALIASES.get(w)) for w in q.terms]
        results = _merge_box(results, len(first), terms, game, box)
    return results[:limit]


def _own_words(box, game):
    """Every word of the table's own text ("from your box") in this search's games."""
    if not box or not isinstance(box, (list, tuple)):
        return frozenset()
    words = set()
    for item in box:
        if _valid_box_item(item, game):
            words.update(_box_text((item.get("title") or "") + " " + item["body"])[0])
    return frozenset(words)


def _dedupe(rows):
    seen, out = set(), []
    for r in rows:
        if r not in seen:
            seen.add(r)
            out.append(r)
    return out


# ---------------------------------------------------------------- "from your box"
# The table's typed text changes while the app runs and is small (a few dozen entries), so
# it is matched here on its own rather than indexed: nothing to invalidate, and the
# shipped index stays read-only.

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
        for old in e.get("former_ids", ()):
            if d.by_key.get((e["game"], old)) != d.by_key[key]:
                problems.append(f"{where}: former id {old!r} belongs to another entry")
            if not re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", old):
                problems.append(f"{where}: former id {old!r} is not a slug")
    for g in GAMES:
        if (g, "quickref") not in d.by_key:
            problems.append(f"{g}: no quick reference")
    return problems

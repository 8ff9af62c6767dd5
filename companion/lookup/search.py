"""Rules lookup: the public face (search, get, entries, ...) and the ranking.

The lookup is three modules: index.py loads the shipped entries into a small inverted index
and answers the lookups by id; query.py reads a query (stems, completions, typos, aliases,
game titles); this module ranks the entries a query finds and merges in the table's own
text. They are few (about 130), so every scoring rule is here to read rather than hidden
in a bm25 formula. Callers import only this module.

An entry scores, per word, by where the word stands (title over aliases over tags over
text) times how rare the word is, scaled by the share of the query it answers; a word no
title, alias or tag uses ("else") counts for less; a number in a question ("do I have to
play the 8") also names the card with that number. An entry
whose title the query names, or whose alias stands in the query, gets a bonus; the app's
readings and the quick references weigh less than the rules they comment on.

Public:
  search(query, game=None, limit=20, box=None) -> [entry, ...]
  get(game, entry_id) -> entry | None       (an entry's former ids still find it)
  entries(game=None) -> [entry, ...]
  quickref(game), missing(game=None), card(game, number), games(), check_data()
  QueryError (a ValueError: its text is shown to the player)
  GAMES, KINDS, MAX_QUERY, MAX_TERMS
  KIND_LABELS: how each kind is captioned ("reading" -> "the app's reading", ...)

Every entry returned is a fresh dict (callers may change it freely) with the data file's
fields plus "source" ("rules" or "box") and "label" (e.g. "the app's reading").
"""

import functools
import math
import re

# Re-exported: callers use them as search.<name>.
from companion.lookup.index import (  # noqa: F401
    FIELD_WEIGHTS,
    GAMES,
    KIND_LABELS,
    KINDS,
    STOP_WORDS,
    _load,
    _norm,
    _out,
    _stem,
    _words,
    card,
    check_data,
    entries,
    games,
    get,
    missing,
    quickref,
)
from companion.lookup.query import ALIASES, CORRECTED, MAX_TERMS, _distance, _expand, _phrase_hits, _Query  # noqa: F401  tests check the typo distance

MAX_QUERY = 200  # characters; longer is refused with a message
MAX_LIMIT = 100

NUMBER_WEIGHT = 12.0  # "the 8" names card 8 as surely as its title would
# Bonuses, in the units of a title hit: the query names the entry.
TITLE_BONUS = 6.0  # times the share of the title's words the query holds
NAME_BONUS = 8.0  # per word of a title or alias that stands whole in the query
# A query word that no title, alias or tag uses ("else") names no topic of the rules: it
# is found only in running text, where its rarity among a few dozen entries says little
# about what an entry is about, so it counts less towards both score and coverage.
PROSE_FACTOR = 0.5
KIND_FACTORS = {"reading": 0.7, "quickref": 0.4, "missing": 0.95}

_NUMBER_QUERY = re.compile(r"^(?:#|no\.?|nr\.?|card|number|n)?\s*(\d{1,2})$")


class QueryError(ValueError):
    """A search the lookup refuses; its text is safe to show to the player."""


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
        if ALIASES.get(w):  # "krieger" in Blackmail, "duchess" anywhere
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

    per_term = []  # [(idf, {rowid: weight}, {indexed words it stands for})]
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
        words = {word for word, _ in fits} | set(_words(alias or ""))
        idf = math.log(1 + n / (1 + len(hits)))
        if not w.isdigit() and words.isdisjoint(d.topic_words):
            idf *= PROSE_FACTOR
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
    if q.named_game_only:  # "danger zone": the game's overview and quick reference
        d = _load()
        first = [d.by_key[(g, i)] for g in q.scope for i in ("overview", "quickref") if (g, i) in d.by_key]
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
    """(sorted distinct words, those words and their stems, " normalised text ") of one
    piece of typed text. Stems are kept since a stem need not start its word ("copi")."""
    words = _words(text)
    distinct = set(words)
    return (
        tuple(sorted(distinct)),
        tuple(sorted(distinct | {_stem(w) for w in distinct})),
        " " + " ".join(words) + " ",
    )


def _hits(terms, text):
    """How many query terms the text matches: the term's stem starting a word or a word's
    stem, or the term's alias phrase."""
    _, words, flat = _box_text(text)
    hits = 0
    for word, phrase in terms:
        stem = _stem(word)
        if any(w.startswith(stem) for w in words) or (phrase and f" {_norm(phrase)} " in flat):
            hits += 1
    return hits


def _valid_box_item(item, game):
    return (
        isinstance(item, dict)
        and item.get("game") in GAMES
        and (game is None or item["game"] == game)
        and isinstance(item.get("id"), str)
        and isinstance(item.get("body"), str)
        and isinstance(item.get("title") or "", str)
    )


def _box_entry(item, shipped):
    title = item.get("title") or (shipped["title"] if shipped else "") or item["id"]
    return {
        "game": item["game"],
        "id": item["id"],
        "title": title,
        "body": item["body"],
        "kind": "box",
        "tags": [],
        "aliases": [],
        "related": [item["id"]] if shipped else [],
        "source": "box",
        "label": KIND_LABELS["box"],
    }


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
    for key, item in by_key.items():  # one text per entry: the last one given wins
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

"""Rules lookup: reading a query, word by word (stop words dropped, at most MAX_TERMS words):
- a word matches the same word, a word with the same Snowball stem ("kills" finds
  "killed", "protected" finds "protection"), a longer word it starts (as you type:
  "magici" finds "Magician"), or the phrase its table alias stands for ("uh" finds
  "Upper Hand");
- a word the entries never use is read as the nearest word they do use (one typo, two in
  long words, a swap of two letters counting as one: "kreiger" is "krieger");
- words of a game's own title ("danger", "blackmail") pick the game rather than match:
  "Archer" stays a word because it names cards in both Archer games;
- a number in a question ("do I have to play the 8") also names the card with that number
  (search.py scores that).
"""

import bisect
import functools

from rapidfuzz.distance import OSA

from companion.lookup.index import _WORD, GAMES, STOP_WORDS, _deletes, _fold, _load, _max_typos, _norm, _stem, _words

MAX_TERMS = 12  # words used from one query, to bound the work per keystroke

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

# How well a query word fits an entry word.
EXACT, STEMMED, COMPLETED, CORRECTED = 1.0, 0.95, 0.85, 0.7
SHORT_PREFIX = 2  # typed prefixes this short complete to names only
MAX_COMPLETIONS = 60


def _distance(a, b, limit):
    """Edit distance with adjacent swaps counted once ("ei" for "ie"), or limit + 1 when
    it is over limit: rapidfuzz's optimal string alignment distance."""
    return OSA.distance(a, b, score_cutoff=limit)


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
    if not word.isdigit():  # "1" must not find "15"
        for w in d.stems.get(_stem(word), ()):
            add(w, STEMMED)
        if typing or len(word) >= 4:
            pool = d.name_vocab if typing and len(word) <= SHORT_PREFIX else d.vocab
            i = bisect.bisect_left(pool, word)
            for w in pool[i : i + MAX_COMPLETIONS]:
                if not w.startswith(word):
                    break
                add(w, COMPLETED)
    if not fits and correct:
        for w in _corrections(word):
            add(w, CORRECTED)
    alias, quality = ALIASES.get(word), EXACT
    if alias is None and len(fits) == 1:  # "kreiger" -> "krieger" -> also "krueger"
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
            alias_words = set(_words(ALIASES.get(w, "")))  # "dz" -> danger, zone
            picks = [
                g
                for g in scope
                if w in d.game_words[g] or (alias_words and alias_words <= d.game_words[g] | STOP_WORDS)
            ]
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
            finished = kept  # a query of nothing but stop words still searches for them
        seen, terms = set(), []
        for w in finished:
            if w not in seen:
                seen.add(w)
                terms.append(w)
        self.terms = terms[:MAX_TERMS]
        self.typing = typing
        self.words = words
        self.own = own  # words of the table's own text: searched as typed, never corrected
        # The query as names are looked for in it, its typos put right ("skil dice").
        self.text = " " + " ".join(_best_word(w, w == typing, w not in own) for w in words) + " "


def _best_word(word, typing, correct):
    """The word as typed when the entries use it, else the nearest word they do use."""
    if word in _load().postings:
        return word
    fits = _expand(word, typing, correct)
    return max(fits, key=lambda f: (f[1], -len(f[0])))[0] if fits else word

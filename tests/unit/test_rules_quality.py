"""Rules lookup quality: the graded question set (tests/rules_questions.py) and the "?" links
of every template. bench/search_quality.py prints the same figure question by question."""

import importlib
import re
from pathlib import Path

import pytest

from companion.lookup import search as rules
from rules_questions import QUESTIONS, wanted

TOP3_TARGET = 0.95


def rank(row):
    query, game, _ = row
    found = [(e["game"], e["id"]) for e in rules.search(query, game=game, limit=10)]
    want = wanted(row)
    return found.index(want) + 1 if want in found else None


# ---------------------------------------------------------------- the question set


def test_question_set_covers_the_three_games():
    assert len(QUESTIONS) >= 60
    per_game = {g: sum(1 for row in QUESTIONS if wanted(row)[0] == g) for g in rules.GAMES}
    assert all(n >= 15 for n in per_game.values()), per_game
    assert len({(q, g) for q, g, _ in QUESTIONS}) == len(QUESTIONS), "a question is asked twice"


@pytest.mark.parametrize("row", QUESTIONS, ids=lambda row: f"{row[1]}:{row[0]}")
def test_every_question_names_a_live_entry(row):
    game, entry_id = wanted(row)
    e = rules.get(game, entry_id)
    assert e is not None and e["id"] == entry_id, f"{game}/{entry_id} is not an entry (or only a former id)"


def test_top3_rate_meets_the_target():
    ranks = [rank(row) for row in QUESTIONS]
    misses = [row[:2] for row, r in zip(QUESTIONS, ranks) if not r or r > 3]
    rate = 1 - len(misses) / len(QUESTIONS)
    assert rate >= TOP3_TARGET, f"top-3 rate {rate:.1%} below {TOP3_TARGET:.0%}; missed: {misses}"


# ---------------------------------------------------------------- "?" links in the templates

HELP_CALL = re.compile(r"\bm\.help\(")
HREF = re.compile(r"""href=["'](/rules(?:/[^"'?#]*)?)""")
URL_FOR_ENTRY = re.compile(r"""url_for\(\s*['"]rules\.entry['"][^)]*?entry\s*=\s*['"]([^'"]+)['"]""")
LITERAL = re.compile(r"""^\s*(?:"([^"]*)"|'([^']*)')\s*$""")
CONDITIONAL = re.compile(r"^(?P<then>.+?)\s+if\s+.+?\s+else\s+(?P<else>.+)$", re.S)
EXPRESSION = re.compile(r"\{\{.*?\}\}")
ROUTES_WITHOUT_ENTRY = {"box", "box.json"}  # /rules/box, /rules/box.json: not games


def _game_module_ids(package, name):
    """A constant of a game module (the module or its rules.py, wherever it lives now)."""
    for module in (f"companion.games.{package}.rules", f"companion.games.{package}"):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if found:
            return sorted(set(found.values()))
    pytest.fail(f"{name} not found in companion.games.{package}: update DYNAMIC in this test")


# "?" links whose entry comes from the view: the ids the view can put there.
DYNAMIC = {
    ("danger-zone", "location.id"): lambda: _game_module_ids("danger_zone", "LOCATION_IDS"),
    ("blackmail", "c.rule"): lambda: _game_module_ids("blackmail", "RULE_IDS"),
}


def first_argument(text, start):
    """The first argument of the call whose "(" is at text[start - 1]."""
    depth, i, quote = 0, start, None
    while i < len(text):
        c = text[i]
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                return text[start:i]
            depth -= 1
        elif c == "," and depth == 0:
            return text[start:i]
        i += 1
    raise AssertionError("unclosed m.help(")


def entry_ids(arg):
    """(literal ids, dynamic expressions) of a help argument: "a", or "a" if x else "b"."""
    m = CONDITIONAL.match(arg.strip())
    parts = [m["then"], m["else"]] if m else [arg]
    literal, dynamic = [], []
    for part in parts:
        lit = LITERAL.match(part)
        if lit:
            literal.append(lit.group(1) if lit.group(1) is not None else lit.group(2))
        else:
            dynamic.append(part.strip())
    return literal, dynamic


def template_links(root):
    """[(template, game or None, entry id, where)] for every "?" link and /rules/ href."""
    links = []
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        text = path.read_text(encoding="utf-8")
        parts = rel.split("/")
        game = parts[1] if parts[0] == "games" and len(parts) > 2 else None
        for m in HELP_CALL.finditer(text):
            literal, dynamic = entry_ids(first_argument(text, m.end()))
            for entry_id in literal:
                links.append((rel, game, entry_id, f"m.help({entry_id!r})"))
            for expr in dynamic:
                key = (game, expr)
                assert key in DYNAMIC, f"{rel}: m.help({expr}) has no known ids: add it to DYNAMIC"
                for entry_id in DYNAMIC[key]():
                    links.append((rel, game, entry_id, f"m.help({expr})"))
        for m in HREF.finditer(text):
            segments = m.group(1).split("/")[2:]  # after "", "rules"
            if len(segments) >= 2 and not EXPRESSION.fullmatch(segments[1]):
                target = segments[0]
                links.append((rel, game if EXPRESSION.fullmatch(target) else target, segments[1], m.group(1)))
            elif len(segments) == 1 and segments[0] and not EXPRESSION.fullmatch(segments[0]):
                assert segments[0] in rules.GAMES or segments[0] in ROUTES_WITHOUT_ENTRY, (rel, m.group(1))
        for m in URL_FOR_ENTRY.finditer(text):
            links.append((rel, None, m.group(1), m.group(0)))
    return links


@pytest.fixture
def template_root(app):
    roots = [Path(p) for p in app.jinja_loader.searchpath]
    root = next((r for r in roots if (r / "base.html").exists()), None)
    assert root, f"no base.html under {roots}"
    return root


def test_every_help_link_in_the_templates_resolves(template_root):
    links = template_links(template_root)
    assert len(links) >= 30, "the link scan found too few links: has the help macro changed?"
    broken = []
    for rel, game, entry_id, where in links:
        # game None: a link built with the table's game, so it must work for every game
        for g in [game] if game else rules.GAMES:
            if rules.get(g, entry_id) is None:
                broken.append(f"{rel}: {where} -> /rules/{g}/{entry_id}")
    assert not broken, "rules links with no entry:\n" + "\n".join(broken)


def test_the_link_scan_reads_conditionals_and_views():
    assert entry_ids('"a" if x == "gone" else "b"') == (["a", "b"], [])
    assert entry_ids("c.rule") == ([], ["c.rule"])
    text = 'x {{ m.help("ghost-play", "More") }} y'
    assert first_argument(text, text.index("(") + 1) == '"ghost-play"'


def test_the_tie_break_reads_the_same_on_the_end_screen_and_in_the_lookup():
    from companion.games import assassins
    from companion.lookup import search

    assert assassins.TIE_BREAK_READING in search.get("assassins", "reading-tie-break")["body"]
    assert assassins.TIE_BREAK_READING in search.get("assassins", "game-end")["body"]

"""Rules lookup: the shipped entries and the search over them (companion/lookup/search.py)."""

import importlib
import json
import threading
from pathlib import Path

import pytest

from companion.lookup import search as rules
from helpers import ROOT

DATA = Path(rules.__file__).parent / "data"

# From the rulebooks, written out here so a slip in the data files is caught.
BLACKMAIL_CARDS = {  # number: (title, copies, a nickname)
    8: ("Malory Archer", 1, "Mother"),
    7: ("Lana Kane", 1, "Lana"),
    6: ("Ray Gillette", 1, "Ray"),
    5: ("Pam Poovey", 2, "Pam"),
    4: ("Cheryl/Carol Tunt", 2, "Carol"),
    3: ("Cyril Figgis", 2, "Cyril"),
    2: ("Dr. Krueger", 2, "Krieger"),
    1: ("Sterling Archer", 5, "Sterling"),
}
DZ_CHARACTERS = {  # id: (title, nickname)
    "archer": ("Sterling Archer", "Archer"),
    "lana": ("Lana Kane", "Lana"),
    "malory": ("Malory Archer", "Malory"),
    "cyril": ("Cyril Figgis", "Cyril"),
    "pam": ("Pam Poovey", "Pam"),
    "cheryl": ("Cheryl Tunt", "Cheryl"),
    "krieger": ("Dr. Krieger", "Krieger"),
    "ray": ("Ray Gillette", "Ray"),
}
DZ_LOCATIONS = {
    "malorys-office": "Malory's Office",
    "breakroom": "Breakroom",
    "control-room": "Control Room",
    "bullpen": "Bullpen",
    "reception": "Reception",
    "applied-research": "Applied Research Laboratories",
}
DZ_CHALLENGES = ["challenge-booze", "challenge-guns", "challenge-sex", "challenge-smarts", "personal-challenge"]
DZ_EVENTS = ["embarrassing-pictures", "rona-thorne", "uta", "woodhouse"]
AOA_CARDS = {
    "magician": "Magician",
    "grave-digger": "Grave Digger",
    "soldier": "Soldier",
    "cook": "Cook",
    "sergeant": "Sergeant",
    "chef": "Chef",
    "wizard": "Wizard",
}


def ids(results):
    return [(e["game"], e["id"]) for e in results]


# ---------------------------------------------------------------- the data files


def test_data_files_are_consistent():
    assert rules.check_data() == []


def test_each_file_holds_its_own_game():
    for game in rules.GAMES:
        doc = json.loads((DATA / f"{game}.json").read_text(encoding="utf-8"))
        assert doc["game"] == game
        assert all(e["game"] == game for e in doc["entries"])


@pytest.mark.parametrize("number", sorted(BLACKMAIL_CARDS))
def test_blackmail_card_entries(number):
    title, copies, _ = BLACKMAIL_CARDS[number]
    found = [e for e in rules.entries("blackmail") if e.get("number") == number]
    assert len(found) == 1
    e = found[0]
    assert (e["kind"], e["title"], e["copies"]) == ("card", title, copies)
    assert rules.card("blackmail", number)["id"] == e["id"]
    assert f"{number} {title} ×{copies}" in rules.get("blackmail", "deck")["body"]


def test_blackmail_deck_is_sixteen_cards():
    cards = [e for e in rules.entries("blackmail") if e["kind"] == "card"]
    assert len(cards) == 8
    assert sum(e["copies"] for e in cards) == 16
    assert rules.get("blackmail", "vp-to-win")["table"]["rows"] == [
        {"Players": "2", "Victory Points to win": "6"},
        {"Players": "3", "Victory Points to win": "4"},
        {"Players": "4", "Victory Points to win": "3"},
    ]


def test_danger_zone_components():
    for cid, (title, _) in DZ_CHARACTERS.items():
        e = rules.get("danger-zone", cid)
        assert (e["kind"], e["title"]) == ("card", title)
        if cid != "archer":  # only Archer's dice are in the rulebook
            dice = rules.get("danger-zone", f"{cid}-dice")
            assert dice["kind"] == "missing"
            assert "printed on your component" in dice["body"]
    assert rules.get("danger-zone", "archer")["skills"] == {"booze": 3, "guns": 2, "sex": 2, "smarts": 1}
    # Cheryl: only what the rulebook's examples give (Sex her 3-die skill, Booze 2 dice)
    assert rules.get("danger-zone", "cheryl")["specialty"] == "sex"
    assert rules.get("danger-zone", "cheryl")["skills"] == {"sex": 3, "booze": 2}
    for lid, name in DZ_LOCATIONS.items():
        e = rules.get("danger-zone", lid)
        assert e["title"] == name
        # Malory's Office is the only Location whose ability the rulebook prints
        assert e["kind"] == ("card" if lid == "malorys-office" else "missing")
    for cid in DZ_CHALLENGES + DZ_EVENTS:
        assert rules.get("danger-zone", cid)["kind"] == "card"
    assert rules.get("danger-zone", "event-cards")["kind"] == "missing"
    by_players = rules.get("danger-zone", "locations-by-players")["table"]["rows"]
    assert [r["Locations"] for r in by_players] == ["3", "4", "5"]


def test_assassins_cards_are_printed_on_your_component():
    for cid, name in AOA_CARDS.items():
        e = rules.get("assassins", cid)
        assert (e["kind"], e["title"]) == ("missing", name)
        assert "number" not in e and "copies" not in e  # the rulebook gives neither
        assert "printed on your component" in e["body"]
    assert {rules.get("assassins", c)["replaces"] for c in ("sergeant", "chef", "wizard")} == {
        "soldier",
        "cook",
        "magician",
    }
    assert rules.get("assassins", "deck-list")["kind"] == "missing"
    for cid in ("rows", "points", "ghost", "ghost-play", "extra-cards", "players-table"):
        assert rules.get("assassins", cid) is not None


def test_the_design_readings_are_there():
    expected = {
        "danger-zone": [
            "reading-upper-hand-floor",
            "reading-instant-win",
            "reading-unclaimed-leader",
            "reading-reception-initiative",
            "reading-control-room-leader",
        ],
        "blackmail": [
            "reading-cyril-round",
            "reading-round-end-deck",
            "reading-lana-deal",
            "reading-ray-empty-deck",
            "reading-next-first-player",
        ],
        "assassins": ["reading-tie-break", "reading-all-equal"],
    }
    for game, wanted in expected.items():
        for entry_id in wanted:
            e = rules.get(game, entry_id)
            assert e["kind"] == "reading" and e["label"] == "the app's reading"


@pytest.mark.parametrize("game", rules.GAMES)
def test_quick_reference_fits_one_phone_screen(game):
    e = rules.quickref(game)
    assert e["kind"] == "quickref"
    assert len(e["body"]) <= 800
    assert len(e["body"].splitlines()) <= 16


def test_setup_turn_and_end_for_every_game():
    for game, turn in [("danger-zone", "round"), ("blackmail", "turn"), ("assassins", "round")]:
        for entry_id in ("setup", turn, "game-end", "overview"):
            assert rules.get(game, entry_id), (game, entry_id)


def test_entries_are_copies():
    e = rules.get("blackmail", "lana-kane")
    e["title"] = "changed"
    e["aliases"].append("x")
    assert rules.get("blackmail", "lana-kane")["title"] == "Lana Kane"
    assert "x" not in rules.get("blackmail", "lana-kane")["aliases"]


def test_get_unknown():
    assert rules.get("blackmail", "nope") is None
    assert rules.get("nope", "setup") is None
    assert rules.get(None, None) is None
    assert rules.get("blackmail", 7) is None
    assert rules.entries("nope") == []
    assert rules.card("blackmail", 9) is None
    assert rules.card("blackmail", "x") is None


def test_the_game_modules_agree_with_the_lookup():
    """The game modules hold the rules constants; the lookup must say the same."""
    try:
        blackmail = importlib.import_module("companion.games.blackmail")
        danger_zone = importlib.import_module("companion.games.danger_zone")
    except ImportError:
        pytest.skip("game modules not present")
    for c in getattr(blackmail, "CHARACTERS", ()):
        e = rules.card("blackmail", c["number"])
        assert (e["title"], e["copies"]) == (c["name"], c["copies"])
    for name in getattr(danger_zone, "LOCATIONS", ()):
        assert rules.search(name, "danger-zone")[0]["title"] == name


# ---------------------------------------------------------------- search: finding things


@pytest.mark.parametrize("number", sorted(BLACKMAIL_CARDS))
def test_blackmail_card_by_name_number_and_nickname(number):
    title, _, nickname = BLACKMAIL_CARDS[number]
    want = ("blackmail", rules.card("blackmail", number)["id"])
    assert ids(rules.search(str(number), "blackmail"))[0] == want
    assert ids(rules.search(title, "blackmail"))[0] == want
    assert ids(rules.search(nickname, "blackmail"))[0] == want
    assert want in ids(rules.search(title))  # across all games too


def test_seven_in_blackmail_is_lana():
    assert rules.search("7", "blackmail")[0]["title"] == "Lana Kane"
    assert rules.search("#7", "blackmail")[0]["title"] == "Lana Kane"
    assert rules.search("card 7", "blackmail")[0]["title"] == "Lana Kane"
    assert rules.search("7")[0]["title"] == "Lana Kane"


@pytest.mark.parametrize("cid", sorted(DZ_CHARACTERS))
def test_danger_zone_character_by_name_and_nickname(cid):
    title, nickname = DZ_CHARACTERS[cid]
    assert ids(rules.search(title, "danger-zone"))[0] == ("danger-zone", cid)
    assert ids(rules.search(nickname, "danger-zone"))[0] == ("danger-zone", cid)


def test_character_name_across_games_finds_both_cards():
    found = ids(rules.search("lana"))
    assert ("danger-zone", "lana") in found[:3] and ("blackmail", "lana-kane") in found[:3]


@pytest.mark.parametrize(
    "game,cid,title",
    [
        *[("danger-zone", k, v) for k, v in DZ_LOCATIONS.items()],
        *[("assassins", k, v) for k, v in AOA_CARDS.items()],
        ("danger-zone", "embarrassing-pictures", "Embarrassing Pictures"),
        ("danger-zone", "rona-thorne", "Rona Thorne"),
        ("danger-zone", "woodhouse", "Woodhouse"),
        ("danger-zone", "uta", "Uta"),
        ("danger-zone", "personal-challenge", "Personal Challenge"),
    ],
)
def test_other_cards_by_name(game, cid, title):
    assert ids(rules.search(title, game))[0] == (game, cid)


@pytest.mark.parametrize(
    "query,game,want",
    [
        ("UH", None, ("danger-zone", "upper-hand")),
        ("uh", "danger-zone", ("danger-zone", "upper-hand")),
        ("VP", "blackmail", ("blackmail", "vp-to-win")),
        ("ML", "danger-zone", ("danger-zone", "mission-leader-token")),
        ("prelim", "assassins", ("assassins", "points")),
        ("dead", "assassins", ("assassins", "killed")),
        ("dz setup", None, ("danger-zone", "setup")),
        ("ghost", None, ("assassins", "ghost")),
        ("malory's office", None, ("danger-zone", "malorys-office")),
        ("quick reference", "assassins", ("assassins", "quickref")),
        ("cheat sheet", "blackmail", ("blackmail", "quickref")),
    ],
)
def test_table_words(query, game, want):
    assert ids(rules.search(query, game))[0] == want


def test_prefix_as_you_type():
    for prefix in ("l", "la", "lan"):
        assert ("blackmail", "lana-kane") in ids(rules.search(prefix, "blackmail"))[:3]
    assert ids(rules.search("magici", "assassins"))[0] == ("assassins", "magician")
    assert ids(rules.search("initia", "danger-zone"))[0] == ("danger-zone", "initiative-token")


def test_questions_find_answers():
    assert ("blackmail", "game-end") in ids(rules.search("how many points to win", "blackmail"))[:3]
    assert ("blackmail", "round-end") in ids(rules.search("what happens when the deck is empty", "blackmail"))[:5]
    assert ("danger-zone", "locations-by-players") in ids(rules.search("5p", "danger-zone"))[:2]


def test_game_filter_and_limit():
    assert {e["game"] for e in rules.search("setup", "assassins")} == {"assassins"}
    assert len(rules.search("the", limit=3)) <= 3
    assert len(rules.search("a", limit="junk")) <= 20
    assert len(rules.search("setup", limit=0)) == 1


def test_results_carry_source_and_label():
    e = rules.search("reading-cyril", "blackmail")[0]
    assert e["source"] == "rules"
    miss = rules.search("reception", "danger-zone")[0]
    assert miss["label"] == "printed on your component"


# ---------------------------------------------------------------- search


@pytest.mark.parametrize(
    "query,game,want",
    [
        ("kreiger", "danger-zone", "krieger"),
        ("kruger", "danger-zone", "krieger"),
        ("kreiger", "blackmail", "dr-krueger"),
        ("kruger", "blackmail", "dr-krueger"),
        ("recepton", "danger-zone", "reception"),
        ("magican", "assassins", "magician"),
        ("malroy", "blackmail", "malory-archer"),
        ("grave diger", "assassins", "grave-digger"),
        ("embarassing pictures", "danger-zone", "embarrassing-pictures"),
    ],
)
def test_misspelt_names_find_the_entry(query, game, want):
    assert ids(rules.search(query, game))[0] == (game, want)


def test_an_exact_word_is_never_corrected():
    # "krieger" is a word of the entries: it is searched as typed, and still comes first
    assert ids(rules.search("krieger", "danger-zone"))[0] == ("danger-zone", "krieger")
    assert ids(rules.search("ray", "blackmail"))[0] == ("blackmail", "ray-gillette")
    assert ids(rules.search("cook", "assassins"))[0] == ("assassins", "cook")
    # too short to guess at, or too far from any word: nothing rather than noise
    assert rules.search("krx", "blackmail") == []
    assert rules.search("zorblax") == []


def test_edit_distance_counts_a_swap_once():
    assert rules._distance("kreiger", "krieger", 2) == 1
    assert rules._distance("kruger", "krueger", 2) == 1
    assert rules._distance("abc", "xyz", 1) == 2  # over the limit: limit + 1
    assert rules._distance("magican", "magician", 2) == 1
    assert rules._distance("wizzard", "wizard", 1) == 1


def test_word_forms_share_a_stem():
    from companion.lookup.index import _stem

    for forms in (
        ("protected", "protection", "protecting"),
        ("eliminated", "elimination"),
        ("copies", "copy"),
        ("games", "game"),
        ("scored", "scores", "scoring"),
    ):
        assert len({_stem(w) for w in forms}) == 1, forms
    assert ("blackmail", "cheryl-tunt") in ids(rules.search("protection", "blackmail"))[:3]


def test_stemming_from_many_threads_gives_the_same_stems():
    # one Snowball stemmer object is shared; it keeps state while it works
    from companion.lookup.index import _stem

    words = [
        f"{root}{end}"
        for root in ("protect", "elimin", "shuffl", "guess", "score")
        for end in ("ed", "ing", "ion", "s", "ations", "ingly")
    ]
    expected = [_stem.__wrapped__(w) for w in words]
    seen = []

    def work():
        for _ in range(50):
            seen.append([_stem.__wrapped__(w) for w in words])

    assert run_together(work, 4) == [] and len(seen) == 200 and all(s == expected for s in seen)


@pytest.mark.parametrize(
    "query", ["everyone else is protected", "what if everyone else is protected", "everybody else is protected"]
)
def test_words_only_found_in_running_text_weigh_less(query):
    # "everyone" and "else" name no topic: the entry about protection must not sink below
    # entries that merely use both words somewhere in their text
    top3 = ids(rules.search(query, "blackmail"))[:3]
    assert ("blackmail", "cheryl-tunt") in top3 or ("blackmail", "reading-no-target") in top3


def test_game_title_words_do_not_match_every_entry():
    # "Archer" names cards in both Archer games, so it is a word there, but a card's
    # surname does not make every entry of the game an "Archer" match
    assert ids(rules.search("archer skills", "danger-zone"))[0] == ("danger-zone", "archer")
    assert ids(rules.search("can I guess Archer with Archer", "blackmail"))[0] == ("blackmail", "sterling-archer")
    assert len(rules.search("archer", "danger-zone", limit=100)) < len(rules.entries("danger-zone")) / 2
    # words naming no card pick the game: dropped in its own lookup...
    assert ids(rules.search("blackmail setup", "blackmail"))[0] == ("blackmail", "setup")
    assert ids(rules.search("danger zone", "danger-zone")) == [("danger-zone", "overview"), ("danger-zone", "quickref")]
    # ...and narrowing the all-games box to it
    assert {e["game"] for e in rules.search("assassins tie")} == {"assassins"}


def test_sterling_archer_says_guess():
    assert "guess" in rules.get("blackmail", "sterling-archer")["body"]


def test_numbers_inside_a_question():
    assert ids(rules.search("do I have to play the 8", "blackmail"))[0] == ("blackmail", "malory-archer")
    assert ids(rules.search("what does the 3 do", "blackmail"))[0] == ("blackmail", "cyril-figgis")
    # where no card has a number, a number is just a word
    assert ids(rules.search("7 players", "danger-zone"))[0] == ("danger-zone", "locations-by-players")
    assert ids(rules.search("7 players"))[0] == ("danger-zone", "locations-by-players")


def test_a_rule_named_by_the_query_outranks_a_reading_that_mentions_it():
    assert ids(rules.search("who gets initiative next round", "danger-zone"))[0] == ("danger-zone", "initiative-token")
    assert ids(rules.search("what if I'm the last one left", "blackmail"))[0] == ("blackmail", "round-end")


def test_former_ids_still_find_their_entry():
    assert rules.get("assassins", "card-list")["id"] == "deck-list"
    assert rules.get("blackmail", "reading-discard-no-effect")["id"] == "discard-no-effect"
    assert rules.get("blackmail", "reading-dealt-lana-protected")["id"] == "reading-lana-deal"


# ---------------------------------------------------------------- entries agree with the rulebooks


def bodies(game):
    return {e["id"]: e["body"] for e in rules.entries(game)}


def test_ray_on_an_empty_deck_ends_the_round():
    for entry_id in ("ray-gillette", "reading-ray-empty-deck"):
        body = rules.get("blackmail", entry_id)["body"]
        assert "round is over" in body or "ends the round" in body, entry_id
    for entry_id, body in bodies("blackmail").items():
        assert "carries on" not in body and "continues with no secret" not in body, entry_id
        assert "cannot win" not in body, entry_id  # Krueger after Ray: the round is over


def test_movement_rolls_one_die_per_character_there():
    body = rules.get("danger-zone", "movement")["body"]
    assert "whoever got there first" not in body
    assert "one die for each character already there" in body


def test_assassins_ends_at_15_and_the_most_points_wins():
    body = rules.get("assassins", "overview")["body"]
    assert "15 real points first" not in body
    assert "15 real points or more" in body and "most real points wins" in body
    assert "15 real points or more" in rules.get("assassins", "game-end")["body"]


def test_cheryl_dice_from_the_rulebook_examples():
    for entry_id in ("cheryl", "cheryl-dice"):
        body = rules.get("danger-zone", entry_id)["body"]
        assert "Sex" in body and "Booze at 2" in body, entry_id


def test_discarding_through_pam_or_ray_is_the_rulebook():
    e = rules.get("blackmail", "discard-no-effect")
    assert e["kind"] == "rule" and e["label"] == "rule"
    assert "the app's reading" not in rules.get("blackmail", "malory-archer")["body"]


def test_lana_leaves_protected_players_their_card():
    e = rules.get("blackmail", "reading-lana-deal")
    assert e["kind"] == "reading"
    assert "protected by Cheryl/Carol keeps" in e["body"]
    assert "unprotected players" in e["body"]
    assert "keeps their card" in rules.get("blackmail", "lana-kane")["body"]
    for entry_id, body in bodies("blackmail").items():
        assert "protected or not" not in body, entry_id


# ---------------------------------------------------------------- search: bad input


@pytest.mark.parametrize("query", ["", "   ", "\n\t", None])
def test_empty_query_finds_nothing(query):
    assert rules.search(query) == []


def test_long_query_is_refused_with_a_message():
    assert isinstance(rules.search("x" * rules.MAX_QUERY), list)
    with pytest.raises(rules.QueryError) as err:
        rules.search("x" * (rules.MAX_QUERY + 1))
    assert "200" in str(err.value)
    assert issubclass(rules.QueryError, ValueError)


def test_unknown_game_is_refused_with_a_message():
    with pytest.raises(rules.QueryError):
        rules.search("lana", "monopoly")


@pytest.mark.parametrize(
    "query",
    [
        '"',
        '""',
        "'",
        "*",
        "lana*",
        "*lana",
        "^lana",
        "lana^",
        "title:lana",
        ":",
        "a:b:c",
        "(",
        ")",
        "((lana",
        "lana))",
        "(a OR b",
        "AND",
        "OR",
        "NOT",
        "NEAR",
        "NEAR(a b)",
        "a NEAR/2 b",
        "lana AND",
        "OR lana",
        "NOT NOT",
        "- lana",
        "+lana",
        "{lana}",
        "[x]",
        "\\",
        "\x00",
        "é",
        "\u0301",
        "漢字",
        "🙂",
        'lana "kane',
        "a'b",
        '"lana" * NEAR',
    ],
)
def test_fts_syntax_never_raises(query):
    for game in (None, "blackmail"):
        assert isinstance(rules.search(query, game), list)


def test_fts_words_are_searched_as_words():
    assert ids(rules.search("lana*", "blackmail"))[0] == ("blackmail", "lana-kane")
    assert ids(rules.search('"lana', "blackmail"))[0] == ("blackmail", "lana-kane")
    assert rules.search("* ^ : ( )") == []


def test_fuzzed_queries_never_raise():
    import random

    rnd = random.Random(6)
    alphabet = "abAND OR NOT NEAR\"'*^:()-+{}.#\\\x00\u0301é漢🙂 \t0123456789_"
    for _ in range(2000):
        q = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 60)))
        assert isinstance(rules.search(q, rnd.choice((None,) + rules.GAMES)), list)


def test_search_from_many_threads():
    results = []

    def work():
        for q in ("lana", "uh", "7", "ghost", "setup") * 20:
            results.append(len(rules.search(q)))

    assert run_together(work, 6) == [] and len(results) == 600 and all(results)


# ---------------------------------------------------------------- "from your box"

BOX = [
    {
        "game": "danger-zone",
        "id": "reception",
        "title": "Reception",
        "body": "FIRST PLAYER: take the Initiative Token and one extra Zorblax.",
    },
    {
        "game": "danger-zone",
        "id": "event-katya",
        "title": "Katya",
        "body": "Gain 2 Upper Hand for each Sex Challenge you completed.",
    },
    {"game": "assassins", "id": "deck-list", "title": "", "body": "1 Quuxmancer x3"},
    {"game": "blackmail", "id": "x"},  # malformed: skipped
    "junk",
    {"game": "monopoly", "id": "x", "title": "Zorblax", "body": "Zorblax"},
]


def test_box_text_follows_its_entry():
    found = rules.search("reception", "danger-zone", box=BOX)
    assert [(e["id"], e["source"]) for e in found[:2]] == [("reception", "rules"), ("reception", "box")]
    assert found[1]["label"] == "from your box" and found[1]["kind"] == "box"


def test_box_text_is_searchable():
    found = rules.search("zorblax", box=BOX)
    assert [(e["id"], e["source"]) for e in found] == [("reception", "rules"), ("reception", "box")]
    found = rules.search("quuxman", "assassins", box=BOX)
    assert [(e["id"], e["source"]) for e in found] == [("deck-list", "rules"), ("deck-list", "box")]
    assert found[1]["title"] == "The 28-card deck list"  # untitled box text borrows the entry's
    found = rules.search("katya", box=BOX)
    assert ("event-katya", "box") in [(e["id"], e["source"]) for e in found]


def test_box_text_matches_other_forms_of_a_word():
    # "copy" stems to "copi", which does not start "copy" itself: stems are compared too
    box = [{"game": "assassins", "id": "quux-note", "title": "Quuxmancer", "body": "Three copies in the deck."}]
    for query in ("quuxmancer copy", "quuxmancer copies", "quuxmancer cop"):
        found = rules.search(query, "assassins", box=box)
        assert ("quux-note", "box") in [(e["id"], e["source"]) for e in found], query


def test_words_of_the_box_text_are_not_corrected():
    box = [{"game": "danger-zone", "id": "bullpen", "title": "", "body": "Hold a bold plan."}]
    # "bold" is one letter from "hold", a word of the shipped entries: with the table's
    # text using it, it is searched as typed and finds only that text's entry
    found = rules.search("bold", "danger-zone", box=box)
    assert [(e["id"], e["source"]) for e in found] == [("bullpen", "rules"), ("bullpen", "box")]


def test_box_respects_the_game_filter_and_bad_items():
    assert rules.search("zorblax", "blackmail", box=BOX) == []
    assert rules.search("zorblax", box="not a list") == []
    assert rules.search("lana", "blackmail", box=[None, 3, {}])[0]["id"] == "lana-kane"


def test_data_files_are_not_git_ignored():
    """A `data/` rule in .gitignore would keep these files out of commits and the wheel."""
    import shutil
    import subprocess

    root = ROOT
    if not shutil.which("git") or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = (
        subprocess.run(
            ["git", "check-ignore", "-q", str(DATA / "blackmail.json")], cwd=root, capture_output=True
        ).returncode
        == 0
    )
    assert not ignored, "companion/lookup/data/ is git-ignored: make the rule '/data/'"


def run_together(work, threads):
    """Run work() in that many threads at once; returns what they raised."""
    errors = []

    def guarded():
        try:
            work()
        except Exception as exc:  # pragma: no cover - shown on failure
            errors.append(exc)

    started = [threading.Thread(target=guarded) for _ in range(threads)]
    for thread in started:
        thread.start()
    for thread in started:
        thread.join()
    return errors

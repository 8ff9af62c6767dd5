"""Once You Go Blackmail...: the facts of the game (cards, counts, labels), shared by every mode.

Pure data plus three tiny lookups; every other module of the package reads its constants here."""

from ..base import OWN, RuleError

SLUG = "blackmail"
TITLE = "Archer: Once You Go Blackmail..."
MIN_SEATS, MAX_SEATS = 2, 4
# Table options, starting over, and the host taking over a turn for a phone that is away.
HOST_ONLY = {"tracking", "game.start", "game.reset", "dealt.stand_in"}
# Who may post (and undo) a kind, beyond "any seat": see games.base.
WHO = {"play": OWN, "hand": OWN, "dealt.hand_over": OWN, "dealt.reclaim": OWN}
DRAWN = {"game.start"}  # draws the first player (and, where the app deals, the whole deck)
DEALT_KINDS = ("dealt.play", "dealt.stand_in", "dealt.hand_over", "dealt.reclaim")  # its own kinds
KINDS = ("tracking", "game.start", "game.reset", "round.confirm", "round.score", "play", "hand") + DEALT_KINDS
# Kinds that hold whatever the step (games.base.check_named_step): the table option and
# starting over. Every other kind belongs to the game, round and turn its page showed
# (moves.step_now), and a tap for another is refused.
ANY_STEP = {"tracking", "game.reset"}
# What the tablet in the middle may post for a seat (games.base): the table's own cards,
# recorded as they are played and shown, and the round's result. Never a hand the app dealt.
SHARED = {"round.confirm", "round.score", "play", "hand"}
NOT_SHARED = {"tracking", "game.start", "game.reset"} | set(DEALT_KINDS)

# ---------------------------------------------------------------- rules data

MALORY, LANA, RAY, PAM, CHERYL, CYRIL, KRUEGER, ARCHER = 8, 7, 6, 5, 4, 3, 2, 1

# "target": None (no target), "other" (another player in the round), "any" (you may pick yourself).
# Effects are summaries in our own words.
CHARACTERS = (
    {
        "number": MALORY,
        "name": "Malory Archer",
        "copies": 1,
        "target": None,
        "names": False,
        "effect": "Whoever plays her is out of the round.",
    },
    {
        "number": LANA,
        "name": "Lana Kane",
        "copies": 1,
        "target": None,
        "names": False,
        "effect": "Gather the hands of everyone still in and not protected, plus the secret "
        "character, unseen; mix them and give one back to each of those players. The "
        "spare card is the new secret.",
    },
    {
        "number": RAY,
        "name": "Ray Gillette",
        "copies": 1,
        "target": "any",
        "names": False,
        "effect": "Pick a player (yourself allowed): they drop their card with no effect and take "
        "the secret character; the top card of the deck becomes the secret. With the "
        "deck empty, no secret is left.",
    },
    {
        "number": PAM,
        "name": "Pam Poovey",
        "copies": 2,
        "target": "any",
        "names": False,
        "effect": "Pick a player (yourself allowed): they drop their card with no effect and draw "
        "a fresh one; with the deck empty, they draw the secret character.",
    },
    {
        "number": CHERYL,
        "name": "Cheryl/Carol Tunt",
        "copies": 2,
        "target": None,
        "names": False,
        "effect": "Either no card can touch you until your next turn, or you peek at the secret character.",
    },
    {
        "number": CYRIL,
        "name": "Cyril Figgis",
        "copies": 2,
        "target": "other",
        "names": False,
        "effect": "Pick another player and compare hands in private: the lower card is out of the "
        "round. Equal cards: nothing happens.",
    },
    {
        "number": KRUEGER,
        "name": "Dr. Krueger",
        "copies": 2,
        "target": None,
        "names": True,
        "effect": "Name a character, then peek at the secret character. Named it right? You win the round on the spot.",
    },
    {
        "number": ARCHER,
        "name": "Sterling Archer",
        "copies": 5,
        "target": "other",
        "names": True,
        "effect": "Pick another player, name any character except Sterling Archer, and see their "
        "card. Named it right? They are out of the round.",
    },
)
# What a tile on a phone has room for, and the card's entry id in the rules lookup.
SHORT_NAMES = {
    MALORY: "Malory",
    LANA: "Lana",
    RAY: "Ray",
    PAM: "Pam",
    CHERYL: "Cheryl",
    CYRIL: "Cyril",
    KRUEGER: "Krueger",
    ARCHER: "Archer",
}
RULE_IDS = {
    MALORY: "malory-archer",
    LANA: "lana-kane",
    RAY: "ray-gillette",
    PAM: "pam-poovey",
    CHERYL: "cheryl-tunt",
    CYRIL: "cyril-figgis",
    KRUEGER: "dr-krueger",
    ARCHER: "sterling-archer",
}
BY_NUMBER = {c["number"]: c for c in CHARACTERS}
NUMBERS = tuple(sorted(BY_NUMBER))
DECK_SIZE = sum(c["copies"] for c in CHARACTERS)  # 16
SECRET_CARDS = 1
VP_TO_WIN = {2: 6, 3: 4, 4: 3}

TRACKING_MODES = ("scores", "full", "dealt")
TRACKING_LABELS = {"scores": "Scores only", "full": "Full tracking", "dealt": "The app deals"}
CARD_BY_CARD = ("full", "dealt")  # modes that follow every card played

DEALT = "dealt"  # the mode where the app shuffles and deals
# The host may stand in for a phone only after it had no open page this long (or was handed the turn).
AWAY_SECONDS = 30
STAND_IN_WHY = {"away": "phone away", "handed_over": "handed to the host", "no_phone": "no phone"}

FIRST_PICKS = {
    "table": "chosen by the table",
    "random": "picked at random",
    "last_winner": "won the last round",
    "random_among_winners": "picked at random among the last round's winners",
}
ROUND_ENDS = {
    "deck_out": "the deck ran out; highest card in hand",
    "last_seat": "last player left in the round",
    "secret_guessed": "named the secret character with Dr. Krueger",
    "recorded": "winners recorded by hand",
}
SECRET_LABELS = {
    "on_table": "on the table",
    "taken_by_ray": "taken by Ray; the top card of the deck replaced it",
    "gone": "gone: no secret character this round",
}
SECRET_SHORT = {"on_table": "On the table", "taken_by_ray": "Replaced", "gone": "Gone"}
# Where the app deals there is no card on a table: it holds the secret character itself.
SECRET_SHORT_DEALT = {"on_table": "Held by the app", "taken_by_ray": "Replaced", "gone": "Gone"}
SECRET_LABELS_DEALT = {
    "on_table": "held by the app",
    "taken_by_ray": "taken by Ray; the app set the top card of the deck aside in its place",
    "gone": "gone: no secret character this round",
}
OUT_REASONS = {
    MALORY: "played Malory Archer",
    ARCHER: "named by Sterling Archer",
    CYRIL: "lost a Cyril Figgis duel",
}

READINGS = (
    'Cyril\'s "eliminated from the game" means out of the current round.',
    "A card thrown away through Pam or Ray does nothing: dropping Malory that way does not put anyone out.",
    "The round ends when a turn ends with the draw deck empty.",
    "Lana hands one card back to each player still in the round and not protected by Cheryl/Carol; "
    "the card left over is the new secret character.",
    "After Ray (or Pam) takes the secret character from an empty deck, the round goes on with no "
    "secret, so a Dr. Krueger guess cannot win it.",
    "If several players won the last round, the app picks the next first player among them at random.",
    "Sterling Archer or Cyril with every other player protected or out is played with no effect.",
    "Cheryl/Carol's cover is against every card effect, Lana's reshuffle included: a protected "
    "player keeps their card while the other hands and the secret character are mixed.",
)


def character_name(number):
    return BY_NUMBER[number]["name"]


def card_label(number):
    return f"{character_name(number)} ({number})"


def vp_target(players):
    """Victory Points needed to win with this many players."""
    if players not in VP_TO_WIN:
        raise RuleError(f"This game is for {MIN_SEATS} to {MAX_SEATS} players.")
    return VP_TO_WIN[players]

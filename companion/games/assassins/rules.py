"""Age of Assassins rules data: counts, thresholds, the ghost's rules and the app's readings.

Card names, card numbers and deck checks live in deck.py; CARD_MAX follows its NAME_MAX.
"""

from ..base import HOST, OWN
from . import deck

SLUG = "assassins"
TITLE = "Age of Assassins"
MIN_SEATS, MAX_SEATS = 3, 4
GHOST_AT = 3  # seats at which the imagined fourth player, the ghost, plays
GHOST = "ghost"  # the ghost's id in point and kill events (seat ids are ints)
WIN_AT = 15  # real points that end the game after banking
FRONT_ROW, REAR_ROW = 4, 3
ROWS = {"front": FRONT_ROW, "rear": REAR_ROW}
PICKS = FRONT_ROW + REAR_ROW
PENALTY_CHIPS = 5  # chips in the box
MAX_STEP = 30  # largest single change of preliminary points
CARD_MAX = deck.NAME_MAX
REASONS = ("Card effect", "Correction")
REASON_MAX = 60
HOST_ONLY = set()
# Who may post (and undo) a kind, beyond "any seat": see games.base.
WHO = {"draft.pick": OWN, "draft.unpick": OWN, "tiebreak.seat": HOST}
DRAWN = {"ghost.deal", "ghost.down.deal"}  # only the host may set a deal aside and deal again
# Kinds that hold whatever the step (games.base.check_named_step): penalty chips and the
# tie-break's seat. Every other kind belongs to the draft or the number its page showed.
ANY_STEP = {"penalty", "tiebreak.seat"}
BANK_AFTER = deck.CARD_NUMBERS[-1]  # a round is banked only once its last number is resolved

# One sentence for the end screen, the in-play hint and the rules lookup; {ref} is the reference
# seat's name on a table, "the reference seat" in the lookup.
TIE_BREAK_SENTENCE = (
    "Tie-break (the app's reading): of the players tied for the most real points, "
    "the winner is the one you reach first going anti-clockwise from {ref}, "
    "counting {ref} last."
)
TIE_BREAK_REFERENCE = "The reference seat is the first seat unless the host names another."
TIE_BREAK_READING = TIE_BREAK_SENTENCE.format(ref="the reference seat") + " " + TIE_BREAK_REFERENCE
DOG_READING = "If every seat ends with the same real points, nobody wins: the dog wins."
# The ghost's rules, keyed so a screen can show each one when it matters.
GHOST_RULE = {
    "draft": "The ghost sits out the draft: she is dealt 4 cards face up and 3 face down before the players.",
    "magician_immune": "Three Magicians do nothing to the ghost.",
    "magician_holds": "When the ghost holds three Magicians, their effect kills nobody.",
    "magician_redirect": "If three Magicians would kill the ghost, the player on her right is killed in her place.",
    "grave_digger": "Holding the Grave Digger, the ghost never picks being killed.",
    "real_points": "The ghost never keeps real points: whatever she would gain goes back to the stock.",
}
GHOST_RULES = tuple(GHOST_RULE.values())
EXTRAS_AT_THREE = (
    "Extra cards at three players: the rulebook advises against using them with "
    "three, so think twice before keeping this one in."
)
APP_DEAL_STEPS = (
    "Take the four cards shown here out of the deck and lay them face up at the ghost's place.",
    "Shuffle the rest of the deck.",
    "Give the ghost three cards face down.",
    "Deal seven cards to each player and start the draft.",
)
PHYSICAL_DEAL_STEPS = (
    "Shuffle the whole deck.",
    "Before anyone else, deal the ghost four cards face up, then three face down.",
    "Type the four face-up cards in here.",
    "If three of them are Magicians, gather the cards, shuffle and deal the ghost again.",
    "Deal seven cards to each player and start the draft.",
)

GAME_KINDS = {
    "resolve.step",
    "points",
    "points.real",
    "kill",
    "bank",
    "draft.pick",
    "draft.unpick",
    "penalty",
    "ghost.deal",
    "ghost.record",
    "ghost.down",
    "ghost.down.deal",
    "tiebreak.seat",
}
KINDS = tuple(sorted(GAME_KINDS))
# What the tablet in the middle may post for a seat (games.base): every public score step and
# the ghost's cards after a deal by hand. Never a draft pick (secret until revealed), nor a
# deal the app draws from the deck list, nor the host's tie-break seat.
SHARED = {"resolve.step", "points", "points.real", "kill", "bank", "penalty", "ghost.record", "ghost.down"}
NOT_SHARED = {"draft.pick", "draft.unpick", "ghost.deal", "ghost.down.deal", "tiebreak.seat"}
# Kinds that set the table up rather than play it: seats may still join after them.
SETUP_KINDS = {"tiebreak.seat"}

"""Danger Zone facts from the rulebook: characters, Locations, counts, Events, and the
app's readings where the rulebook is silent. Constants live here once."""

from ..base import OWN

SLUG = "danger-zone"
TITLE = "Archer: The Danger Zone!"
MIN_SEATS, MAX_SEATS = 2, 8

# --- rules data -------------------------------------------------------------------------

CHARACTERS = ("Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl", "Krieger", "Ray")

MALORYS_OFFICE = "Malory's Office"
CONTROL_ROOM = "Control Room"
RECEPTION = "Reception"
LOCATIONS = (MALORYS_OFFICE, "Breakroom", CONTROL_ROOM, "Bullpen", RECEPTION, "Applied Research Laboratories")

# How many of the six Locations are in play, and Challenges drawn per Mission, by players.
LOCATIONS_BY_PLAYERS = {2: 3, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}
CHALLENGES_BY_PLAYERS = {2: 3, 3: 3, 4: 3, 5: 4, 6: 4, 7: 5, 8: 5}

# What the first player at a Location gets, where the rulebook (or its example) says so.
# The other tiles print their own text; the app never invents it.
TOKEN_LOCATIONS = {RECEPTION: "initiative", CONTROL_ROOM: "mission_leader"}
FIRST_PLAYER_TEXT = {
    MALORYS_OFFICE: "Draw an Event card.",
    RECEPTION: "Take the Initiative Token.",
    CONTROL_ROOM: "Take the Mission Leader Token.",
}
SEE_YOUR_TILE = "See your tile."
# The rules-lookup id of each tile; a table's typed tile text is stored under
# "location-<id>" (or the bare id, as the rules lookup's own form keys it).
LOCATION_IDS = {
    MALORYS_OFFICE: "malorys-office",
    "Breakroom": "breakroom",
    CONTROL_ROOM: "control-room",
    "Bullpen": "bullpen",
    RECEPTION: "reception",
    "Applied Research Laboratories": "applied-research",
}

START_UPPER_HAND = 5
WINNING_UPPER_HAND = 20
LOWEST_UPPER_HAND = 0
UPPER_HAND_REASONS = ("Insult", "Challenge", "Event", "Card", "Correction")  # or none at all
QUICK_STEPS = (1, -1, 2, -2)
MAX_STEP = 20  # the largest custom change in one tap; the whole track is 0..20

SETUP = "Setup"
PHASES = ("Movement", "Mission", "Clean-up")

SKILLS = ("Booze", "Guns", "Sex", "Smarts")
PERSONAL = "Personal"  # a wild card: the roller picks one of the four skills
CHALLENGE_TYPES = SKILLS + (PERSONAL,)
MIN_DIFFICULTY, MAX_DIFFICULTY = 6, 14
MIN_REWARD, MAX_REWARD = 1, 4
MIN_SKILL_DICE, MAX_SKILL_DICE = 1, 3
CARD_FACES = (5, 6)  # each 5 or 6 rolled draws a card
SPECIALTY_DICE = 3  # a success outside the 3-die skill draws a card
MAX_COLOR_LENGTH = 16  # Challenge colours are typed: the rulebook names none

INITIATIVE_DICE = 3
# A roll for something the rules give one roll each (form field "for"): the dice for the foes
# at a Location (once per reveal) and a Challenge roll (once per Mission). Other rolls are free.
ROLLS_FOR = ("foes", "challenge")
MAX_FOES = MAX_SEATS - 1  # one die per foe already at the Location
# The rulebook says "roll off" for a Mission Leader tie without saying how; the app uses
# the Initiative roll-off's three dice.
ROLL_OFF_DICE = 3

# Skill dice the rulebook states: Archer's reference card, and Cheryl's two examples (2 dice
# for Booze in the Mission example, Sex as her 3-die skill in the card-draw example).
# Every other number is on the Character Card ("from your box").
RULEBOOK_SKILL_DICE = {
    "Archer": {"Booze": 3, "Guns": 2, "Sex": 2, "Smarts": 1},
    "Cheryl": {"Booze": 2, "Sex": 3},
}

# The two tokens a card may move by hand (the Golden Rule), by the key state uses.
TOKENS = {"initiative": "Initiative Token", "mission_leader": "Mission Leader Token"}

# Events the rulebook clarifies, by event kind.
EVENTS = {
    "event.embarrassing_pictures": "Embarrassing Pictures",
    "event.rona_thorne": "Rona Thorne",
    "event.uta": "Uta",
    "event.woodhouse": "Woodhouse",
}
EMBARRASSING_LOSS_PER_PASS = 1
DIRECTIONS = ("left", "right")  # left is clockwise, the way play goes
RONA_THORNE_GAIN = 2
RONA_THORNE_DRAWER_GAIN = 4
UTA_DRAWER_BONUS = 1
UTA_DICE = 1  # not in the rulebook; a table option ("uta_dice") can change it
MAX_WOODHOUSE_AMOUNT = 10  # the card's amount is typed by the table

# The app's readings where the rulebook is silent, for the rules lookup (our own words).
READINGS = (
    "Upper Hand never goes below 0. A change typed by hand that would go below 0 is refused; "
    "an Event that takes more than a player has takes them to 0.",
    "Reaching 20 Upper Hand ends the game at once. If one change takes several players to "
    "20 or more, the highest wins; an exact tie shares the win.",
    "The first player at Reception takes the Initiative Token straight away, but the "
    "current round's reveal order does not change.",
    "The first player at the Control Room takes the Mission Leader Token straight away.",
    "If the Control Room is in play but nobody holds the Mission Leader Token when the "
    "Mission starts (nobody has entered it yet), the player with the least Upper Hand "
    "leads, as if the Control Room were not in play.",
    "A tie for the Mission Leader is broken by a roll-off with three dice; ties roll again. "
    "A table that rolls real dice records the winner instead.",
    '"First" at a Location follows the reveal order (from the Initiative holder, '
    "clockwise), whatever order the taps arrive in; a token recorded late is slotted in.",
    "Each player rolls against one Challenge per Mission; the host can record a correction.",
    "A token moved by hand (a card said so) stays where it was put at Clean-up.",
    "The Initiative roll-off may be rolled seat by seat: every player rolls three dice, in any "
    "order; once all have rolled, the players tied for the highest roll again, and only they.",
    "Uta: the drawer's +1 counts for finding the lowest roll and for what they lose.",
    "Woodhouse: a player is alone when theirs is the only token recorded at their Location "
    "this round; the table types the card's amount.",
)

# The host's own steps: drawing the Locations, confirming the seating order, rolling off or
# recording the Initiative for everyone at once, and a correction past the one-roll rule.
# Every other step is a seat's (its own roll for the Initiative, a token a card hands it) or
# anyone's, and every event records who did it.
HOST_ONLY = {"locations.draw", "initiative.roll", "initiative.record", "order.confirm", "challenge.correct"}
# Who may post (and undo) a kind, beyond "any seat": see games.base. A token moved by hand
# is the seat's that takes it (a card said so).
WHO = {
    "character.pick": OWN,
    "movement.enter": OWN,
    "challenge.complete": OWN,
    "challenge.fail": OWN,
    "dice.roll": OWN,
    "initiative.seat_roll": OWN,
    "token.move": OWN,
}
# Outcomes the app drew: undoing one would let a player pick which draw counts.
DRAWN = {"locations.draw", "initiative.roll", "initiative.seat_roll", "round.next", "event.uta", "dice.roll"}

KINDS = (
    "character.pick",
    "locations.draw",
    "initiative.roll",
    "initiative.record",
    "initiative.seat_roll",
    "order.confirm",
    "round.next",
    "token.move",
    "challenge.correct",
    "upper_hand.change",
    "movement.enter",
    "challenge.draw",
    "challenge.complete",
    "challenge.fail",
    "dice.roll",
) + tuple(EVENTS)
# Kinds that hold whatever the step (games.base.check_named_step): a fix to Upper Hand, a token
# moved by hand, a character picked late, a Challenge corrected. Every other kind belongs to
# the round and phase its page showed (state.step_now), and a tap for another is refused.
ANY_STEP = {"upper_hand.change", "token.move", "character.pick", "challenge.correct"}
# What the tablet in the middle may post for a seat (games.base): everything a seat does in a
# round (the game hides nothing); the host's own steps stay the host's.
NOT_SHARED = set(HOST_ONLY)
SHARED = set(KINDS) - NOT_SHARED

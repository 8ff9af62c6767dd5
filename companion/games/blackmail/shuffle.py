"""The dealt mode's shuffle and its commitment: a round's randomness, its fingerprint, and the
check anyone can run on the revealed deal. Pure: standard library only."""

import hashlib
import re

from ..base import RuleError
from .rules import CHARACTERS, DECK_SIZE, MAX_SEATS, SECRET_CARDS

SALT_BITS = 128
SHORT_FINGERPRINT = 16  # hex digits shown on the screens, in groups of four
SALT_PATTERN = re.compile(r"[0-9a-f]{32}")
# One line, Python's standard library only: prints the hash of the text the app revealed.
VERIFY_COMMAND = "python3 -c 'import hashlib,sys;print(hashlib.sha256(sys.argv[1].encode()).hexdigest())' '{text}'"

# ---------------------------------------------------------------- the deck and the commitment


def full_deck():
    """The 16 cards by number, from the rules data (copies per character)."""
    return [c["number"] for c in CHARACTERS for _ in range(c["copies"])]


def lana_positions():
    """Hands that can be in Lana's pool (every seat) plus the secret character."""
    return MAX_SEATS + SECRET_CARDS


def new_deal(rng):
    """A round's randomness, drawn from rng (secrets.SystemRandom in the app)."""
    order = full_deck()
    rng.shuffle(order)
    lana = list(range(lana_positions()))
    rng.shuffle(lana)
    return {"order": order, "lana": lana, "salt": f"{rng.getrandbits(SALT_BITS):032x}"}


def check_deal(deal):
    """Refuse a deal that is not a shuffle of the 16 cards (a forged or damaged event)."""
    if not isinstance(deal, dict):
        raise RuleError("This round has no deal.")
    order, lana, salt = deal.get("order"), deal.get("lana"), deal.get("salt")
    if not isinstance(order, list) or sorted(order) != sorted(full_deck()):
        raise RuleError(f"A deal must hold the {DECK_SIZE} cards of the deck exactly.")
    if not isinstance(lana, list) or sorted(lana) != list(range(lana_positions())):
        raise RuleError("A deal's reshuffle order is damaged.")
    if not isinstance(salt, str) or not SALT_PATTERN.fullmatch(salt):
        raise RuleError("A deal's salt is damaged.")


def commit_text(deal):
    """What the fingerprint is the hash of: order|lana|salt, e.g. '1,8,5,...|3,0,4,1,2|9f0c...'."""
    return "|".join((",".join(str(n) for n in deal["order"]), ",".join(str(i) for i in deal["lana"]), deal["salt"]))


def fingerprint(deal):
    return hashlib.sha256(commit_text(deal).encode()).hexdigest()


def short(fingerprint_hex):
    """The first hex digits, grouped to read aloud: '3f2a 9c1b 0e77 d4a2'."""
    head = fingerprint_hex[:SHORT_FINGERPRINT]
    return " ".join(head[i : i + 4] for i in range(0, len(head), 4))


def verify_command(text):
    return VERIFY_COMMAND.format(text=text)


def parse_commit(text):
    """A revealed text back into a deal dict, or a RuleError saying what is wrong with it."""
    parts = str(text or "").strip().split("|")
    if len(parts) != 3:
        raise RuleError("The revealed text has three parts separated by |: order, reshuffle, salt.")
    try:
        order = [int(n) for n in parts[0].split(",")]
        lana = [int(n) for n in parts[1].split(",")]
    except ValueError:
        raise RuleError("The order and the reshuffle are numbers separated by commas.") from None
    deal = {"order": order, "lana": lana, "salt": parts[2]}
    check_deal(deal)
    return deal


def verify(text, shown):
    """Check a revealed text against the fingerprint shown at the deal (full or its short form).

    Returns {"ok", "computed", "problem", "deal"}: ok when the text is a fair deck and its hash
    starts with the digits shown (spaces ignored, at least the short form's length)."""
    computed = hashlib.sha256(str(text or "").strip().encode()).hexdigest()
    digits = re.sub(r"\s+", "", str(shown or "")).lower()
    answer = {"ok": False, "computed": computed, "problem": None, "deal": None}
    try:
        answer["deal"] = parse_commit(text)
    except RuleError as error:
        answer["problem"] = str(error)
        return answer
    if len(digits) < SHORT_FINGERPRINT or not re.fullmatch(r"[0-9a-f]+", digits):
        answer["problem"] = f"Give at least the {SHORT_FINGERPRINT} hex digits shown at the deal."
    elif not computed.startswith(digits):
        answer["problem"] = "The hash of this text does not match the fingerprint shown at the deal."
    else:
        answer["ok"] = True
    return answer

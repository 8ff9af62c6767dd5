"""Seat names: what a person typed, made safe to show beside other names and in exports.

A name is NFC-normalised and trimmed. Characters that hide, reorder or fake text (controls,
format characters such as zero-width spaces, bidi overrides and BOMs, private-use,
surrogates, line and paragraph separators) are refused with a sentence, and so is a name
with nothing visible. Two names are the same name when they look the same: compared after
NFKC, case folding and dropping invisible characters, "Ana\u200b" cannot sit beside "Ana".
"""

import unicodedata

from companion.games.base import RuleError

NAME_MAX = 24
REFUSED = {
    "Cc": "a control character",
    "Cf": "an invisible formatting character",
    "Co": "a private-use character",
    "Cs": "a broken character",
    "Zl": "a line break",
    "Zp": "a paragraph break",
}
# Letters and symbols that draw nothing: blank braille, Hangul fillers.
BLANK = {"\u2800", "\u115f", "\u1160", "\u3164", "\uffa0"}


def _visible(ch):
    return ch not in BLANK and unicodedata.category(ch)[0] not in "ZM"


def clean_name(name, taken=()):
    """The name to store, or RuleError saying what was wrong. `taken`: the other seats' names."""
    name = unicodedata.normalize("NFC", name or "")
    for ch in name:
        why = REFUSED.get(unicodedata.category(ch))
        if why:
            raise RuleError(f"Names cannot hold {why} (U+{ord(ch):04X}). Type just the name.")
    name = " ".join(name.split())
    if not any(_visible(ch) for ch in name):
        raise RuleError("Type a name so the table knows who you are.")
    if len(name) > NAME_MAX:
        raise RuleError(f"Names are at most {NAME_MAX} characters.")
    key = same_name_key(name)
    for other in taken:
        if same_name_key(other) == key:
            raise RuleError(f"“{other}” is already at this table. Pick another name.")
    return name


def same_name_key(name):
    folded = unicodedata.normalize("NFKC", name).casefold()
    return "".join(ch for ch in folded if _visible(ch) or ch == " ").strip()

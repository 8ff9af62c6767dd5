"""A live fragment's regions: every element with an id, compared by hash with what a page was
last sent, and the changed ones as htmx out-of-band morphs.

A region whose own markup (its frame: its html with the regions inside it left as their ids)
is unchanged sends only the regions inside it that changed; otherwise it goes whole.
"""

import re
from typing import NamedTuple

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
_ID = re.compile(r"""\sid=(?:"([^"]*)"|'([^']*)'|([^\s>'"]+))""")
_VERSION = re.compile(r'\sdata-version="\d*"')  # the root's version is the message's id
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# Elements a <template> must hold to be parsed where they stand (htmx swaps from inside one).
TABLE_INSIDE = frozenset(("tr", "td", "th", "tbody", "thead", "tfoot", "caption", "colgroup", "col"))


class Region(NamedTuple):
    html: str
    tag: str
    whole: int  # hash of html
    frame: int  # hash of html with the regions inside it as their ids
    inside: tuple  # ids of the regions directly inside


class Regions(NamedTuple):
    root: str  # the fragment's own id
    found: dict  # id -> Region, the root's included


def split(html):
    """The fragment's regions, or None if it does not start with an element that has an id.
    An end tag closes the latest open element of its name, so an unclosed <p> or <li> costs
    at most its own region; an id used twice is no region (the one around it carries it)."""
    spans, open_by_name = [], {}
    for match in _TAG.finditer(html):
        closing, name, attrs = match.groups()
        name = name.lower()
        if closing:
            stack = open_by_name.get(name)
            if stack:
                start, ident = stack.pop()
                if ident is not None:
                    spans.append((start, match.end(), ident, name))
            continue
        found = _ID.search(attrs) if "id=" in attrs else None
        ident = next(g for g in found.groups() if g is not None) if found else None
        if name in VOID or attrs.endswith("/"):
            if ident is not None:
                spans.append((match.start(), match.end(), ident, name))
        else:
            open_by_name.setdefault(name, []).append((match.start(), ident))
    if not spans:
        return None
    spans.sort(key=lambda s: (s[0], -s[1]))
    counts = {}
    for span in spans:
        counts[span[2]] = counts.get(span[2], 0) + 1
    spans = [s for s in spans if counts[s[2]] == 1]
    if not spans or spans[0][0] != html.find("<"):
        return None
    children = {}
    stack = []  # the regions open at this point, outermost first
    for start, end, ident, _ in spans:
        while stack and stack[-1][1] <= start:
            stack.pop()
        if stack:
            children.setdefault(stack[-1][2], []).append((start, end, ident))
        stack.append((start, end, ident))
    found = {}
    for start, end, ident, tag in spans:
        body = html[start:end]
        parts, at = [], start
        for child_start, child_end, child in children.get(ident, ()):
            parts += (html[at:child_start], "\0", child)
            at = child_end
        parts.append(html[at:end])
        frame = "".join(parts)
        if ident == spans[0][2]:
            frame = _VERSION.sub("", frame, count=1)
        found[ident] = Region(body, tag, hash(body), hash(frame),
                              tuple(c[2] for c in children.get(ident, ())))
    return Regions(spans[0][2], found)


def changed(regions, sent):
    """The regions to send a page that holds `sent` ({id: (whole, frame)} as last sent, or
    None: the page's are unknown, so the root goes whole)."""
    if sent is None:
        return [regions.root]
    out = []

    def visit(ident):
        region = regions.found[ident]
        before = sent.get(ident)
        if before is not None and before[0] == region.whole:
            return
        if before is not None and before[1] == region.frame:
            for inner in region.inside:
                visit(inner)
        else:
            out.append(ident)

    visit(regions.root)
    return out


def hashes(regions):
    """What a page holds once it has these regions, as changed() reads it."""
    return {ident: (r.whole, r.frame) for ident, r in regions.found.items()}


def out_of_band(region):
    """A region as htmx swaps it by its id, morphed in place (idiomorph)."""
    tag = region.tag
    swap = f'<{tag} hx-swap-oob="morph"{region.html[len(tag) + 1:]}'
    return f"<template>{swap}</template>" if tag in TABLE_INSIDE else swap


def message(version, regions, idents):
    """One SSE message: the named regions at this version, with the version as its id."""
    html = "".join(out_of_band(regions.found[ident]) for ident in idents)
    data = "".join(f"data: {line}\n" for line in html.split("\n"))
    return f"id: {version}\nevent: live\n{data}\n"

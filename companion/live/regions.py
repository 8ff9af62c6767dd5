"""A live fragment's regions: every element with an id, compared by hash with what a page was
last sent, and the changed ones as htmx out-of-band swaps. A region whose own markup (its
frame: the regions inside it left as their ids) is unchanged sends only the regions inside
that changed; a list (<li> or <tr> regions in an <ol>, <ul> or <tbody>) whose items came or
went at its ends sends just those; any other region goes whole, morphed by idiomorph."""

import re
from collections import Counter
from typing import NamedTuple

_TAG = re.compile(r"<(/?)([a-zA-Z][a-zA-Z0-9-]*)([^>]*)>")
_ID = re.compile(r"""\sid=(?:"([^"]*)"|'([^']*)'|([^\s>'"]+))""")
_VERSION = re.compile(r'\sdata-version="\d*"')  # the root's version is the message's id
VOID = frozenset("area base br col embed hr img input link meta source track wbr".split())
# A list and its items: white space between the items shows nothing.
LISTS = {"ol": "li", "ul": "li", "tbody": "tr"}
# Elements a <template> must hold to be parsed where they stand (htmx swaps from inside one).
TABLE_INSIDE = frozenset(("tr", "td", "th", "tbody", "thead", "tfoot", "caption", "colgroup", "col"))


class Region(NamedTuple):
    """A region as offsets into a string that holds it (one string for many regions, not a
    copy each): the fragment it was split from, or its own html once met again (Seen)."""

    source: str  # the fragment, or the html of a region met again that holds this one
    start: int
    end: int
    tag: str
    whole: int  # hash of its frame and the wholes of the regions inside
    frame: int  # hash of html with the regions inside it as their ids
    inside: tuple  # ids of the regions directly inside
    shell: int  # hash of the frame without its items, if it is a list (else None)

    @property
    def html(self):
        return self.source[self.start : self.end]

    def moved(self, source, shift):
        """This region as it stands in another string, `shift` characters further on."""
        return tuple.__new__(Region, (source, self[1] + shift, self[2] + shift, *self[3:]))


class Regions(NamedTuple):
    root: str  # the fragment's own id
    found: dict  # id -> Region, the root's included


class Seen:
    """Regions split before, by id: one met again with the same html is not parsed again (most
    of a fragment is the same for every viewer and version). One met again keeps its html as
    a string of its own, so what is kept holds no fragment older than the version before."""

    def __init__(self):
        # id -> [[its regions and those inside it, the version that last met them, its html once
        # met again (None before: its regions are offsets into the fragment it was split from)]]
        self.by_id = {}
        self.version = 0

    def at(self, version):
        """Splits from here on are of `version`."""
        if version > self.version:
            self.by_id = {
                ident: kept
                for ident, known in self.by_id.items()
                if (kept := [entry for entry in known if entry[1] >= self.version])
            }
            self.version = version
        return self

    def find(self, ident, html, at):
        """(its length, the regions of it and inside it) of a region with this id at `at`."""
        for entry in self.by_id.get(ident, ()):
            if entry[2] is None:  # not met again yet: cut out to compare only if a glance says it
                top = entry[0][ident]  # may be the same (most that differ end elsewhere)
                middle = (top.start + top.end) // 2
                if not (
                    html.startswith(f"</{top.tag}>", at + top.end - top.start - len(top.tag) - 3)
                    and html.startswith(top.source[middle : middle + 16], at + middle - top.start)
                    and html.startswith(cut := top.html, at)
                ):
                    continue
                entry[0] = {  # as offsets into its html (one inside from an earlier split keeps its own)
                    inside: region.moved(cut, -top.start) if region.source is top.source else region
                    for inside, region in entry[0].items()
                }
                entry[2] = cut
            elif not html.startswith(entry[2], at):
                continue
            entry[1] = self.version
            return len(entry[2]), entry[0]
        return None

    def add(self, within, new):
        """Keep the regions `new` (ids), each with those inside it (`within`, by id)."""
        for ident in new:  # each was looked for (find) and not met, so none is kept already
            self.by_id.setdefault(ident, []).append([within[ident], self.version, None])


def split(html, seen=None):
    """The fragment's regions, or None if it does not start with an element that has an id.
    An end tag closes the latest open element of its name (an unclosed <p> costs at most its
    own region); an id used twice is no region; one in `seen` (a Seen) is not parsed again."""
    spans, open_by_name, kept, empty = [], {}, {}, set()
    at = 0
    while (match := _TAG.search(html, at)) is not None:
        at = match.end()
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
        ident = found.group(found.lastindex) if found else None
        if name in VOID or attrs.endswith("/"):
            if ident is not None:
                spans.append((match.start(), match.end(), ident, name))
                empty.add(ident)  # never looked for in seen: its html is its start tag
        elif ident is not None and seen is not None and (hit := seen.find(ident, html, match.start())):
            length, known = hit
            at = match.start() + length
            spans.append((match.start(), at, ident, name))
            kept[ident] = known
        else:
            open_by_name.setdefault(name, []).append((match.start(), ident))
    spans.sort(key=lambda s: (s[0], -s[1]))
    counts = Counter(span[2] for span in spans)  # a kept region itself is among the spans:
    counts.update(ident for top, within in kept.items() for ident in within if ident != top)
    if any(counts[ident] > 1 for within in kept.values() for ident in within):
        return split(html)  # an id twice, one of them in a kept region: parse it all
    spans = [s for s in spans if counts[s[2]] == 1]
    if not spans or spans[0][0] != html.find("<"):
        return None
    children, stack = {}, []  # stack: the regions open at this point, outermost first
    for start, end, ident, _ in spans:
        while stack and stack[-1][1] <= start:
            stack.pop()
        if stack:
            children.setdefault(stack[-1][2], []).append((start, end, ident))
        stack.append((start, end, ident))
    tags = {span[2]: span[3] for span in spans}
    found, new, within = {}, [], dict(kept)  # within: a region's id -> it and the regions inside it
    for start, end, ident, tag in reversed(spans):  # the regions inside first
        if ident in kept:
            found.update(kept[ident])
            continue
        parts, gaps, at = [], [], start
        for child_start, child_end, child in children.get(ident, ()):
            parts += (html[at:child_start], "\0", child)
            gaps.append(html[at:child_start])
            at = child_end
        parts.append(html[at:end])
        # Runs of white space show as one (outside <pre>, which no live region holds): a
        # template's indenting is no change.
        frame = " ".join("".join(parts).split())
        if ident == spans[0][2]:
            frame = _VERSION.sub("", frame, count=1)
        inside = tuple(c[2] for c in children.get(ident, ()))
        listed = inside and all(tags[c] == LISTS.get(tag) for c in inside) and not any(g.strip() for g in gaps[1:])
        shell = hash((" ".join(gaps[0].split()), " ".join(parts[-1].split()))) if listed else None
        whole = hash((frame, *(found[c].whole for c in inside)))
        found[ident] = Region(html, start, end, tag, whole, hash(frame), inside, shell)
        if seen is not None and ident != spans[0][2]:
            within[ident] = {ident: found[ident]}
            for child in inside:
                within[ident].update(within[child])
            new.append(ident)
    if seen is not None:  # not the root, which carries the version (never met again), nor an empty element
        seen.add(within, [ident for ident in new if ident not in empty])
    return Regions(spans[0][2], found)


def changed(regions, sent):
    """The swaps for a page that holds `sent` (the regions of its last split, by id; None:
    unknown, the root goes whole): (swap, id, ids) with swap "morph", "delete" (ids: the list it leaves)
    or "afterbegin"/"beforeend" (ids: the items put into list id)."""
    if sent is None:
        return [("morph", regions.root, ())]
    out = []

    def visit(ident):
        region, before = regions.found[ident], sent.get(ident)
        if before is None:
            inner = None
        elif before.whole == region.whole:
            return
        elif before.frame == region.frame:
            inner = region.inside
        else:
            inner = _list_change(region, before, ident, out)
        if inner is None:
            out.append(("morph", ident, ()))
        for child in inner or ():
            visit(child)

    visit(regions.root)
    # An item that moved from one list to another is deleted by its id before it is put in
    # the other (the other way round, the delete would find the new one).
    return sorted(out, key=lambda swap: swap[0] != "delete")


def shown(regions):
    """What a split says, whatever string each region's html is held in: two splits of one
    fragment, with and without Seen, show the same."""
    return regions.root, {ident: (r.html, *r[3:]) for ident, r in regions.found.items()}


def _list_change(region, before, ident, out):
    """The items kept if a list only gained items at its ends and lost some (their swaps go on
    `out`); else None, and the list goes whole."""
    if before.shell is None or before.shell != region.shell:
        return None
    was, now = before.inside, region.inside
    had, has = set(was), set(now)
    kept = [i for i in now if i in had]
    if kept != [i for i in was if i in has]:
        return None
    first = now.index(kept[0]) if kept else len(now)
    last = now.index(kept[-1]) + 1 if kept else len(now)
    if now[first:last] != tuple(kept):
        return None  # an item came between kept ones
    out.extend(("delete", gone, (ident,)) for gone in was if gone not in has)
    out.extend((swap, ident, new) for swap, new in (("afterbegin", now[:first]), ("beforeend", now[last:])) if new)
    return kept


def out_of_band(regions, swap, ident, items=()):
    """A swap as htmx reads it out of band."""
    if swap == "delete":  # an item gone from the list named in items
        tag = LISTS[regions.found[items[0]].tag]
        html = f'<{tag} id="{ident}" hx-swap-oob="delete"></{tag}>'
    elif swap == "morph":
        tag = regions.found[ident].tag
        html = f'<{tag} hx-swap-oob="morph"{regions.found[ident].html[len(tag) + 1 :]}'
    else:
        tag = regions.found[ident].tag
        inner = "".join(regions.found[item].html for item in items)
        html = f'<{tag} hx-swap-oob="{swap}:#{ident}">{inner}</{tag}>'
    return f"<template>{html}</template>" if tag in TABLE_INSIDE else html


def message(version, regions, swaps):
    """One SSE message: the swaps at this version, with the version as its id."""
    html = "".join(out_of_band(regions, *swap) for swap in swaps)
    data = "".join(f"data: {line}\n" for line in html.split("\n"))
    return f"id: {version}\nevent: live\n{data}\n"

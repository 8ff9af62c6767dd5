"""A page's html as a stream's messages leave it, for the pieces tests (issue 37): each swap
done as static/app.js does it, on the html text, so a test can compare the result with a
fresh render."""

import re

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TAG = re.compile(r"""<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.S)


def element_at(html, start):
    """The end of the element whose start tag begins at `start` (its tags balanced)."""
    depth = 0
    for tag in TAG.finditer(html, start):
        if tag.group(2) is None:
            continue  # a comment
        name = tag.group(2).lower()
        if name in VOID or tag.group(3).rstrip().endswith("/"):
            if depth == 0:
                return tag.end()
        elif tag.group(1):
            depth -= 1
            if depth == 0:
                return tag.end()
        else:
            depth += 1
    raise AssertionError(f"no end to the element at {start}: {html[start:start + 200]!r}")


def span_of(html, ident):
    """Where the element with this id (its first attribute) starts and ends in `html`."""
    found = [m.start() for m in re.finditer(r'<[a-zA-Z][\w:-]* id="%s"' % re.escape(ident), html)]
    assert len(found) == 1, f"{ident}: {len(found)} elements"
    return found[0], element_at(html, found[0])


RUN = re.compile(r'<template data-s="([\w-]+)"></template>')
COPY = re.compile(r'<template id="s-([\w-]+)">(.*?)</template>', re.S)


def runs_of(page):
    """The runs a whole page holds once (companion/shared_runs.py): {name: html}."""
    return dict(COPY.findall(page))


def apply(page, message, outside=(), runs=None):
    """The page (html) with one stream message's swaps done: a morph (into the element with
    the id, or the one it names after `:#`), a list's lines put in after its top line, a line
    replaced or deleted, an element's tag alone replaced. Swaps whose target id starts with
    one of `outside` are for parts the html does not hold, and are left out. A run the message
    names takes the page's copy from `runs` (runs_of the whole page)."""
    assert message.startswith("id: ")
    data = "\n".join(line[6:] for line in message.split("\n") if line.startswith("data: "))
    data = RUN.sub(lambda run: (runs or {})[run[1]], data)
    for swap in re.finditer(r'<[a-zA-Z][\w:-]*(?: id="([^"]*)")? hx-swap-oob="([^"]*)"', data):
        ident, how = swap.groups()
        target = how.partition(":#")[2] or ident
        if outside and target.startswith(outside):
            continue
        element = data[swap.start():element_at(data, swap.start())]
        element = re.sub(r' hx-swap-oob="[^"]*"', "", element, count=1)
        if how == "attrs":  # its own tag alone changed: the tag goes in, its inside stays
            start, end = span_of(page, ident)
            page = page[:start] + element[:element.index(">") + 1] + page[page.index(">", start) + 1:]
            continue
        if how.startswith("afterend:#"):
            inner = element[element.index(">") + 1:element.rindex("</")]
            at = span_of(page, target)[1]
            page = page[:at] + inner + page[at:]
            continue
        start, end = span_of(page, target)
        page = page[:start] + ("" if how == "delete" else element) + page[end:]
    return page

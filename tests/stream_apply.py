"""A page's live stream as a phone's browser gets it: asked for with gzip, decompressed, and
each message's regions put into the page's html by id, as htmx's out-of-band morph does."""

import re
import zlib

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"}
TAG = re.compile(r"""<!--.*?-->|<(/?)([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>""", re.S)
GZIP = {"Accept-Encoding": "gzip, deflate"}


class Decoder:
    """One stream's gzip, read chunk by chunk as the browser reads it."""

    def __init__(self):
        self.inflate = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self.wire = 0

    def __call__(self, chunk):
        self.wire += len(chunk)
        return self.inflate.decompress(chunk).decode()


def opening(client, path, messages=2):
    """The first messages of a stream at `path` (retry, then the whole fragment of a page
    behind), asked for with gzip as a browser asks, and decompressed."""
    response = client.get(path, headers=GZIP, buffered=False)
    assert response.headers.get("Content-Encoding") == "gzip"
    decode, chunks = Decoder(), iter(response.response)
    try:
        return "".join(decode(next(chunks)) for _ in range(messages))
    finally:
        response.close()


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
    """Where the element with this id starts and ends in `html`."""
    found = [m.start() for m in re.finditer(r'<[a-zA-Z][\w:-]*\s[^>]*?\bid="%s"' % re.escape(ident), html)]
    assert len(found) == 1, f"{ident}: {len(found)} elements"
    return found[0], element_at(html, found[0])


def data_of(message):
    """A message's html: its data lines joined."""
    return "\n".join(line[6:] for line in message.split("\n") if line.startswith("data: "))


def apply(page, message):
    """The page's html after a message, swapped as htmx does out of band: a region morphed in
    by its id, deleted, or a list's new items put at its start or end."""
    html = re.sub(r"</?template>", "", data_of(message))
    at = 0
    while (found := re.search(r'<([a-zA-Z][\w-]*)( id="([^"]*)")? hx-swap-oob="([^"]*)"', html[at:])) is not None:
        start = at + found.start()
        end = element_at(html, start)
        swap = found.group(4)
        element = html[start:end].replace(f' hx-swap-oob="{swap}"', "", 1)
        if swap == "morph":
            where = span_of(page, re.search(r'\bid="([^"]*)"', element).group(1))
            page = page[:where[0]] + element + page[where[1]:]
        elif swap == "delete":
            where = span_of(page, found.group(3))
            page = page[:where[0]] + page[where[1]:]
        else:
            how, ident = swap.split(":#")
            inner = element[element.index(">") + 1:element.rindex("<")]
            where = span_of(page, ident)
            if how == "afterbegin":
                cut = page.index(">", where[0]) + 1
            else:
                assert how == "beforeend", swap
                cut = page.rindex("<", where[0], where[1])
            page = page[:cut] + inner + page[cut:]
        at = end
    return page

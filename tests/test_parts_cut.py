"""A viewer's copy of a shared part (parts.swap_seat, parts.keep_undo) is cut from the part
split once, and reads exactly as the part with each mark's body picked one by one."""

from markupsafe import Markup

from companion import parts


def rows(*ids):
    return parts._Part("<ul>" + "".join(f"<!--s{i}--><li>seat {i}</li><!--/s-->\n" for i in ids) + "</ul>")


def picked(html, opening, closing, pick):
    """The plain reading: every mark's body replaced by pick(ID, body), marks dropped."""
    head, *marked = str(html).split(opening)
    out = [head]
    for piece in marked:
        ident, _, rest = piece.partition("-->")
        body, _, after = rest.partition(closing)
        out += [pick(int(ident), body), after]
    return "".join(out)


def test_a_seat_taken_out_or_swapped_reads_as_picked_one_by_one():
    for part in (rows(1, 2, 3, 4), rows(3), rows(), rows(2, 5, 2)):  # the last marks seat 2 twice
        for seat in (None, 1, 2, 3, 4, 5, 9):
            for own in ("", Markup("<li>me &amp; mine</li>")):
                got = parts.swap_seat(part, seat, own)
                assert isinstance(got, Markup)
                assert str(got) == picked(part, "<!--s", "<!--/s-->", lambda i, body: own if i == seat else body)
                assert str(parts.swap_seat(part, seat, own)) == str(got)  # again, from the kept split


def test_a_plain_string_is_cut_alike():
    html = "<ul><!--s7--><li>7</li><!--/s--><!--s8--><li>8</li><!--/s--></ul>"
    assert str(parts.swap_seat(html, 8)) == "<ul><li>7</li></ul>"


def test_undo_buttons_are_kept_per_set_of_them_and_shared_by_viewers_with_the_same():
    log = [{"id": n, "undone": n == 3, "undo_right": right} for n, right in
           ((1, 1), (2, "any"), (3, "any"), (4, 2), (5, None))]
    html = parts._Part("".join(f'<li id="l{e["id"]}"><!--u{e["id"]}--><b>undo {e["id"]}</b><!--/u--></li>'
                               for e in log))
    seat1, other1, seat2 = {"role": "seat", "seat": 1}, {"role": "seat", "seat": 1}, {"role": "seat", "seat": 2}
    host = {"role": "host", "seat": None}
    first = parts.keep_undo(html, log, seat1)
    assert "undo 1" in first and "undo 2" in first and "undo 3" not in first and "undo 4" not in first
    assert parts.keep_undo(html, log, other1) is first  # the same buttons: the same copy
    assert "undo 4" in parts.keep_undo(html, log, seat2) and "undo 1" not in parts.keep_undo(html, log, seat2)
    assert "undo 5" not in parts.keep_undo(html, log, host) and "undo 1" in parts.keep_undo(html, log, host)
    assert "undo" not in parts.keep_undo(html, log, None)

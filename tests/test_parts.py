"""Render once per viewer kind (issue 19): the public parts of a phone's fragment are rendered
once per table version and shared, and sharing never changes what any screen shows."""

import re

import pytest

from companion import parts
from conftest import HX


def fragment(phone, page):
    return phone.client.get(f"/t/{phone.code}/live?page={page}", headers=HX).get_data(as_text=True)


@pytest.fixture
def table(host, join):
    host.start("generic")
    phones = [join(host, name) for name in ("Ana", "Bo", "Cy", "Di")]
    return host, phones


def test_sharing_changes_nothing_any_screen_shows(table, client, monkeypatch):
    """Each viewer's fragment from warm shared parts equals the one rendered from nothing."""
    host, phones = table
    viewers = [(host, "host"), (client_phone(client, host), "screen")] + [(p, "player") for p in phones]
    for n, tapper in enumerate(phones * 2):
        tapper.act("score", seat=phones[(n + 1) % len(phones)].seat, delta=n % 5 + 1)
        if n == 3:
            phones[0].post(f"/undo/{phones[0].state()['log'][-1]['id']}")
        warm = [fragment(v, page) for v, page in viewers]
        parts.clear()
        cold = [fragment(v, page) for v, page in reversed(viewers)][::-1]
        assert warm == cold


def test_sharing_changes_nothing_on_a_danger_zone_table(host, join, client):
    host.start("danger-zone")
    ana, bo, cy = join(host, "Ana"), join(host, "Bo"), join(host, "Cy")
    viewers = [(host, "host"), (client_phone(client, host), "screen"), (ana, "player"), (bo, "player"), (cy, "player")]
    taps = [(host, "locations.draw", {}), (ana, "character.pick", {"seat": ana.seat, "character": "Lana"}),
            (bo, "character.pick", {"seat": bo.seat, "character": "Pam"}),
            (cy, "character.pick", {"seat": cy.seat, "character": "Ray"}), (host, "initiative.roll", {})]
    for phone, kind, form in taps:
        assert phone.act(kind, **form).status_code == 200, kind
        warm = [fragment(v, page) for v, page in viewers]
        parts.clear()
        assert warm == [fragment(v, page) for v, page in viewers], kind
    assert "Pam" in fragment(ana, "player") and "Lana" in fragment(bo, "player")


def test_sharing_changes_nothing_on_an_assassins_table(host, join, client):
    host.start("assassins")
    ana, bo, cy = join(host, "Ana"), join(host, "Bo"), join(host, "Cy")
    viewers = [(host, "host"), (client_phone(client, host), "screen"), (ana, "player"), (bo, "player"), (cy, "player")]
    taps = [(ana, "draft.pick", {"seat": ana.seat, "row": "rear", "card": "Quokka Rear"}),
            (bo, "draft.pick", {"seat": bo.seat, "row": "front", "card": ""}),
            (cy, "draft.pick", {"seat": cy.seat, "row": "front", "card": ""}),
            (ana, "points", {"seat": bo.seat, "delta": 3, "reason": "Cook"}),
            (cy, "penalty", {"seat": ana.seat, "delta": 1})]
    for phone, kind, form in taps:
        assert phone.act(kind, **form).status_code == 200, kind
        warm = [fragment(v, page) for v, page in viewers]
        parts.clear()
        assert warm == [fragment(v, page) for v, page in viewers], kind
        assert "Quokka Rear" not in "".join(warm[:2] + warm[3:])      # Ana's rear row stays hers
    assert "Kill Bo" in fragment(ana, "player")


def client_phone(client, host):
    """The table screen: no cookie, the same client any visitor has."""
    class Screen:
        code = host.code
    screen = Screen()
    screen.client = client
    return screen


SHARED = ("games/generic/_seats.html", "games/generic/_seat_row.html", "tables/_log.html")


def test_eight_phones_render_each_shared_part_once_per_version(host, join, monkeypatch):
    host.start("generic")
    phones = [join(host, f"P{n}") for n in range(8)]
    phones[0].act("score", seat=phones[1].seat, delta=2)
    rendered = []
    real = parts.render
    monkeypatch.setattr(parts, "render", lambda template, context: rendered.append(template) or real(template, context))
    parts.clear()
    bodies = [fragment(p, "player") for p in phones]
    # Eight phones, each showing seven others twice (line + "fix" row): two parts holding every
    # seat, rendered once (each phone takes its own seat out), so 16 rows, not 112; the log
    # once (each phone's own Undo buttons are picked out of it).
    assert [rendered.count(t) for t in SHARED] == [2, 16, 1]
    for phone, body in zip(phones, bodies):
        own = re.search(r'<section id="me" class="me[^"]*" aria-label="You" data-seat="(\d+)"', body)
        assert own and int(own.group(1)) == phone.seat             # its own seat, rendered for it
        assert body.count('data-seat="%d"' % phone.seat) == 1      # and not again among the others
        assert "P1" in body and "+2" in body
    rendered.clear()
    phones[2].act("score", seat=phones[3].seat, delta=-1)            # a new version: new parts
    for phone in phones:
        fragment(phone, "player")
    # in the tap's own answer, with only the rows that changed: P3's line and "fix" row, P1's
    # line (its +2 is no longer the last change), and the new log line
    assert [rendered.count(t) for t in SHARED] == [2, 3, 1] and rendered.count("tables/_log_line.html") == 1


def test_fragments_carry_no_form_token_the_page_header_does(table):
    host, (ana, bo, *_) = table
    page = ana.page().get_data(as_text=True)
    assert f'name="csrf" value="{ana.csrf}"' in page             # a phone without script posts plain forms
    body = fragment(ana, "player")
    assert 'name="csrf"' not in body and ana.csrf not in body
    sent = ana.client.post(f"/t/{ana.code}/act/score", data={"seat": bo.seat, "delta": 1},
                           headers={**HX, "X-CSRF-Token": ana.csrf})
    assert sent.status_code == 200 and 'name="csrf"' not in sent.get_data(as_text=True)
    forged = ana.client.post(f"/t/{ana.code}/act/score", data={"seat": bo.seat, "delta": 1}, headers=HX)
    assert forged.status_code == 403
    scores = {s["name"]: s["score"] for s in bo.state()["state"]["seats"]}
    assert scores["Bo"] == 1
    # Rows kept from the fragments (parts.row, no token) never stand in on a whole page.
    page = ana.page().get_data(as_text=True)
    forms = len(re.findall(r'<form (?:id="[^"]*" )?method="?post', page))  # forms.py's, the log's
    assert forms == page.count(f'name="csrf" value="{ana.csrf}"') > 8


def test_undo_buttons_follow_each_viewer_though_the_log_is_shared(host, join, client):
    host.start("danger-zone")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    assert host.act("locations.draw").status_code == 200                     # host-only to undo
    assert ana.act("character.pick", seat=ana.seat, character="Lana").status_code == 200  # Ana's own
    draw, pick = (e["id"] for e in host.state()["log"][-2:])
    undo = re.compile(r'/undo/(\d+)"')
    seen = {name: {int(n) for n in undo.findall(body)} for name, body in (
        ("bo", fragment(bo, "player")), ("ana", fragment(ana, "player")),
        ("host", fragment(host, "host")),
        ("screen", client.get(f"/t/{host.code}/live?page=screen", headers=HX).get_data(as_text=True)))}
    assert {draw, pick} <= seen["host"]
    assert pick in seen["ana"] and draw not in seen["ana"]
    assert not seen["bo"] & {draw, pick} and not seen["screen"]

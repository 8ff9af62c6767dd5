"""Every route of the table foundation, with its bad inputs and its access rules."""

import csv
import io
import json
import re

import pytest

from companion.web import routes as table_routes
from helpers import HX


def test_home_offers_every_game(client):
    html = client.get("/").get_data(as_text=True)
    for slug in ("danger-zone", "blackmail", "assassins"):
        assert f'value="{slug}"' in html


def test_unknown_game_is_a_clear_400(client):
    response = client.post("/tables", data={"game": "monopoly"})
    assert response.status_code == 400
    assert "Pick one of the three games" in response.get_data(as_text=True)


def test_host_page_shows_qr_code_and_url(host):
    host.start("generic")
    html = host.page("/host").get_data(as_text=True)
    assert "<svg" in html and 'class="qr-code"' in html
    assert host.code in html and f"http://localhost/t/{host.code}" in html


def test_join_seats_a_phone_and_reload_keeps_it(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    assert ana.page().status_code == 200
    assert ana.client.get(f"/t/{host.code}").status_code == 302  # already seated: straight back
    assert ana.state()["viewer"] == {"role": "seat", "seat": ana.seat}


def test_codes_are_case_insensitive_and_unknown_codes_are_friendly_404(host, client):
    host.start("generic")
    assert client.get(f"/t/{host.code.lower()}").status_code == 302
    response = client.get("/t/NOPE999")
    assert response.status_code == 404
    assert "No table has that code" in response.get_data(as_text=True)
    assert 'name="code"' in response.get_data(as_text=True)


@pytest.mark.parametrize(
    "name,message",
    [("", "Type a name"), ("   ", "Type a name"), ("x" * 25, "at most 24"), ("ana", "already at this table")],
)
def test_bad_names_are_refused_with_a_message(host, join, client, name, message):
    host.start("generic")
    join(host, "Ana")
    response = client.post(f"/t/{host.code}/join", data={"name": name})
    assert response.status_code == 400
    assert message in response.get_data(as_text=True)
    assert len(host.state()["state"]["seats"]) == 1


def test_names_are_escaped(host, join):
    host.start("generic")
    join(host, "<b>x</b>")
    html = host.page("/host").get_data(as_text=True)
    assert "<b>x</b>" not in html and "&lt;b&gt;x&lt;/b&gt;" in html


def test_score_change_shows_in_state_and_log(host, join):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    response = ana.act("score", seat=bo.seat, delta=2, reason="Insult")
    assert response.status_code == 200
    assert 'class="delta">+2<' in response.get_data(as_text=True)
    state = host.state()
    assert {s["name"]: s["score"] for s in state["state"]["seats"]} == {"Ana": 0, "Bo": 2}
    assert state["log"][-1]["who"] == "Ana" and state["log"][-1]["text"] == "+2 Bo, insult"


@pytest.mark.parametrize("delta", ["", "abc", "1.5", "100000", "-100000", "0", "1e3"])
def test_bad_amounts_are_refused_in_the_page(host, join, delta):
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.act("score", seat=ana.seat, delta=delta)
    assert response.status_code == 422
    assert 'class="error"' in response.get_data(as_text=True)
    assert host.state()["state"]["seats"][0]["score"] == 0


def test_plain_form_error_is_a_page_not_a_500(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.post("/act/score", {"seat": ana.seat, "delta": "x"}, htmx=False)
    text = response.get_data(as_text=True)
    assert response.status_code == 422 and "whole number" in text and "<html" in text


def test_plain_form_change_redirects_to_the_whole_page(host, join):
    """Without JavaScript a tap is an ordinary form post: answer it with the page, not a fragment."""
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.post("/act/score", {"seat": ana.seat, "delta": "2"}, htmx=False)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/t/{host.code}/me")
    page = ana.page().get_data(as_text=True)
    assert "<html" in page and ana.state()["state"]["seats"][0]["score"] == 2


def test_oversized_body_is_refused(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.post("/act/score", {"seat": ana.seat, "delta": "1", "reason": "x" * 100_000})
    assert response.status_code == 413


def test_undo_any_entry_from_any_screen(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    ana.act("score", seat=ana.seat, delta=3)
    ana.act("score", seat=ana.seat, delta=1)
    first = host.state()["log"][-2]["id"]
    assert host.post(f"/undo/{first}", {"page": "host"}).status_code == 200
    assert host.state()["state"]["seats"][0]["score"] == 1
    assert host.post("/undo/99999").status_code == 422


def test_double_submit_with_same_action_id_applies_once(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    for _ in range(3):
        ana.post("/act/score", {"seat": ana.seat, "delta": "1", "action_id": "same-tap"})
    assert host.state()["state"]["seats"][0]["score"] == 1


def test_host_manages_seats(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    assert host.post("/seats", {"name": "Granny"}).status_code == 200
    granny = host.state()["state"]["seats"][1]["id"]
    host.post(f"/seats/{granny}/left")
    host.post(f"/seats/{granny}/rename", {"name": "Gran"})
    assert [s["name"] for s in host.state()["state"]["seats"]] == ["Gran", "Ana"]
    host.post(f"/seats/{ana.seat}/remove")
    assert [s["name"] for s in host.state()["state"]["seats"]] == ["Gran"]
    # the removed phone is a stranger now, and is told so (the host may still undo it)
    assert ana.client.get(f"/t/{host.code}/state.json").status_code == 403
    assert "You were removed" in ana.client.get(f"/t/{host.code}/me").get_data(as_text=True)


def test_host_actions_refuse_player_tokens(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    for path in ("/seats", f"/seats/{ana.seat}/remove", f"/seats/{ana.seat}/rename"):
        response = ana.post(path, {"name": "X"})
        assert response.status_code == 403
        assert "Only the host" in response.get_data(as_text=True)
    assert ana.client.get(f"/t/{host.code}/host").status_code == 403
    assert ana.client.get(f"/t/{host.code}/export.json").status_code == 403


def test_host_can_take_a_seat(host):
    host.start("generic")
    host.client.post(f"/t/{host.code}/join", data={"name": "Hostess"})
    state = host.state()
    assert state["viewer"]["role"] == "host" and state["viewer"]["seat"] is not None
    assert state["state"]["seats"][0]["name"] == "Hostess"


def test_strangers_cannot_read_or_change_a_table(host, join, client):
    host.start("generic")
    ana = join(host, "Ana")
    assert client.get(f"/t/{host.code}/state.json").status_code == 403
    assert client.post(f"/t/{host.code}/act/score", data={"seat": ana.seat, "delta": 1}).status_code == 403


def test_cross_table_tokens_are_useless(app, host, join):
    host.start("generic")
    ana = join(host, "Ana")
    other = type(host)(app, None).start("generic")
    # Ana's cookie is scoped to her table's path; send it by hand to the other table.
    cookie = ana.client.get_cookie("tc", path=f"/t/{host.code}").value
    stranger = app.test_client()
    stranger.set_cookie("tc", cookie, path=f"/t/{other.code}")
    assert stranger.get(f"/t/{other.code}/state.json").status_code == 403


def test_cross_site_posts_are_refused(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.client.post(
        f"/t/{host.code}/act/score",
        data={"seat": ana.seat, "delta": 1, "csrf": ana.csrf},
        headers={"Origin": "http://evil.example"},
    )
    assert response.status_code == 403
    response = ana.client.post(f"/t/{host.code}/act/score", data={"seat": ana.seat, "delta": 1})
    assert response.status_code == 403  # no per-table form token
    assert host.state()["state"]["seats"][0]["score"] == 0


def test_export_json_and_csv(host, join):
    host.start("generic")
    ana = join(host, "=cmd")
    ana.act("score", seat=ana.seat, delta=2)
    data = json.loads(host.client.get(f"/t/{host.code}/export.json").get_data(as_text=True))
    assert [e["kind"] for e in data["events"]] == ["seat.join", "score"]
    assert data["seats"][0]["name"] == "=cmd"
    assert data["log"][-1]["kind"] == "score"  # the JSON keeps everything, internal names too
    bo = join(host, "Bo")
    bo.act("score", seat=bo.seat, delta=5)
    undone = bo.act("score", seat=bo.seat, delta=1)
    assert undone.status_code == 200
    last = bo.state()["log"][-1]["id"]
    assert bo.post(f"/undo/{last}").status_code == 200
    csv_text = host.client.get(f"/t/{host.code}/log.csv").get_data(as_text=True)
    assert "'=cmd" in csv_text  # never a live formula in a spreadsheet
    rows = list(csv.reader(io.StringIO(csv_text)))
    # Standings first, most points first, with places; then the log in plain words.
    assert rows[:3] == [["seat", "Score", "place"], ["Bo", "5", "1"], ["'=cmd", "2", "2"]]
    assert rows[3] == []
    assert rows[4] == ["time", "who", "what happened", "undone"]
    log = rows[5 : rows.index([], 5)]
    assert [row[2] for row in log] == [
        "'=cmd sat down",
        "'+2 =cmd, points",
        "Bo sat down",
        "'+5 Bo, points",
        "'+1 Bo, points",
        "undo: +1 Bo, points",
    ]
    assert [row[3] for row in log] == ["", "", "", "", "undone", ""]
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d", log[0][0])  # local time, no offset
    assert "seat.join" not in csv_text and not any(cell == "score" for row in log for cell in row)
    # Then, after one blank row, the game's course as the night's CSV has it: per step and
    # seat, Bo's from the change he came in on, the undone +1 not counted, a name kept as text.
    series = rows[5 + len(log) + 1 :]
    assert rows[5 + len(log)] == []
    assert series == [
        ["game", "step", "seat", "measure", "value"],
        ["1", "Start", "'=cmd", "points", "0"],
        ["1", "Change 1", "'=cmd", "points", "2"],
        ["1", "Change 2", "'=cmd", "points", "2"],
        ["1", "Change 2", "Bo", "points", "5"],
    ]


def test_csv_standings_read_any_games_numbers():
    view = {
        "seats": [
            {"id": 1, "name": "Ana", "upper_hand": 12, "challenges": [], "picks_left": 3},
            {"id": 2, "name": "Bo", "upper_hand": 20, "mission_leader": True},
        ]
    }
    assert table_routes.csv_standings(view) == [["seat", "Upper Hand", "place"], ["Bo", 20, 1], ["Ana", 12, 2]]
    # A game's own places win over the numbers (here: a tie broken by seat order).
    ranked = table_routes.csv_standings(
        {"seats": [{"id": 1, "name": "Ana", "real": 4}, {"id": 2, "name": "Bo", "real": 4}]}, {1: 2, 2: 1}
    )
    assert ranked[1:] == [["Bo", 4, 1], ["Ana", 4, 2]]
    assert table_routes.csv_standings({"seats": []}) == [["seat", "place"]]


def test_screen_is_read_only_big_type(host, join, client):
    host.start("generic")
    join(host, "Ana")
    html = client.get(f"/t/{host.code}/screen").get_data(as_text=True)
    assert "Ana" in html and "act/score" not in html and 'class="screen"' in html


def test_pages_are_compressed_and_locked_down(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    response = ana.client.get(f"/t/{host.code}/me", headers={"Accept-Encoding": "gzip"})
    assert response.headers["Content-Encoding"] == "gzip"
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]
    js = ana.client.get("/static/vendor/htmx-2.0.11.min.js", headers={"Accept-Encoding": "gzip"})
    assert js.headers["Content-Encoding"] == "gzip" and len(js.data) < 20_000


def test_live_fragment_and_no_external_requests(host, join):
    host.start("generic")
    ana = join(host, "Ana")
    fragment = ana.client.get(f"/t/{host.code}/live?page=player", headers=HX).get_data(as_text=True)
    assert fragment.lstrip().startswith('<div id="live-body"')
    for page in ("/me",):
        html = ana.page(page).get_data(as_text=True)
        assert not re.search(r'(src|href)="https?://', html)


@pytest.mark.parametrize("game", ["generic", "danger-zone", "blackmail", "assassins"])
def test_the_rules_link_on_every_table_page_opens_a_page(host, join, client, game):
    host.start(game)
    ana = join(host, "Ana")
    for phone, path in ((host, "/host"), (ana, "/me")):
        link = re.search(r'class="help-link" href="([^"]+)"', phone.page(path).get_data(as_text=True)).group(1)
        assert client.get(link).status_code == 200, link

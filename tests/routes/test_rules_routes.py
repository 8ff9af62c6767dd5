"""Rules lookup screens (companion/lookup/routes.py): pages, htmx fragments, search, unknown ids,
and the table's own text ("from your box"): stored, shown escaped, exported and imported."""

import io
import json
import re

import pytest

from companion import box, create_app
from companion.db import get_db
from companion.games.assassins.routes import stored_deck
from companion.lookup import search as rules
from companion.tables import store
from helpers import text

GAMES = ("danger-zone", "blackmail", "assassins")
RESULTS = {"HX-Request": "true", "HX-Target": "rules-results"}
TRAY = {"HX-Request": "true", "HX-Target": "tray-body"}
DECK_TEXT = "1 Magician 4\n2 Grave Digger 6\n3 Soldier 6\n4 Cook 6\n5 Tailor 3\n6 Spy 3"


def admin_client(app):
    """Whoever runs the server: the address `companion serve` prints gives the admin cookie."""
    client = app.test_client()
    assert client.get(f"/admin/{app.config['ADMIN_KEY']}").status_code == 303
    return client


@pytest.fixture
def client(app):
    return admin_client(app)


def token(html):
    return re.search(r'name="token" value="([0-9a-f]+)"', html).group(1)


def save_box(client, game, entry, body, htmx=False, **kw):
    page = client.get(f"/rules/{game}/{entry}")
    headers = dict(TRAY if htmx else {}, **kw.pop("headers", {}))
    return client.post(
        f"/rules/{game}/{entry}/box", data={"token": token(text(page)), "text": body}, headers=headers, **kw
    )


def import_box(client, payload, as_file=True, **kw):
    page = text(client.get("/rules/box"))
    data = {"token": token(page)}
    if as_file:
        data["file"] = (io.BytesIO(payload if isinstance(payload, bytes) else payload.encode()), "box.json")
    else:
        data["json"] = payload
    return client.post("/rules/box/import", data=data, content_type="multipart/form-data", **kw)


def stored(app):
    with app.app_context():
        return box.export(get_db())["entries"]


# --- pages -------------------------------------------------------------------------------


def test_rules_home_lists_the_three_games_with_their_quick_references(client):
    html = text(client.get("/rules"))
    for game in rules.games():
        assert f'href="/rules/{game["slug"]}"' in html
        assert f'href="/rules/{game["slug"]}/quickref"' in html
    assert 'href="/rules/box"' in html


@pytest.mark.parametrize("game", GAMES)
def test_every_game_page_lists_every_entry(client, game):
    response = client.get(f"/rules/{game}")
    assert response.status_code == 200
    html = text(response)
    assert 'rel="stylesheet" href="/static/rules.css"' in html
    for entry in rules.entries(game):
        if entry["kind"] != "quickref":
            assert f'href="/rules/{game}/{entry["id"]}"' in html, entry["id"]
    assert f'href="/rules/{game}/quickref"' in html


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_has_a_page_and_a_tray_fragment(client, game):
    for entry in rules.entries(game):
        url = f"/rules/{game}/{entry['id']}"
        page = client.get(url)
        assert page.status_code == 200, url
        assert "<html" in text(page) and f'data-entry="{entry["id"]}"' in text(page)
        fragment = client.get(url, headers=TRAY)
        assert fragment.status_code == 200
        body = text(fragment)
        assert "<html" not in body and f'data-entry="{entry["id"]}"' in body
        assert 'href="/static/rules.css"' in body  # the game screen has only app.css
        assert "<h1>" + entry["title"].replace("'", "&#39;").replace('"', "&#34;") + "</h1>" in body


def test_card_pages_show_number_and_copies(client):
    html = text(client.get("/rules/blackmail/lana-kane"))
    assert 'class="rules-num">7<' in html and "1 copy in the deck" in html
    assert "5 copies in the deck" in text(client.get("/rules/blackmail/sterling-archer"))


def test_readings_are_marked_as_the_apps_reading(client):
    html = text(client.get("/rules/blackmail/reading-cyril-round"))
    assert "the app&#39;s reading" in html


def test_table_entries_render_a_table(client):
    html = text(client.get("/rules/blackmail/vp-to-win"))
    assert '<table class="rules-table">' in html and "<td>6</td>" in html
    assert "13 Victory Point tokens" in html


@pytest.mark.parametrize("game", GAMES)
def test_quick_reference_pages(client, game):
    html = text(client.get(f"/rules/{game}/quickref"))
    assert 'class="rules-qr-page"' in html and 'class="rules-qr"' in html


def test_rules_pages_have_no_inline_script_or_style(client):
    for url in (
        "/rules",
        "/rules/danger-zone",
        "/rules/danger-zone/breakroom",
        "/rules/box",
        "/rules/assassins/quickref",
        "/rules?q=ghost",
    ):
        html = text(client.get(url))
        assert " style=" not in html, url
        assert not re.search(r"<script(?![^>]*\bsrc=)", html), url
        assert "hx-on" not in html and "javascript:" not in html


# --- search ------------------------------------------------------------------------------


def test_search_plain_page(client):
    html = text(client.get("/rules/blackmail?q=7"))
    assert "<html" in html
    hits = re.findall(r'class="rules-hit[^"]*" href="([^"]+)"', html)
    assert hits[0] == "/rules/blackmail/lana-kane"
    assert 'value="7"' in html


def test_search_across_all_games(client):
    html = text(client.get("/rules?q=uh"))
    hits = re.findall(r'class="rules-hit[^"]*" href="([^"]+)"', html)
    assert "/rules/danger-zone/upper-hand" in hits
    assert "Archer: The Danger Zone!" in html  # all-games results say which game


def test_search_htmx_returns_only_the_results(client):
    response = client.get("/rules/blackmail?q=vp", headers=RESULTS)
    html = text(response)
    assert response.status_code == 200
    assert "<html" not in html and 'name="q"' not in html
    assert "/rules/blackmail/vp-to-win" in html
    # Clearing the box brings the browse list back.
    cleared = text(client.get("/rules/blackmail?q=", headers=RESULTS))
    assert "How to play" in cleared and "<html" not in cleared


def test_search_box_searches_as_you_type(client):
    html = text(client.get("/rules/danger-zone"))
    field = re.search(r'<input type="search"[^>]*>', html, re.S).group(0)
    assert 'hx-get="/rules/danger-zone"' in field
    assert 'hx-trigger="input changed delay:150ms, search"' in field
    assert 'hx-target="#rules-results"' in field and ":replace" in field
    form = re.search(r'<form class="rules-search"[^>]*>', html, re.S).group(0)
    assert 'action="/rules/danger-zone"' in form and 'method="get"' in form  # works without JS


def test_the_tray_gets_the_panel_without_the_page(client):
    html = text(client.get("/rules/danger-zone", headers=TRAY))
    assert "<html" not in html and 'name="q"' in html and 'id="rules-results"' in html
    assert "hx-replace-url" not in html  # searching in the tray leaves the table's URL alone
    assert "data-help" in html  # results open in the tray too


def test_history_restore_gets_the_whole_page(client):
    html = text(
        client.get("/rules/blackmail?q=vp", headers={"HX-Request": "true", "HX-History-Restore-Request": "true"})
    )
    assert "<html" in html


@pytest.mark.parametrize(
    "q",
    [
        '"',
        "lana*",
        "NEAR(a b)",
        "a AND (b",
        "NOT",
        "title:x",
        "^^^",
        "((",
        "))",
        ":",
        "'; DROP TABLE box_entries; --",
        "\x00",
        "   ",
        "ü",
    ],
)
def test_fts_syntax_and_odd_queries_never_fail(client, q):
    for url in ("/rules", "/rules/danger-zone"):
        for headers in ({}, RESULTS):
            response = client.get(url, query_string={"q": q}, headers=headers)
            assert response.status_code == 200, (url, q)


def test_empty_query_shows_the_browse_list(client):
    html = text(client.get("/rules/assassins?q="))
    assert "rules-hits" not in html and "How to play" in html


def test_too_long_query_says_so(client):
    response = client.get("/rules/blackmail", query_string={"q": "x" * 500}, headers=RESULTS)
    assert response.status_code == 400
    assert "too long" in text(response)
    assert client.get("/rules", query_string={"q": "x" * 500}).status_code == 400


def test_nothing_found_says_so(client):
    html = text(client.get("/rules/blackmail?q=zzzqqq", headers=RESULTS))
    assert "Nothing found" in html


# --- unknown games and entries -----------------------------------------------------------


@pytest.mark.parametrize(
    "url",
    [
        "/rules/blackmail/no-such-card",
        "/rules/chess",
        "/rules/chess/lana-kane",
        "/rules/blackmail/" + "x" * 300,
        "/rules/blackmail/lana-kane%00",
        "/rules/blackmail/quickref/extra",
    ],
)
def test_unknown_ids_are_a_404_page_with_a_message(client, url):
    response = client.get(url)
    assert response.status_code == 404
    html = text(response)
    assert "<html" in html and ("no rules entry" in html or "no game" in html or "nothing at this" in html)


def test_unknown_entry_in_the_tray_is_a_fragment(client):
    response = client.get("/rules/blackmail/no-such-card", headers=TRAY)
    assert response.status_code == 404
    html = text(response)
    assert "<html" not in html and "no rules entry called" in html and "no-such-card" in html


def test_unknown_ids_are_escaped(client):
    html = text(client.get("/rules/blackmail/<b>x</b>"))
    assert "<b>x</b>" not in html


# --- from your box -----------------------------------------------------------------------


def test_missing_entries_show_printed_on_your_component_and_a_form(client):
    html = text(client.get("/rules/danger-zone/breakroom"))
    assert "Printed on your component" in html and "the Breakroom Location tile" in html
    assert 'action="/rules/danger-zone/breakroom/box"' in html and 'method="post"' in html
    assert 'hx-post="/rules/danger-zone/breakroom/box"' in html
    assert 'name="token"' in html
    # Entries a table cannot type text for have no form.
    assert (
        "/box" not in text(client.get("/rules/danger-zone/upper-hand")).split("rules-entry")[1].split("rules-share")[0]
    )


def test_box_text_is_stored_shown_and_found(app, client):
    response = save_box(client, "danger-zone", "breakroom", "Draw two cards from the Floopy deck.")
    assert response.status_code == 303
    assert response.headers["Location"].endswith("/rules/danger-zone/breakroom?saved=1#box")
    html = text(client.get("/rules/danger-zone/breakroom?saved=1"))
    assert "the table's own text" in html and "Floopy deck" in html and "Saved." in html
    # Search finds the typed words, marked as the table's own text.
    for url in ("/rules/danger-zone?q=floopy", "/rules?q=floopy"):
        found = text(client.get(url, headers=RESULTS))
        assert "/rules/danger-zone/breakroom" in found and "from your box" in found and "Floopy" in found
    # The browse list marks it as typed in.
    browse = text(client.get("/rules/danger-zone"))
    assert re.search(r'breakroom".*?Breakroom.*?chip-box', browse, re.S)
    assert stored(app) == [
        {"game": "danger-zone", "entry": "breakroom", "body": "Draw two cards from the Floopy deck."}
    ]


def test_box_save_with_htmx_swaps_the_box_section(client):
    response = save_box(client, "danger-zone", "bullpen", "Look at a Challenge.", htmx=True)
    assert response.status_code == 200
    html = text(response)
    assert html.lstrip().startswith('<section class="rules-box"') and "Look at a Challenge." in html
    assert "Saved." in html


def test_box_text_survives_a_restart(tmp_path):
    store.clear_cache()
    first = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    assert save_box(admin_client(first), "assassins", "cook", "Rear row: gains 1 per Cook.").status_code == 303
    store.clear_cache()
    again = create_app({"TESTING": True, "DATA_DIR": str(tmp_path)})
    html = text(again.test_client().get("/rules/assassins/cook"))
    assert "Rear row: gains 1 per Cook." in html and "the table's own text" in html
    store.clear_cache()


def test_box_text_is_escaped(client):
    save_box(client, "assassins", "soldier", '<script>alert("x")</script> <img src=x onerror=alert(1)>')
    for url, headers in (
        ("/rules/assassins/soldier", {}),
        ("/rules/assassins/soldier", TRAY),
        ("/rules/assassins?q=alert", RESULTS),
    ):
        html = text(client.get(url, headers=headers))
        assert "<script>alert" not in html and "<img src=x" not in html
        assert "&lt;script&gt;" in html


def test_an_empty_text_removes_the_entry(app, client):
    save_box(client, "assassins", "chef", "Feeds everyone.")
    assert stored(app)
    assert save_box(client, "assassins", "chef", "   ").status_code == 303
    assert stored(app) == []
    assert "Nobody has typed it in yet" in text(client.get("/rules/assassins/chef"))


def test_box_form_refuses_a_bad_token_and_other_sites(app, client):
    response = client.post("/rules/danger-zone/breakroom/box", data={"token": "0" * 32, "text": "x"})
    assert response.status_code == 403 and "out of date" in text(response)
    for odd in ("é" * 32, "", "\x00"):
        assert client.post("/rules/danger-zone/breakroom/box", data={"token": odd, "text": "x"}).status_code == 403
    # The token of one entry does not write another.
    other = token(text(client.get("/rules/danger-zone/bullpen")))
    assert client.post("/rules/danger-zone/breakroom/box", data={"token": other, "text": "x"}).status_code == 403
    good = token(text(client.get("/rules/danger-zone/breakroom")))
    cross = client.post(
        "/rules/danger-zone/breakroom/box", data={"token": good, "text": "x"}, headers={"Origin": "http://evil.example"}
    )
    assert cross.status_code == 403
    assert stored(app) == []


def test_box_form_only_for_missing_entries(client):
    page_token = token(text(client.get("/rules/danger-zone/breakroom")))
    for url in ("/rules/danger-zone/upper-hand/box", "/rules/danger-zone/nope/box", "/rules/chess/x/box"):
        assert client.post(url, data={"token": page_token, "text": "x"}).status_code == 404


def test_too_long_box_text_is_refused_with_a_message(app, client):
    response = save_box(client, "danger-zone", "event-cards", "x" * (box.MAX_BODY + 1))
    assert response.status_code == 422
    html = text(response)
    assert "too long" in html and "<html" in html
    fragment = save_box(client, "danger-zone", "event-cards", "x" * (box.MAX_BODY + 1), htmx=True)
    assert fragment.status_code == 422 and "too long" in text(fragment) and "<html" not in text(fragment)
    assert stored(app) == []


def test_skill_dice_are_checked_and_kept_in_one_form(app, client):
    bad = save_box(client, "danger-zone", "lana-dice", "lots of guns")
    assert bad.status_code == 422 and "Booze N, Guns N, Sex N, Smarts N" in text(bad)
    assert save_box(client, "danger-zone", "lana-dice", "guns: 3 booze 1\nsex 2, smarts 2").status_code == 303
    assert stored(app)[0]["body"] == "Booze 1, Guns 3, Sex 2, Smarts 2"


def test_deck_list_is_typed_a_card_a_line_and_feeds_the_ghost_deal(app, client):
    bad = save_box(client, "assassins", "deck-list", "1 Magician 4\n2 Cook 6")
    assert bad.status_code == 422 and "missing from the deck list" in text(bad)
    assert save_box(client, "assassins", "deck-list", DECK_TEXT).status_code == 303
    with app.app_context():
        deck = stored_deck(get_db())  # what the Age of Assassins screens read
    assert sum(card["copies"] for card in deck) == 28
    html = text(client.get("/rules/assassins/deck-list"))
    assert "<td>Grave Digger</td>" in html
    assert "2 Grave Digger ×6" in html  # the form shows the list as typed lines again


# --- export and import -------------------------------------------------------------------


def test_export_and_import_round_trip(app, client, tmp_path):
    save_box(client, "danger-zone", "breakroom", "Swap two tokens.")
    save_box(client, "danger-zone", "cheryl-dice", "Booze 1, Guns 1, Sex 3, Smarts 2")
    save_box(client, "assassins", "deck-list", DECK_TEXT)
    export = client.get("/rules/box.json")
    assert export.status_code == 200
    assert "attachment" in export.headers["Content-Disposition"]
    data = export.get_json()
    assert len(data["entries"]) == 3

    store.clear_cache()
    other = create_app({"TESTING": True, "DATA_DIR": str(tmp_path / "other")})
    other_client = admin_client(other)
    response = import_box(other_client, export.data)
    assert response.status_code == 303 and "imported=3" in response.headers["Location"]
    assert "Imported 3 entries." in text(other_client.get(response.headers["Location"]))
    assert stored(other) == stored(app)
    assert "Swap two tokens." in text(other_client.get("/rules/danger-zone/breakroom"))
    # Pasted text works too, and importing the same file again changes nothing.
    assert import_box(other_client, export.get_data(as_text=True), as_file=False).status_code == 303
    assert stored(other) == stored(app)
    store.clear_cache()


def test_imported_text_is_escaped_on_display(app, client):
    payload = json.dumps(
        {
            "table_companion_box": 1,
            "entries": [{"game": "danger-zone", "entry": "reception", "body": "<b onmouseover=alert(1)>bold</b>"}],
        }
    )
    assert import_box(client, payload).status_code == 303
    for url, headers in (("/rules/danger-zone/reception", {}), ("/rules/danger-zone?q=bold", RESULTS)):
        html = text(client.get(url, headers=headers))
        assert "<b onmouseover" not in html and "&lt;b onmouseover=alert(1)&gt;bold&lt;/b&gt;" in html


@pytest.mark.parametrize(
    "payload, message",
    [
        ("not json at all", "not JSON"),
        ("[1, 2, 3]", "no list of entries"),
        ('{"entries": "nope"}', "no list of entries"),
        ('{"entries": [{"game": "danger-zone", "entry": "breakroom"}]}', "needs a game, an entry and a text"),
        (
            '{"entries": [{"game": "danger-zone", "entry": "upper-hand", "body": "x"}]}',
            "not something the rules lookup asks for",
        ),
        ('{"entries": [{"game": "chess", "entry": "rook", "body": "x"}]}', "not something the rules lookup asks for"),
        (
            '{"entries": [{"game": "danger-zone", "entry": "breakroom", "body": "fine"},'
            ' {"game": "danger-zone", "entry": "lana-dice", "body": "many dice"}]}',
            "Booze N",
        ),
        ('{"entries": [{"game": "assassins", "entry": "deck-list", "body": "[]"}]}', "deck list"),
        ('{"entries": [{"game": "danger-zone", "entry": "bullpen", "body": "%s"}]}' % ("y" * 5000), "too long"),
    ],
)
def test_bad_imports_store_nothing(app, client, payload, message):
    response = import_box(client, payload)
    assert response.status_code == 422
    html = text(response)
    assert message in html and "Nothing was imported." in html and "<html" in html
    assert stored(app) == []


def test_oversized_import_is_refused(app, client):
    payload = '{"entries": [], "padding": "' + "z" * (1024 * 1024 + 10) + '"}'
    response = import_box(client, payload)
    assert response.status_code == 413
    assert "too big" in text(response) and "Nothing was imported." in text(response)
    assert stored(app) == []


def test_empty_or_binary_import_says_what_to_do(app, client):
    assert "Pick an exported file" in text(import_box(client, "", as_file=False))
    response = import_box(client, b"\xff\xfe\x00junk")
    assert response.status_code == 422 and "not text" in text(response)
    assert stored(app) == []


def test_import_needs_the_page_token(app, client):
    response = client.post("/rules/box/import", data={"token": "nope", "json": '{"entries": []}'})
    assert response.status_code == 403
    assert client.get("/rules/box/import").status_code == 302


def test_a_card_shows_the_box_text_of_its_related_missing_entry(client):
    assert "rules-box-related" not in text(client.get("/rules/danger-zone/lana"))
    save_box(client, "danger-zone", "lana-dice", "Booze 2, Guns 3, Sex 1, Smarts 2")
    html = text(client.get("/rules/danger-zone/lana", headers=TRAY))
    assert "rules-box-related" in html and "Booze 2, Guns 3, Sex 1, Smarts 2" in html
    assert 'href="/rules/danger-zone/lana-dice"' in html


# --- whose box text: a table's host, or whoever runs the server --------------------------


def test_strangers_cannot_change_the_server_defaults(app, client):
    stranger = app.test_client()
    page = text(stranger.get("/rules/danger-zone/breakroom"))
    assert 'name="token"' not in page and "Only whoever runs the server" in page
    admin_token = token(text(client.get("/rules/danger-zone/breakroom")))
    for headers in ({}, {"Origin": "null"}):
        response = stranger.post(
            "/rules/danger-zone/breakroom/box", headers=headers, data={"token": admin_token, "text": "Stranger's text"}
        )
        assert response.status_code == 403
    assert stranger.post("/rules/box/import", data={"token": admin_token, "json": "{}"}).status_code == 403
    assert stranger.get("/admin/wrong-key").status_code == 403
    assert stored(app) == []


def test_origin_null_is_refused_even_with_the_cookie(client):
    page_token = token(text(client.get("/rules/danger-zone/breakroom")))
    response = client.post(
        "/rules/danger-zone/breakroom/box", data={"token": page_token, "text": "x"}, headers={"Origin": "null"}
    )
    assert response.status_code == 403


def test_a_table_keeps_its_own_box_text_and_only_its_host_changes_it(app, client, host, join):
    save_box(client, "danger-zone", "breakroom", "Server default text.")
    host.start("danger-zone")
    ana = join(host, "Ana")
    url = "/rules/danger-zone/breakroom"
    assert "Server default text." in text(host.client.get(f"/t/{host.code}{url}"))
    # a seat and a stranger are refused; the host's change stays at this table
    assert ana.post(f"{url}/box", {"text": "Ana text"}).status_code == 403
    assert app.test_client().post(f"/t/{host.code}{url}/box", data={"text": "x"}).status_code == 403
    response = host.post(f"{url}/box", {"text": "Our table text."}, htmx=False)
    assert response.status_code == 303
    assert "Our table text." in text(ana.client.get(f"/t/{host.code}{url}"))
    assert "Server default text." in text(client.get(url))
    # in the tray over the table's pages, the lookup shows and searches the table's copy
    tray = dict(TRAY, **{"HX-Current-URL": f"http://localhost/t/{host.code}/me"})
    assert "Our table text." in text(ana.client.get(url, headers=tray))
    with app.app_context():
        table = store.find_table(get_db(), host.code)
        assert box.get(get_db(), "danger-zone", "breakroom", table) == "Our table text."
        assert box.get(get_db(), "danger-zone", "breakroom") == "Server default text."


def test_a_table_the_night_has_left_keeps_its_box_text(app, host, join):
    """After "play again" the old table stays as it ended: its box text too."""
    host.start("danger-zone")
    join(host, "Ana")
    url = "/rules/danger-zone/breakroom"
    assert host.post(f"{url}/box", {"text": "Before."}, htmx=False).status_code == 303
    host.page("/host")
    assert host.post("/next", {"game": "blackmail", "page": "host"}).status_code == 200
    response = host.post(f"{url}/box", {"text": "After."})
    assert response.status_code == 422 and "The night has moved on" in text(response)
    with app.app_context():
        table = store.find_table(get_db(), host.code)
        assert box.get(get_db(), "danger-zone", "breakroom", table) == "Before."


def test_deeply_nested_imports_are_a_sentence(client):
    response = import_box(client, "[" * 50_000 + "]" * 50_000)
    assert response.status_code == 422 and "nested too deeply" in text(response)

"""Through the routes: what playing all three games turned up.

- No person's JSON reaches json.loads except through base.read_json: a static scan of
  companion/, and every route that takes a file or a "json" field fed a list nested 1,000 deep.
- Danger Zone: a Challenge typed as completed reads "completed", not "rolled, no luck".
- A step post without its step field is a malformed request, not a stale tap.
- Blackmail: a phone knocked out of a dealt round still says so once the round has ended.
"""

import ast
import html as html_lib
import inspect
import io
import re
from collections import Counter

import pytest

from companion import box
from companion.db import get_db
from companion.games import TABLE_GAMES
from companion.games.blackmail import ARCHER, KRUEGER, MALORY, PAM
from companion.games.blackmail import dealt as deal
from companion.tables import store
from helpers import ROOT

PACKAGE = ROOT / "companion"
DEEP = "[" * 1000 + "]" * 1000  # answered 500 (a RecursionError) at the deck import


def text(response):
    return html_lib.unescape(response.get_data(as_text=True))


def error_of(response):
    found = re.search(r'class="error"[^>]*>(.*?)</', text(response), re.S)
    return " ".join(found.group(1).split()) if found else text(response)[:600]


# --- every json.loads on a person's input ------------------------------------------------

# Where the stdlib may parse JSON, and why that text is not a person's: anything else reads
# with games.base.read_json, which refuses a file too big or too deep with a sentence.
TRUSTED_JSON = {
    "games/base.py": "read_json itself, after its size and depth checks",
    "tables/store.py": "event data and table options the app wrote itself",
    "lookup/index.py": "the rules data shipped inside the package",
    "cli.py": "the worker configuration the parent process wrote",
    "tablet/routes.py": "the tablet layout the app saved itself (json.dumps of checked seats)",
    "db/postgres.py": "the event a NOTIFY carries, sent by the app's own commit (db.notify_change)",
}
JSON_READERS = {"loads", "load", "JSONDecoder", "raw_decode", "get_json"}


def json_reads(tree):
    """(line, what) of each stdlib JSON parse in a module: json.loads(...), a `from json
    import loads` name, a JSONDecoder, or Flask's request.get_json / request.json."""
    names = {
        alias.asname or alias.name
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module in ("json", "simplejson")
        for alias in node.names
        if alias.name in JSON_READERS
    }
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Attribute):
            owner = None
        else:
            owner = node.value.id if isinstance(node.value, ast.Name) else None
        if owner is not None and (
            (owner in ("json", "simplejson") and node.attr in JSON_READERS)
            or (owner == "request" and node.attr in ("json", "get_json"))
        ):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Attribute) and node.attr in ("JSONDecoder", "raw_decode", "get_json"):
            found.append((node.lineno, ast.unparse(node)))
        elif isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            found.append((node.lineno, node.id))
    return found


def test_no_module_parses_json_but_read_json_and_the_apps_own_files():
    seen = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        where = path.relative_to(PACKAGE).as_posix()
        for line, what in json_reads(ast.parse(path.read_text(encoding="utf-8"))):
            seen.setdefault(where, []).append(f"{where}:{line} {what}")
    strays = [hit for where, hits in seen.items() if where not in TRUSTED_JSON for hit in hits]
    assert not strays, (
        "JSON a person typed or uploaded must be read with games.base.read_json "
        f"(a 422 with a sentence, never a RecursionError): {strays}"
    )
    # read_json is the only reader in base.py.
    base = ast.parse((PACKAGE / "games/base.py").read_text(encoding="utf-8"))
    outside = [f.name for f in ast.walk(base) if isinstance(f, ast.FunctionDef) and json_reads(f)]
    assert outside == ["read_json"]
    assert "games/base.py" in seen  # the scan does see a json.loads when there is one


def routes_taking_json(app):
    """POST routes whose view reads an uploaded file or a pasted "json" field."""
    found = []
    for rule in app.url_map.iter_rules():
        if "POST" not in rule.methods:
            continue
        source = inspect.getsource(app.view_functions[rule.endpoint])
        if "files" in source or re.search(r"""["']json["']""", source):
            found.append(rule)
    return found


@pytest.fixture
def owner(app):
    """One browser that runs the server (the admin cookie) and hosts a table of each game."""
    client = app.test_client()
    assert client.get(f"/admin/{app.config['ADMIN_KEY']}").status_code == 303
    tables = {}
    for game in TABLE_GAMES:
        response = client.post("/tables", data={"game": game})
        code = response.headers["Location"].split("/")[2]
        page = client.get(f"/t/{code}/host").get_data(as_text=True)
        tables[code] = re.search(r'"X-CSRF-Token": "([0-9a-f]+)"', page).group(1)
    return client, tables


@pytest.mark.parametrize("as_file", [True, False], ids=["file", "json field"])
def test_every_route_taking_json_answers_a_deep_list_with_a_sentence(app, owner, as_file):
    client, tables = owner
    rules = routes_taking_json(app)
    endpoints = {rule.endpoint for rule in rules}
    assert {"assassins.deck_import", "rules.box_import"} <= endpoints, endpoints
    token = re.search(r'name="token" value="([0-9a-f]+)"', client.get("/rules/box").get_data(as_text=True)).group(1)
    answered = Counter()
    for rule in rules:
        assert set(rule.arguments) <= {"code"}, f"teach this test the arguments of {rule.rule}"
        for code, csrf in tables.items() if "code" in rule.arguments else [(None, None)]:
            url = rule.rule.replace("<code>", code or "")
            data = {"csrf": csrf or "", "token": token}
            if as_file:
                data["file"] = (io.BytesIO(DEEP.encode()), "deep.json")
            else:
                data["json"] = DEEP
            response = client.post(url, data=data, content_type="multipart/form-data")
            if response.status_code == 404:
                continue  # a game's own route, at another game's table
            answered[rule.endpoint] += 1
            assert 400 <= response.status_code < 500, (url, response.status_code)
            assert "nested too deeply" in error_of(response), (url, error_of(response))
    assert set(answered) == endpoints, answered


def test_dice_typed_as_a_deep_list_are_text_not_a_500(host, join):
    """Found by the scan above: Danger Zone read a table's typed skill dice with json.loads."""
    host.start("danger-zone")
    ana = join(host, "Ana")
    assert ana.act("character.pick", character="Lana").status_code == 200
    with host.client.application.app_context():
        db = get_db()
        box.put(db, "danger-zone", "dice-lana", DEEP, table=store.find_table(db, host.code))
    for page in (ana.page(), host.page("/host")):
        assert page.status_code == 200


# --- Danger Zone: a Challenge typed as completed ---------------------------------------------


def ok(response):
    assert response.status_code < 400, error_of(response)
    return response


def dz_in_the_mission(host, join, names=("Ana", "Bo", "Dan")):
    host.start("danger-zone")
    phones = {name: join(host, name) for name in names}
    for phone, character in zip(phones.values(), ["Archer", "Cheryl", "Lana"]):
        ok(phone.act("character.pick", character=character))
    ok(host.act("locations.draw"))
    ok(host.act("initiative.record", seat=phones[names[0]].seat))
    ok(host.act("order.confirm", order=",".join(str(p.seat) for p in phones.values())))
    ok(host.act("round.next", to="round 1, Movement"))
    place = host.state()["state"]["locations"][0]["name"]
    for phone in phones.values():
        ok(phone.act("movement.enter", location=place))
    ok(host.act("round.next", to="round 1, Mission", force="1"))
    return phones


def status_of(page_html, seat):
    found = re.search(rf'data-seat="{seat}".*?<span class="status">(.*?)</span>\s*</li>', page_html, re.S)
    return " ".join(re.sub(r"<[^>]+>", "", found.group(1)).split())


def test_dz_a_challenge_typed_as_completed_reads_completed_everywhere(host, join):
    phones = dz_in_the_mission(host, join)
    dan, ana = phones["Dan"], phones["Ana"]
    # No cards drawn: Dan types his Personal 10 (+3) with no dice rolled in the app.
    ok(dan.act("challenge.complete", personal="1", difficulty="10", reward="3"))
    ok(ana.act("challenge.fail"))
    screen = text(host.client.get(f"/t/{host.code}/screen"))
    others = text(phones["Bo"].page())
    for page in (screen, others):
        line = status_of(page, dan.seat)
        assert "completed Personal 10" in line and "no luck" not in line, line
        assert "rolled, no luck" in status_of(page, ana.seat)
    # His own phone said so already.
    assert "You completed Personal 10" in " ".join(re.sub(r"<[^>]+>", " ", text(dan.page())).split())


# --- a step post without its step field ------------------------------------------------------

MALFORMED = "did not name the step"


def refused(response, words):
    assert response.status_code in (400, 422), response.status_code
    assert words in error_of(response), error_of(response)
    assert "older screen" not in error_of(response)


def test_a_next_phase_post_without_its_step_is_malformed_not_stale(host, join):
    host.start("danger-zone")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    for phone, character in ((ana, "Archer"), (bo, "Lana")):
        ok(phone.act("character.pick", character=character))
    ok(host.act("locations.draw"))
    ok(host.act("initiative.record", seat=ana.seat))
    ok(host.act("order.confirm", order=f"{ana.seat},{bo.seat}"))
    before = host.state()["version"]
    refused(host.act("round.next"), MALFORMED)
    refused(host.act("round.next", to="  "), MALFORMED)
    assert host.state()["version"] == before
    # A step named but not the table's next one is still a stale tap.
    response = host.act("round.next", to="round 3, Mission")
    assert response.status_code == 422 and "older screen" in error_of(response)
    ok(host.act("round.next", to="round 1, Movement"))


def test_blackmail_and_assassins_step_posts_without_their_step_are_malformed(host, join):
    host.start("blackmail")
    ana, _bo = join(host, "Ana"), join(host, "Bo")
    refused(host.act("game.start", tracking="scores", first_player=ana.seat), MALFORMED)
    ok(host.act("game.start", to="game 1", tracking="scores", first_player=ana.seat))
    refused(host.act("round.score", winners=str(ana.seat)), MALFORMED)
    # Under way, "Start" has no step to move to: a named one is stale, a missing one malformed.
    assert "older screen" in error_of(host.act("game.start", to="game 1", tracking="scores"))
    refused(host.act("game.start", tracking="scores"), MALFORMED)

    host.start("assassins")
    for name in ("Ana", "Bo", "Cy"):
        join(host, name)
    refused(host.act("resolve.step", step="next", force="1"), MALFORMED)
    refused(host.act("resolve.step", number="3"), MALFORMED)  # a tap on a number names "at"
    ok(host.act("resolve.step", step="next", to="1", force="1"))
    ok(host.act("resolve.step", step="next", to="2"))
    refused(host.act("resolve.step", step="back"), MALFORMED)


# --- Blackmail: a dealt round ends with a player knocked out -------------------------------


def rigged(order):
    """The app's shuffle with `order` first (the secret, then one card a seat, then draws)."""
    rest = Counter(deal.full_deck())
    rest.subtract(order)
    return {
        "order": list(order) + sorted(rest.elements(), reverse=True),
        "lana": [0, 1, 2, 3, 4],
        "salt": "00112233445566778899aabbccddeeff",
    }


def test_blackmail_a_knocked_out_phone_still_says_so_after_the_round(host, join, monkeypatch):
    monkeypatch.setattr(deal, "new_deal", lambda rng: rigged([MALORY, ARCHER, KRUEGER, PAM]))
    host.start("blackmail")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    ok(host.act("game.start", to="game 1", tracking="dealt", first_player=ana.seat, page="host"))
    turn = ana.state()["state"]["round"]["dealt"]["turn_no"]
    # Ana's Sterling Archer names Bo's Dr. Krueger: Bo is out, and the round is over.
    ok(ana.act("dealt.play", card=ARCHER, target=bo.seat, named=KRUEGER, turn=turn))
    assert bo.state()["state"]["round"]["result"]
    mine = re.search(r'<p [^>]*class="bm-me-status"[^>]*>(.*?)</p>', text(bo.page()), re.S).group(1)
    mine = " ".join(re.sub(r"<[^>]+>", "", mine).split())
    assert "You were out: named by Sterling Archer, showing Dr. Krueger (2)." in mine, mine
    # The other phone's line for Bo says the same.
    others = " ".join(re.sub(r"<[^>]+>", "", text(ana.page())).split())
    assert "Out: named by Sterling Archer, showed Dr. Krueger (2)." in others

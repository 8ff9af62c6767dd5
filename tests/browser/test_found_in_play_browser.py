"""In a real browser: what playing all three games turned up on the table screen,
a waiting phone and the host page at 320 px.

Tables are set up by posting as the host page does (its cookie and form token), so each
test spends its time on the screen it checks, not on tapping through setup."""

import json
import os
import re

import pytest

from browser_steps import sit_down, start_table

pytest.importorskip("playwright.sync_api")

SHOTS = os.environ.get("FIP_SHOTS")  # a folder: save what the checks saw, to look at
PIXEL_7_HEIGHT = 915
NARROW = {"width": 320, "height": 568}  # an iPhone SE
CHARACTERS = ["Archer", "Lana", "Malory", "Cyril", "Pam", "Cheryl", "Krieger", "Ray"]


def shot(page, name, full_page=False):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, name + ".png"), full_page=full_page)


# --- posting as a page's viewer ---------------------------------------------------------


def base_and_code(page):
    base, rest = page.url.split("/t/")
    return base, rest.split("/")[0]


def post_as(page, path, **fields):
    """Post a form as this page's viewer, as its own forms do; it must be taken."""
    base, code = base_and_code(page)
    token = json.loads(page.get_attribute("body", "hx-headers"))["X-CSRF-Token"]
    response = page.request.post(
        f"{base}/t/{code}{path}",
        form={"csrf": token, "page": "host", **{k: str(v) for k, v in fields.items()}},
        headers={"HX-Request": "true", "HX-Target": "live-body", "Origin": base},
    )
    assert response.ok, (path, fields, response.status, response.text()[:2000])


def state_of(page):
    """What state.json shows this page's viewer (the game's view_for)."""
    base, code = base_and_code(page)
    return page.request.get(f"{base}/t/{code}/state.json").json()["state"]


def ids_by_name(page):
    return {s["name"]: s["id"] for s in state_of(page)["seats"]}


def host_with_seats(live_server, new_phone, game, names):
    host = new_phone()
    code = start_table(host, live_server.url, game)
    for name in names:
        post_as(host, "/seats", name=name)
    return host, code


def text_clipped(page, within):
    """Elements under `within` that hide part of their text: wider than their box, or a
    hidden line (taller by half a line; a glyph's descender poking out does not count).
    Text for screen readers only (`.sr`) is clipped on purpose and is not counted."""
    return page.evaluate(
        """within => [...document.querySelectorAll(within + ', ' + within + ' *')]
        .filter(e => e.checkVisibility() && e.textContent.trim() && !e.closest('.sr')
                     && getComputedStyle(e).overflow !== 'visible'
                     && (e.scrollWidth > e.clientWidth + 1
                         || e.scrollHeight - e.clientHeight > parseFloat(getComputedStyle(e).fontSize) / 2))
        .map(e => `${e.className}: ${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 90)}`)""",
        within,
    )


def outside_their_tile(page):
    """Text in a TV tile that spills past the tile's edges (the tile hides it)."""
    return page.evaluate("""() => [...document.querySelectorAll('.tv-seat')].flatMap(tile => {
        const t = tile.getBoundingClientRect();
        return [...tile.querySelectorAll('*')].filter(e => {
            const r = e.getBoundingClientRect();
            return e.checkVisibility() && e.textContent.trim() && r.height
                && (r.top < t.top - 1 || r.bottom > t.bottom + 1 || r.left < t.left - 1 || r.right > t.right + 1);
        }).map(e => `${e.className}: ${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 60)}`); })""")


# --- Danger Zone: a table played into a Mission -----------------------------------------


def dz_next(host, force=True):
    """Move the table on, naming the step (as the button does)."""
    post_as(host, "/act/round.next", to=state_of(host)["next_step"], **({"force": "1"} if force else {}))


def dz_table(live_server, new_phone, names, want=None, phone=None, characters=CHARACTERS):
    """A Danger Zone table through Setup into round 1's Movement (with `want` in play).
    `phone`: the first name sits down on a phone of that kind; the host adds the rest."""
    host = new_phone()
    code = start_table(host, live_server.url, "danger-zone")
    player = None
    if phone:
        player = new_phone(phone)
        sit_down(player, f"{live_server.url}/t/{code}", names[0])
    for name in names[1 if phone else 0 :]:
        post_as(host, "/seats", name=name)
    ids = ids_by_name(host)
    for name, character in zip(names, characters):
        post_as(host, "/act/character.pick", seat=ids[name], character=character)
    for _ in range(60):
        post_as(host, "/act/locations.draw")
        if want is None or want in [loc["name"] for loc in state_of(host)["locations"]]:
            break
    post_as(host, "/act/initiative.record", seat=ids[names[0]])
    post_as(host, "/act/order.confirm", order=",".join(str(ids[n]) for n in names))
    dz_next(host)
    return (host, code, ids) if not phone else (host, code, ids, player)


def dz_reveal_all(host, names, ids, place):
    """Everyone reveals at one Location, so all but the first roll dice for the foes there."""
    for name in names:
        post_as(host, "/act/movement.enter", seat=ids[name], location=place)


def dz_mission(host, ids, cards, done, failed=()):
    """Start the Mission: `cards` drawn (none: completions are typed), `done` {name: card
    number, or a typed card's fields}, then `failed` fail their roll."""
    dz_next(host)
    if cards:
        fields = {}
        for row, (kind, difficulty, reward, color) in enumerate(cards, start=1):
            fields.update(
                {f"type_{row}": kind, f"difficulty_{row}": difficulty, f"reward_{row}": reward, f"color_{row}": color}
            )
        post_as(host, "/act/challenge.draw", **fields)
    for name, card in done.items():
        fields = card if isinstance(card, dict) else {"card": card}
        post_as(host, "/act/challenge.complete", seat=ids[name], **fields)
    for name in failed:
        post_as(host, "/act/challenge.fail", seat=ids[name])


LONGEST = "Applied Research Laboratories"  # the longest Location name makes the longest line
NAMES = ["Ana", "Bo", "Cy", "Dan", "Eve", "Flo", "Gus", "Hal"]
COLORS = ["Red", "Blue", "Green", "Yellow", "Orange"]


def dz_in_round_three(live_server, new_phone, seats):
    """`seats` seats in round 3's Mission, everyone at Applied Research Laboratories, most
    piles holding cards of two rounds (Ana's three types and colours); then Dan completes a
    Personal 10 (+3) typed with no dice (no cards drawn), Ana and Bo complete typed cards
    and Cy fails."""
    names = NAMES[:seats]
    host, code, ids = dz_table(live_server, new_phone, names, want=LONGEST)
    count = state_of(host)["challenges_to_draw"]
    kinds = ["Booze", "Sex", "Smarts", "Guns", "Booze"]
    for round_number in (1, 2):
        dz_reveal_all(host, names, ids, LONGEST)
        cards = [
            (kind, 6 + n, 1, COLORS[(n + round_number) % len(COLORS)])
            for n, kind in zip(range(count), kinds[round_number - 1 :] + kinds)
        ]
        rollers = [n for n in names if n != "Dan"][:count]
        dz_mission(host, ids, cards, {name: n + 1 for n, name in enumerate(rollers)}, failed=["Dan"])
        dz_next(host)  # Clean-up
        dz_next(host)  # the next round's Movement
    dz_reveal_all(host, names, ids, LONGEST)
    typed = {
        "Dan": {"personal": "1", "difficulty": 10, "reward": 3, "color": "Purple"},
        "Ana": {"type": "Guns", "difficulty": 11, "reward": 2, "color": "Orange"},
        "Bo": {"type": "Booze", "difficulty": 8, "reward": 4, "color": "Red"},
    }
    dz_mission(host, ids, [], typed, failed=["Cy"])
    return host, code, ids


@pytest.mark.parametrize("seats", [5, 8])
def test_dz_status_lines_are_whole_on_the_tv(live_server, new_phone, seats):
    """At 5 seats the TV cut lines off ("…completed Booze 8 · pile…"), and a
    Challenge typed as completed read "rolled, no luck". Lines now wrap whole; in the
    Mission a tile says less (no Location: that was Movement's news)."""
    host, code, ids = dz_in_round_three(live_server, new_phone, seats)
    screen = new_phone("Desktop Chrome")
    screen.set_viewport_size({"width": 1280, "height": 800})
    screen.goto(f"{live_server.url}/t/{code}/screen")
    screen.wait_for_selector(".tv-seats .tv-seat")
    shot(screen, f"dz-tv-{seats}")
    assert screen.evaluate("""() => { const d = document.documentElement;
        return d.scrollHeight <= d.clientHeight && d.scrollWidth <= d.clientWidth; }""")
    assert text_clipped(screen, ".tv-seat") == []
    assert outside_their_tile(screen) == []
    for tile in screen.locator(".tv-seat").all():  # every tile whole on the screen
        box = tile.bounding_box()
        assert box["y"] >= 0 and box["y"] + box["height"] <= 800, box
    dan = " ".join(screen.inner_text(".tv-seat:has(.name:text-is('Dan')) .status").split())
    assert dan == "completed Personal 10 · pile: Personal (Purple)", dan
    assert "no luck" not in dan
    cy = screen.inner_text(".tv-seat:has(.name:text-is('Cy')) .status")
    assert "rolled, no luck" in cy
    # The next Movement: where each went is back on the tiles, and still whole.
    dz_next(host)
    dz_next(host)
    dz_reveal_all(host, NAMES[:seats], ids, LONGEST)
    screen.reload()
    screen.wait_for_selector(".tv-seat .status:has-text('(first)')")
    shot(screen, f"dz-tv-{seats}-movement")
    assert text_clipped(screen, ".tv-seat") == []
    assert outside_their_tile(screen) == []
    ana = " ".join(screen.inner_text(".tv-seat:has(.name:text-is('Ana')) .status").split())
    assert re.fullmatch(rf"at {LONGEST} \((first|\d dic?e for foes)\) · pile: Booze, Guns, Sex \(.*\)", ana), ana


def test_dz_a_waiting_phone_in_an_eight_seat_mission_fits(live_server, new_phone):
    """In round 1's Mission at 8 seats, a phone whose roll it is not was 2.6 screens,
    most of it the Challenge cards' odds for someone else's roll."""
    # Ana plays Lana, whose skill dice the rulebook does not print: each card shows 3 odds.
    host, code, ids, ana = dz_table(
        live_server, new_phone, NAMES, want=LONGEST, phone="Pixel 7", characters=["Lana", "Archer", *CHARACTERS[2:]]
    )
    post_as(host, "/act/token.move", token="mission_leader", seat=ids["Bo"])  # Bo rolls first
    dz_reveal_all(host, NAMES, ids, LONGEST)
    cards = [(kind, 6 + n, 1 + n % 4, COLORS[n]) for n, kind in enumerate(["Booze", "Guns", "Sex", "Smarts", "Booze"])]
    dz_mission(host, ids, cards, {})
    ana.reload()
    ana.wait_for_selector("section.me [data-next-roll]")
    assert "Next to roll: Bo" in ana.inner_text("section.me [data-next-roll]")
    shot(ana, "dz-phone-waiting", full_page=True)
    height = ana.evaluate("document.documentElement.scrollHeight")
    assert height <= 2.5 * PIXEL_7_HEIGHT, height
    # The cards fold to a summary; her own odds for each are one tap away.
    fold = ana.locator("details.dz-cards-fold")
    assert "Booze 6 · Guns 7 · Sex 8 · Smarts 9 · Booze 10" in " ".join(fold.locator("summary").inner_text().split())
    assert not ana.locator(".dz-card[data-card='1'] [data-odds]").is_visible()
    fold.locator("summary").click()
    assert "%" in ana.inner_text(".dz-card[data-card='1'] [data-odds]")


# --- every game's host page at 320 px, before play and mid-game ---------------------------


def sideways(page, width):
    """What sticks out past a screen `width` px wide: the page's width, and the innermost
    elements past its edge (a phone's browser widens its layout to fit them)."""
    return page.evaluate(
        """width => {
        const past = e => e.getBoundingClientRect().right > width + 1 || e.getBoundingClientRect().left < -1;
        const out = [...document.querySelectorAll('body *')].filter(e =>
            e.checkVisibility() && e.getBoundingClientRect().width && past(e) && ![...e.children].some(past)
        ).map(e => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent.trim().replace(/\\s+/g, ' ').slice(0, 40)}`);
        return {width: document.scrollingElement.scrollWidth, out: out.slice(0, 8)};
    }""",
        width,
    )


def broken_words(page, within="#live-body"):
    """Names and numbers split across lines mid-word (e.g. "Constantin/e")."""
    return page.evaluate(
        """within => {
        const found = [];
        const walker = document.createTreeWalker(document.querySelector(within), NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const parent = node.parentElement;
            if (!parent.checkVisibility() || parent.closest('pre, code, .qr')) continue;
            for (const match of node.textContent.matchAll(/[\\p{L}\\p{N}]{2,}/gu)) {
                const range = document.createRange();
                range.setStart(node, match.index);
                range.setEnd(node, match.index + match[0].length);
                const lines = new Set([...range.getClientRects()].filter(r => r.width).map(r => Math.round(r.top)));
                if (lines.size > 1) found.push(`${match[0]} (in ${parent.tagName.toLowerCase()}.${parent.className})`);
            }
        }
        return found;
    }""",
        within,
    )


def at_320(page, label):
    page.set_viewport_size(NARROW)
    page.reload()
    page.wait_for_selector("#live-body")
    shot(page, "host-320-" + label, full_page=True)
    found = sideways(page, NARROW["width"])
    assert found["width"] <= NARROW["width"] and not found["out"], (label, found)
    assert broken_words(page) == [], label
    assert (
        page.evaluate("""() => [...document.querySelectorAll('svg text')].filter(t => {
        const r = t.getBoundingClientRect(), box = t.closest('svg').getBoundingClientRect();
        return t.checkVisibility() && (r.right > box.right + 1 || r.left < box.left - 1);
    }).map(t => t.textContent)""")
        == []
    ), label  # a chart's labels inside the chart


def test_the_generic_host_page_at_320(live_server, new_phone):
    host, code = host_with_seats(live_server, new_phone, "generic", ["Constantine", "Bo", "Cy"])
    at_320(host, "generic-setup")
    post_as(host, "/act/score", seat=ids_by_name(host)["Constantine"], delta=3, reason="Points")
    at_320(host, "generic-play")


def test_the_danger_zone_host_page_at_320(live_server, new_phone):
    names = ["Constantine", *NAMES[1:]]
    host = new_phone()
    start_table(host, live_server.url, "danger-zone")
    for name in names:
        post_as(host, "/seats", name=name)
    at_320(host, "dz-setup")
    ids = ids_by_name(host)
    for name, character in zip(names, CHARACTERS):
        post_as(host, "/act/character.pick", seat=ids[name], character=character)
    post_as(host, "/act/locations.draw")
    post_as(host, "/act/initiative.record", seat=ids[names[0]])
    post_as(host, "/act/order.confirm", order=",".join(str(ids[n]) for n in names))
    dz_next(host)
    at_320(host, "dz-movement")
    dz_reveal_all(host, names, ids, state_of(host)["locations"][-1]["name"])
    cards = [(kind, 6 + n, 1 + n % 4, COLORS[n]) for n, kind in enumerate(["Booze", "Guns", "Sex", "Smarts", "Booze"])]
    dz_mission(host, ids, cards, {"Constantine": 1})
    post_as(host, "/act/upper_hand.change", seat=ids["Constantine"], delta=12)  # a two-digit label
    at_320(host, "dz-mission")


@pytest.mark.parametrize("mode", ["scores", "full", "dealt"])
def test_the_blackmail_host_page_at_320(live_server, new_phone, mode):
    host, code = host_with_seats(live_server, new_phone, "blackmail", ["Constantine", "Bo", "Cy", "Dee"])
    at_320(host, f"bm-{mode}-setup")
    ids = ids_by_name(host)
    post_as(host, "/act/game.start", to=state_of(host)["to"]["start"], tracking=mode, first_player=ids["Constantine"])
    at_320(host, f"bm-{mode}-round")


@pytest.mark.parametrize("seats", [3, 4])
def test_the_assassins_host_page_at_320(live_server, new_phone, seats):
    names = ["Constantine", "Bo", "Cy", "Dee"][:seats]
    host, code = host_with_seats(live_server, new_phone, "assassins", names)
    at_320(host, f"aoa-{seats}-setup")
    ids = ids_by_name(host)
    if seats == 3:
        post_as(host, "/act/ghost.record", card1="Cook", card2="Soldier", card3="Card E", card4="Magician")
    for name in names:  # mid-draft: everyone's first pick made
        post_as(host, "/act/draft.pick", seat=ids[name], row="front", card="Cook")
    at_320(host, f"aoa-{seats}-draft")
    post_as(host, "/act/resolve.step", step="next", to="1", force="1")
    post_as(host, "/act/points", seat=ids["Constantine"], delta=3, reason="Cook")
    at_320(host, f"aoa-{seats}-resolve")

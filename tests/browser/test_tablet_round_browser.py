"""A whole round played from the tablet alone: a Danger Zone round at 5 seats and an
Age of Assassins round at 3 seats with the ghost, every step tapped on a device the host let
in (it has no host rights), each seat's step on its own panel, the steps of no seat in the
middle. The host's device does only the host-only steps the README lists, and the test fails
if it is asked for anything else. The log says who did what: each seat "at the tablet"."""

import os
import re

from browser_steps import Host, tablet
from helpers import ROOT

SHOTS = os.environ.get("TABLET_SHOTS")  # a folder: save what the test saw, to look at
README = ROOT / "README.md"

# The host-only steps the test may ask of the host's device, by what it posts, and the words
# the README's tablet bullet lists them with.
HOST_STEPS = {
    "/seats": "adding",  # seats for the players, before play
    "/tablet/let-in": "letting a device in",
    "/act/locations.draw": "drawing the Locations",
    "/act/order.confirm": "confirming the clockwise order",
}


def tablet_bullet():
    text = README.read_text()
    start = text.index("- **A tablet in the middle**")
    end = min(i for i in (text.find("\n- **", start + 1), text.find("\n\n", start)) if i > 0)
    return " ".join(text[start:end].split())


class HostDevice(Host):
    """The host's own device: it may only take the host-only steps the README lists."""

    def post(self, path, **form):
        assert path in HOST_STEPS, f"the round needed the host page for {path}"
        assert HOST_STEPS[path] in tablet_bullet(), f"the README does not list {HOST_STEPS[path]!r}"
        super().post(path, **form)

    def let_in(self, device):
        """The host lets `device` in as the tablet (the link a device opens once)."""
        assert HOST_STEPS["/tablet/let-in"] in tablet_bullet()
        response = self.page.request.post(
            f"{self.base}/t/{self.code}/tablet/let-in", form={"csrf": self.csrf}, headers={"Origin": self.base}
        )
        link = re.search(r"data-let-in-link>([^<]+)<", response.text()).group(1)
        device.goto(link)
        device.click("[data-claim]")
        device.wait_for_selector(".tb-board")

    def log(self):
        return self.page.request.get(f"{self.base}/t/{self.code}/state.json").json()["log"]


def tap(page, selector):
    """Tap and wait until the table has moved on (or a refusal shows, which fails the test)."""
    before = int(page.get_attribute("#live-body", "data-version"))
    page.click(selector)
    page.wait_for_function(
        """v => +document.querySelector('#live-body').dataset.version > v
                                   || !!document.querySelector('#live-body > p.error')""",
        arg=before,
    )
    refused = page.locator("#live-body > p.error")
    assert not refused.count(), refused.first.inner_text()


def one_board(page):
    """Every answer morphed into the one board: none nested in it (its ids would double)."""
    assert page.evaluate("document.querySelectorAll('[id=live-body]').length") == 1


def shot(page, name):
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, f"round-{name}.png"))


def seat_names(host):
    return {s["id"]: s["name"] for s in host.state()["seats"]}


def assert_all_at_the_tablet(host, skip=("seat.join",)):
    """Every entry of the game is a seat's, made at the tablet, except the host-only steps."""
    host_kinds = {path.rsplit("/", 1)[-1] for path in HOST_STEPS if path.startswith("/act/")}
    for entry in host.log():
        if entry["kind"] in skip or entry["kind"] in host_kinds:
            continue
        assert entry["who"].endswith(" (at the tablet)"), entry


def test_a_danger_zone_round_at_five_seats_from_the_tablet_alone(live_server, new_phone):
    host = HostDevice(tablet(new_phone, 1280, 800), live_server.url, "danger-zone")
    ids = host.seats(["Ana", "Bo", "Cy", "Dee", "Ev"])
    names = seat_names(host)
    # The host's own steps: the Locations (again until Malory's Office is in play, so an Event
    # card is drawn this round) and the seating order.
    host.post("/act/locations.draw")
    while "Malory's Office" not in [loc["name"] for loc in host.state()["locations"]]:
        host.post("/act/locations.draw")
    host.post("/act/order.confirm", order=",".join(map(str, ids)))

    page = tablet(new_phone, 1280, 800)
    page.on("dialog", lambda dialog: dialog.accept())
    host.let_in(page)

    # Setup: each seat picks its character and rolls its own dice for the Initiative; the
    # tied roll again until one is highest.
    for seat, character in zip(ids, ("Archer", "Lana", "Cyril", "Pam", "Cheryl")):
        page.select_option(f"#tb-s{seat} select[name=character]", character)
        tap(page, f"#tb-s{seat} button[data-main]")
    while page.locator("[data-initiative-roll]").count():
        tap(page, "[data-initiative-roll] >> nth=0")
    page.wait_for_selector("[data-initiative-won]")
    shot(page, "dz-initiative")
    rolloff = host.state()["initiative"]["rolloff"]
    assert [r["seat"] for r in rolloff["rounds"][0]] == ids  # in seat order, every seat
    assert page.locator(".tb-rolloff li").count() == len(rolloff["rounds"])  # each roll, ties too
    tap(page, "[data-middle-main]")  # Start round 1
    assert host.state()["phase"] == "Movement"

    # Movement: each seat reveals on its own panel, in the reveal order. The first two go to
    # Malory's Office: the first draws the Event card, the second rolls a die for the foe.
    state = host.state()
    order = state["reveal_order"]
    others = [loc["name"] for loc in state["locations"] if loc["name"] != "Malory's Office"]
    places = ["Malory's Office", "Malory's Office"] + others[:3]
    for seat, place in zip(order, places):
        tap(page, f'#tb-s{seat} button[name=location][value="{place}"]')
    drawer, foe = order[0], order[1]
    page.click(f"#tb-s{drawer} [data-event-open]")
    page.wait_for_selector(f"#tb-over-s{drawer} [data-event=rona_thorne] button", state="visible")
    shot(page, "dz-event")
    tap(page, f"#tb-over-s{drawer} [data-event=rona_thorne] button")
    page.wait_for_selector(f"#tb-s{drawer} [data-event-done]")
    tap(page, f"#tb-s{foe} [data-foes-roll]")
    page.wait_for_selector(f"#tb-s{foe} [data-my-roll]")
    assert host.state()["last_roll"]["dice"] == 1
    # A card hands Ev the Initiative Token; Dee insults someone for +1 Upper Hand.
    ev, dee = ids[4], ids[3]
    page.click(f"#tb-s{ev} details.tb-more > summary")
    tap(page, f"#tb-s{ev} button[value=initiative]")
    tap(page, f"#tb-s{dee} button[aria-label='Dee +1 Upper Hand']")
    shot(page, "dz-movement")
    tap(page, "[data-middle-main]")  # Start the Mission
    state = host.state()
    assert state["phase"] == "Mission" and state["initiative"]["seat"] == ev

    # Mission: the Challenges are typed in the middle, as the Mission Leader.
    leader = state["mission_leader"]["seat"]
    assert page.locator(f"[data-draw-as='{leader}']").count() == 1
    drawn = (("Booze", 7), ("Guns", 8), ("Sex", 6))
    for row, (kind, difficulty) in enumerate(drawn, 1):
        page.select_option(f"select[name=type_{row}]", kind)
        page.fill(f"input[name=difficulty_{row}]", str(difficulty))
        page.select_option(f"select[name=reward_{row}]", "2")
    page.check("input[name=personal_4]")  # a Personal Challenge
    page.fill("input[name=difficulty_4]", "9")
    page.select_option("select[name=reward_4]", "3")
    shot(page, "dz-draw")
    tap(page, "[data-show-challenges]")
    draw = [e for e in host.log() if e["kind"] == "challenge.draw"][-1]
    assert draw["who"] == f"{names[leader]} (at the tablet)"

    # Each seat in the roll order opens its roll from its panel (a sheet turned to it), rolls
    # the app's dice, then taps the Challenge it made (or Missed), until the Mission is over.
    made = 0
    while (roller := host.state()["whose_turn"]) is not None:
        page.click(f"#tb-s{roller} [data-roll-open]")
        tap(page, f"#tb-over-s{roller} button[name=dice][value='2']")
        page.wait_for_selector(f"#tb-over-s{roller} [data-my-roll]", state="visible")
        if made == 0:
            shot(page, "dz-roll")
        tap(page, f"#tb-over-s{roller} [data-challenges] button{'[data-first]' if made % 2 == 0 else '[data-missed]'}")
        made += 1
    tap(page, "[data-middle-main]")  # End the Mission
    assert host.state()["phase"] == "Clean-up"
    tap(page, "[data-middle-main]")  # Start round 2
    state = host.state()
    assert (state["round"], state["phase"]) == (2, "Movement")
    assert_all_at_the_tablet(host)
    one_board(page)
    rolls = [e for e in host.log() if e["kind"] == "initiative.seat_roll"]
    assert {e["who"] for e in rolls} == {f"{names[s]} (at the tablet)" for s in ids}


def test_an_assassins_round_with_the_ghost_from_the_tablet_alone(live_server, new_phone):
    host = HostDevice(tablet(new_phone, 820, 1180), live_server.url, "assassins")
    ana, bo, cy = host.seats(["Ana", "Bo", "Cy"])
    page = tablet(new_phone, 820, 1180)
    page.on("dialog", lambda dialog: dialog.accept())
    host.let_in(page)

    # The ghost is dealt by hand; her face-up cards are typed in the middle.
    for i, card in enumerate(("Magician", "Soldier", "Cook", "Grave Digger"), 1):
        page.fill(f"input[name=card{i}]", card)
    shot(page, "aoa-ghost-deal")
    tap(page, "[data-ghost-record]")
    page.wait_for_selector("[data-kill-ghost]")
    # The draft is played with the real cards (picks on a phone are secret): resolve from 1.
    tap(page, "[data-start-resolve]")
    for i, card in enumerate(("Magician", "Chef", "Soldier"), 1):
        page.fill(f"input[name=down{i}]", card)
    tap(page, "[data-ghost-down]")

    tap(page, f"#tb-s{ana} button[aria-label='Ana +2 preliminary']")  # number 1
    tap(page, "button[aria-label='The ghost +3 preliminary']")
    tap(page, "[data-next]")  # number 2
    tap(page, f"#tb-s{bo} button[aria-label='Bo +3 preliminary']")
    tap(page, f"#tb-s{cy} button[aria-label='Cy +1 preliminary']")
    tap(page, "[data-kill-ghost]")  # she loses her 3
    tap(page, "[data-next]")  # number 3
    shot(page, "aoa-resolving")
    tap(page, "[data-kill-instead]")  # Cy dies in her place
    page.click(f"#tb-s{bo} details.tb-more > summary")
    tap(page, f"#tb-s{bo} button[aria-label='Bo +1 real']")
    # The fold a sent form sits in closes when its answer comes (morph.js), which may be after
    # the stream has shown the change: open it again once it has closed.
    page.wait_for_function("s => !document.querySelector(s).open", arg=f"#tb-s{bo} details.tb-more")
    page.click(f"#tb-s{bo} details.tb-more > summary")
    tap(page, f"#tb-s{bo} button[aria-label='Take a penalty chip: Bo']")
    for _number in (4, 5, 6):
        tap(page, "[data-next]")
    tap(page, "[data-bank]")
    state = host.state()
    real = {s["name"]: s["real"] for s in state["seats"]}
    assert state["round"] == 2 and real == {"Ana": 2, "Bo": 4, "Cy": 0}
    assert state["ghost"]["face_up"] is None  # a new round: deal her again
    shot(page, "aoa-banked")
    assert_all_at_the_tablet(host)
    one_board(page)
    kinds = {e["kind"] for e in host.log()}
    assert {"ghost.record", "ghost.down", "kill", "points", "points.real", "penalty", "bank"} <= kinds

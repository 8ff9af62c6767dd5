"""The tablet in the middle, in real browsers: an arrangement of its panels reaches it at
once, and a seat's sheet closes when its step is done (and stays open for the roll a card
it applied asks for)."""

from browser_steps import Host, let_in, tablet


def test_an_arrangement_reaches_the_tablet_in_the_middle_at_once(live_server, new_phone):
    host_page = tablet(new_phone, 1024, 768)
    host = Host(host_page, live_server.url, "generic")
    ana, bo, cy = host.seats(["Ana", "Bo", "Cy"])
    device = tablet(new_phone, 1024, 768)
    let_in(host_page, live_server.url, host.code, device)
    device.wait_for_selector(f"#tb-s{bo}")
    host_page.goto(f"{live_server.url}/t/{host.code}/tablet")  # the host arranges on the laptop
    host_page.click("#tb-menu > summary")
    host_page.click("#tb-arrange > summary")
    host_page.uncheck(f"input[name=show_{bo}]")
    host_page.click("[data-save-layout]")
    host_page.wait_for_function(f"() => !document.querySelector('#tb-s{bo}')")
    # Nobody touches the tablet in the middle, and nothing else changes at the table.
    device.wait_for_function(f"() => !document.querySelector('#tb-s{bo}')")
    assert device.locator(f"#tb-s{ana}").count() == 1 and device.locator(f"#tb-s{cy}").count() == 1


def dz_mission_with_event(host, seats):
    """Danger Zone in round 1's Mission, at the roll of the seat that drew the Event card (the
    first into Malory's Office) and has not applied it: that seat."""
    for seat, character in zip(seats, ("Archer", "Lana", "Cyril")):
        host.post("/act/character.pick", seat=str(seat), character=character)
    for _ in range(80):
        host.post("/act/locations.draw")
        if "Malory's Office" in [loc["name"] for loc in host.state()["locations"]]:
            break
    host.post("/act/initiative.record", seat=str(seats[0]))
    host.post("/act/order.confirm", order=",".join(map(str, seats)))
    host.post("/act/round.next", to=host.state()["next_step"])
    order = host.state()["reveal_order"]
    for seat in order:
        host.post("/act/movement.enter", seat=str(seat), location="Malory's Office")
    host.post("/act/round.next", to=host.state()["next_step"], force="1")
    host.post(
        "/act/challenge.draw",
        type_1="Booze",
        difficulty_1="7",
        reward_1="2",
        type_2="Guns",
        difficulty_2="8",
        reward_2="2",
    )
    drawer = order[0]
    while (roller := host.state()["whose_turn"]) not in (drawer, None):
        host.post("/act/challenge.fail", seat=str(roller))
    assert host.state()["whose_turn"] == drawer and host.state()["event_previews"]["drawer"] == drawer
    return drawer


def roll_sheet_open(live_server, new_phone):
    """The host's tablet page with the Event card's drawer's roll sheet open:
    (host, page, drawer, the sheet's selector)."""
    page = tablet(new_phone, 1024, 768)
    host = Host(page, live_server.url, "danger-zone")
    drawer = dz_mission_with_event(host, host.seats(["Ana", "Bo", "Cy"]))
    page.goto(f"{live_server.url}/t/{host.code}/tablet")
    page.click(f"#tb-s{drawer} [data-roll-open]")
    return host, page, drawer, f"#tb-over-s{drawer}"


def test_a_tablet_sheet_closes_when_its_roll_is_done(live_server, new_phone):
    """The seat that drew the Event card rolls with it still to apply: its one sheet holds the
    card and the dice. Choosing the Challenge ends the roll, so the sheet closes, and the card
    waits on the seat's panel. Applying the card first keeps the sheet open for the roll."""
    host, page, drawer, sheet = roll_sheet_open(live_server, new_phone)
    page.wait_for_selector(f"{sheet} button[name=dice][value='2']", state="visible")
    page.click(f"{sheet} button[name=dice][value='2']")
    page.wait_for_selector(f"{sheet} [data-my-roll]", state="visible")
    page.click(f"{sheet} [data-challenges] button[data-missed]")
    page.wait_for_function(
        f"() => !document.querySelector('{sheet}') || !document.querySelector('{sheet}').checkVisibility()"
    )
    assert host.state()["whose_turn"] != drawer
    assert page.locator(f"#tb-s{drawer} [data-event-open]").is_visible()  # the card still waits


def test_a_sheet_applied_its_card_stays_open_for_the_roll(live_server, new_phone):
    host, page, drawer, sheet = roll_sheet_open(live_server, new_phone)
    card = page.locator(f"{sheet} [data-event] button").first
    card.wait_for(state="visible")
    card.click()
    page.wait_for_selector(f"#tb-s{drawer} [data-event-done]")
    assert page.locator(f"{sheet} button[name=dice][value='2']").is_visible()

"""The tablet through the routes: the ghost left undealt in a 3-player game keeps her steps
on the tablet and the host page, and an arrangement of the panels is a change of the table
like any other."""

import html as html_lib
import re

from helpers import act_forms


def ok(response):
    assert response.status_code < 400, response.get_data(as_text=True)[:600]
    return response


def text(response):
    return html_lib.unescape(response.get_data(as_text=True))


def let_in_tablet(host, app):
    """The host's own device opens the tablet page (it is let in as the host's)."""
    ok(host.page("/tablet"))


def test_the_ghost_undealt_keeps_her_steps_on_the_tablet_and_the_host_page(host, join, app):
    host.start("assassins")
    for name in ("Ana", "Bo", "Cy"):
        join(host, name)
    # "Drafted: resolve from 1" before her face-up cards were typed.
    ok(host.act("resolve.step", step="next", to="1", force="1", page="host"))
    assert host.state()["state"]["ghost"]["face_up"] is None
    for path in ("/host", "/tablet"):
        forms = act_forms(host, path)
        ghost = {kind for kind, fields in forms.items() for f in fields if f.get("seat") == "ghost"}
        assert {"points", "points.real", "kill"} <= ghost, (path, ghost)
        assert "ghost.record" in forms, path  # her cards can still be typed
    tablet = text(host.page("/tablet"))
    assert "type the ghost's face-up cards: she plays this round too" in tablet
    # Typed late, they count for the round, from either page.
    form = act_forms(host, "/tablet")["ghost.record"][0]
    data = {k: v for k, v in form.items() if k != "csrf"}
    data.update(card1="Magician", card2="Soldier", card3="Cook", card4="Grave Digger")
    seat = re.search(r"/tablet/act/(\d+)/", text(host.page("/tablet"))).group(1)
    ok(host.post(f"/tablet/act/{seat}/ghost.record", data))
    assert [c["name"] for c in host.state()["state"]["ghost"]["face_up"]] == [
        "Magician",
        "Soldier",
        "Cook",
        "Grave Digger",
    ]
    # Once known they stay for the round.
    again = host.act("ghost.record", card1="Chef", card2="Soldier", card3="Cook", card4="Wizard", page="host")
    assert again.status_code == 422 and "already dealt" in text(again)


def test_an_arrangement_is_a_new_version_of_the_table(host, join, app):
    host.start("generic")
    ana, bo = join(host, "Ana"), join(host, "Bo")
    ok(host.page("/tablet"))
    before = host.state()["log"][-1]["id"]
    ok(host.post("/tablet/layout", {f"show_{ana.seat}": "1"}))
    log = host.state()["log"]
    assert log[-1]["id"] > before and log[-1]["text"] == "arranged the panels on the tablet"
    assert log[-1]["undo_right"] is None
    page = text(host.page("/tablet"))
    assert f'id="tb-s{bo.seat}"' not in page and f'id="tb-s{ana.seat}"' in page

"""Jinja helpers every screen's templates use: a partial with its own values, a seat by id,
the chart of a game that has ended."""

from flask import current_app
from jinja2 import pass_context
from markupsafe import Markup

from companion.charts import shown
from companion.db import get_db
from companion.games.base import STEP_FIELD, may_undo


@pass_context
def partial(ctx, template, **values):
    """`template` rendered with the caller's context plus `values`: an include with arguments."""
    context = {**ctx.get_all(), **values}
    return Markup(current_app.jinja_env.get_template(template).render(context))


def seat_of(seats, seat_id):
    """The seat with this id in a view's list of seats, or None."""
    return next((seat for seat in seats if seat["id"] == seat_id), None)


def only(mapping, *names):
    """The named entries of a mapping, as a dict."""
    return {name: mapping[name] for name in names}


def end_chart(table, folded):
    """The table's last game once it has ended (charts.shown.at_the_end), or None."""
    return shown.at_the_end(get_db, table, folded)


def init_app(app):
    app.jinja_env.globals.update(
        partial=partial, seat_of=seat_of, may_undo=may_undo, step_field=STEP_FIELD, end_chart=end_chart
    )
    app.jinja_env.filters.update(only=only)

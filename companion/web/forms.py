"""The form and the rules link every board repeats: `m.act_form`, `m.post_form` and `m.help`
in the templates.

Python, not Jinja macros: a macro file sees the page's act_base, form token and page kind
only when imported "with context", and such an import runs the file again on every render:
for every phone, on every change (about a sixth of a phone's render). These read the same
values from the calling template's context instead.

A form posts with htmx into the live fragment and still works as a plain form (a phone
without script). Its address is written once, in `action`: its `hx-post` is empty (htmx would
post to the page's own address; static/js/actions.js sends it to the action), which spares every
form sent live its address a second time. The tablet posts each seat's panel to that seat's
own address, so it makes an `m` of its own per panel: `{% set m = forms(act_base) %}`.
"""

from jinja2 import pass_context
from markupsafe import Markup, escape


def _page_field(page):
    """The page kind a form says it came from: none from a phone's own page, which is what a
    change's answer is when a form says none (changes.page_of)."""
    if page == "player" or not page:
        return ""
    return f'<input type="hidden" name="page" value="{escape(page)}">'


# An action's form sends the step the page shows (games.base.check_named_step): one field of
# the live fragment (tables/_live.html), so a new turn changes one region, not every form.
STEP_INCLUDE = ' hx-include="#live-step"'


class Forms:
    def __init__(self, act_base=None):
        self.act_base = act_base  # None: the render's own act_base

    @pass_context
    def act_form(self, ctx, kind, class_="", confirm=None, url=None, caller=None, id=None, named_step=None):
        """A form for the action `kind` (its address built from act_base), or to `url`; with
        an `id` (first, so the form can be a piece a live stream sends alone: web/pages.py). An
        action's form names the step it was drawn at; another form, with `named_step`."""
        target = escape(url or (self.act_base or ctx.get("act_base", "")) + kind)
        csrf = ctx.get("csrf")
        return Markup(
            "".join(
                (
                    f'<form id="{escape(id)}" method="post"' if id else '<form method="post"',
                    f' action="{target}" hx-post',
                    f' class="{escape(class_)}"' if class_ else "",
                    f' hx-confirm="{escape(confirm)}"' if confirm else "",
                    STEP_INCLUDE if kind or named_step else "",
                    ">",
                    f'<input type="hidden" name="csrf" value="{escape(csrf)}">' if csrf else "",
                    _page_field(ctx.get("page", "")),
                    caller() if caller else "",
                    "</form>",
                )
            )
        )

    @pass_context
    def post_form(self, ctx, url, class_="", confirm=None, caller=None, id=None, named_step=False):
        """The same form to any address (seat admin, the ghost deal: an action, with `named_step`)."""
        return self.act_form.__func__(self, ctx, None, class_, confirm, url, caller, id, named_step)

    @pass_context
    def help(self, ctx, entry, label="?"):
        """The "?" that opens the rules entry `entry` of the table's game."""
        entry = escape(entry)
        return Markup(
            f'<a class="help" href="/rules/{escape(ctx["table"].game)}/{entry}"'
            f' data-help aria-label="Rules: {entry}">{escape(label)}</a>'
        )

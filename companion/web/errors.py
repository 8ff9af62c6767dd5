"""Every error reaches a person as a sentence: a page, or for htmx a message in the toast."""

import sqlite3

from flask import current_app, render_template, request
from werkzeug.exceptions import HTTPException, InternalServerError, ServiceUnavailable

FRIENDLY = {
    400: "That request did not make sense to the app.",
    403: "You are not allowed to do that here.",
    404: "There is nothing at this address.",
    405: "That is not something this address does.",
    413: "That is far too much text.",
    422: "That move was refused.",
    429: "Too many tries. Wait a minute and try again.",
    500: "Something broke on the server. Nothing you did was lost; reload and try again.",
    503: "The table cannot save changes right now. Nothing already saved is lost.",
}


def message_for(error):
    description = getattr(error, "description", None)
    # Werkzeug's stock descriptions are for developers; ours are full sentences for players.
    default = type(error).description if isinstance(error, HTTPException) else None
    if description and description != default:
        return description
    return FRIENDLY.get(getattr(error, "code", 500), FRIENDLY[500])


def storage_error(error):
    """The disk is full or read-only: say so; the transaction was rolled back, nothing is lost."""
    current_app.logger.error("database error: %s", error)
    text = str(error).lower()
    if "locked" in text:  # another writer held the database past the wait: nothing was applied
        return handle(
            ServiceUnavailable(
                "The table is busy saving other changes and could not save this one. Nothing was applied; try again."
            )
        )
    if any(word in text for word in ("full", "readonly", "read-only", "disk i/o")):
        return handle(
            ServiceUnavailable(
                "The table cannot save changes right now: the server's disk is full or read-only. "
                "Everything saved before is kept; tell the host."
            )
        )
    return handle(InternalServerError())


def postgres_error(error):
    """PostgreSQL lost, restarting or too busy: the transaction did not commit, nothing is
    lost, and the pool replaces dead connections, so the next tap after it is back works."""
    import psycopg

    current_app.logger.error("database error: %s", error)
    if isinstance(error, psycopg.errors.LockNotAvailable):
        return handle(
            ServiceUnavailable(
                "The table is busy saving other changes and could not save this one. Nothing was applied; try again."
            )
        )
    if isinstance(error, psycopg.OperationalError):
        return handle(
            ServiceUnavailable(
                "The table cannot reach its database right now. Nothing was applied and everything "
                "saved before is kept; try again in a moment."
            )
        )
    return handle(InternalServerError())


def handle(error):
    if not isinstance(error, HTTPException):
        current_app.logger.exception("unexpected error", exc_info=error)
        error = InternalServerError()
    code = error.code or 500
    message = message_for(error)
    if request.headers.get("HX-Request"):
        body = render_template("_toast.html", message=message)
        return body, code, {"HX-Retarget": "#toast", "HX-Reswap": "innerHTML"}
    if request.path.endswith(".json"):
        return {"error": message}, code
    if code == 404 and request.view_args and "code" in request.view_args:
        return render_template("tables/unknown.html", message=message, code=request.view_args["code"]), 404
    return render_template("error.html", message=message, status=code), code


def init_app(app):
    app.register_error_handler(HTTPException, handle)
    app.register_error_handler(sqlite3.Error, storage_error)
    if app.config.get("DATABASE_URL"):  # psycopg is imported only when it is used
        import psycopg

        app.register_error_handler(psycopg.Error, postgres_error)
    app.register_error_handler(Exception, handle)

"""Table Companion: bookkeeping for physical games, shared live between phones."""

import mimetypes
import os
import re
import secrets
from pathlib import Path

from flask import Flask
from flask.templating import Environment
from htmx_flask import Htmx

PACKAGE = Path(__file__).resolve().parent


def _asset_dir(name):
    """templates/ and static/ sit beside the package in a checkout and inside it in a wheel."""
    inside = PACKAGE / name
    return inside if inside.is_dir() else PACKAGE.parent / name


def default_data_dir():
    return os.environ.get("COMPANION_DATA_DIR") or str(PACKAGE.parent / "data")


def _key_file(data_dir, name, make):
    """A key kept in the data dir, so it survives a restart and every process that shares
    the folder reads the same one: written whole under a temporary name, then linked into
    place, so two processes starting at once cannot end up with different keys."""
    path = Path(data_dir) / name
    if not path.exists():
        temp = path.with_name(f".{name}.{os.getpid()}.{secrets.token_hex(4)}")
        temp.write_text(make())
        temp.chmod(0o600)
        try:
            os.link(temp, path)
        except FileExistsError:
            pass  # another process got there first: use its key
        finally:
            temp.unlink()
    return path.read_text().strip()


_INDENTATION = re.compile(r"\n[ \t]*(?:\n[ \t]*)*")  # a line break, blank lines, the next indent


class _Templates(Environment):
    """Jinja with two shortcuts: a template's globals are the environment's dict (make_globals),
    and a dict's key is read before its attribute. The games' views are plain dicts, and Jinja
    reads `seat.name` by trying the attribute first, which for a dict raises an AttributeError
    (thousands per render) before it looks the key up. A key that is not a dict method is
    looked up first: the same result, without the exception."""

    _dict_names = frozenset(dir(dict))

    def preprocess(self, source, name=None, filename=None):
        """A template's indentation and blank lines, left out before it is compiled: a page
        shows a run of white space between tags as one, so a live message is a quarter
        smaller for nothing (a phone parses less of it). A template with white space that
        shows (a <pre>, a <textarea>) is left as written."""
        source = super().preprocess(source, name, filename)
        if "<pre" in source or "<textarea" in source:
            return source
        return _INDENTATION.sub("\n", source)

    def make_globals(self, d):
        """A template's globals: the environment's own dict, not Jinja's ChainMap over it.
        Every render copies its template's globals into a new context, and a ChainMap gives
        up each of its keys in Python, paid by every part and row a change renders. Still
        live, as the ChainMap was; no template here is loaded with globals of its own, and
        one that is keeps Jinja's way."""
        return self.globals if not d else super().make_globals(d)

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in self._dict_names:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)


# The page script is ES modules, which a browser runs only as JavaScript: a host whose system
# maps .js to text/plain (some Windows registries) would otherwise serve it so.
mimetypes.add_type("text/javascript", ".js")


def create_app(test_config=None):
    app = Flask(__name__, template_folder=str(_asset_dir("templates")), static_folder=str(_asset_dir("static")))
    app.jinja_environment = _Templates
    data_dir = (test_config or {}).get("DATA_DIR") or default_data_dir()
    Path(data_dir).mkdir(parents=True, exist_ok=True)
    app.config.from_mapping(
        DATA_DIR=data_dir,
        DATABASE=str(Path(data_dir) / "companion.sqlite3"),
        DATABASE_URL=None,  # postgresql://… for several processes; None keeps SQLite above
        PUBLIC_URL=os.environ.get("COMPANION_PUBLIC_URL"),
        HEARTBEAT_SECONDS=15,
        MAX_CONTENT_LENGTH=64 * 1024,
        SEND_FILE_MAX_AGE_DEFAULT=3600,
    )
    if test_config:
        app.config.update(test_config)
    # Every process behind one address must sign cookies with the same key: from the
    # environment (processes on several machines), else a file in the shared data dir.
    app.config.setdefault("SECRET_KEY", None)
    if not app.config["SECRET_KEY"]:
        app.config["SECRET_KEY"] = os.environ.get("COMPANION_SECRET_KEY") or _key_file(
            data_dir, "secret.key", lambda: secrets.token_hex(32)
        )
    # Whoever runs the server may change the box text every new table starts with (the
    # address with this key is printed by `companion serve`).
    app.config.setdefault("ADMIN_KEY", os.environ.get("COMPANION_ADMIN_KEY"))
    if not app.config["ADMIN_KEY"]:
        app.config["ADMIN_KEY"] = _key_file(data_dir, "admin.key", lambda: secrets.token_urlsafe(12))

    Htmx(app)
    from companion import access, db, live
    from companion.access import door
    from companion.lookup import routes as lookup_routes
    from companion.nights import hosting
    from companion.nights import routes as night_routes
    from companion.tablet import routes as tablet_routes
    from companion.web import errors, forms, game_routes, headers, templating
    from companion.web import routes as table_routes

    app.jinja_env.globals.update(m=forms.Forms(), forms=forms.Forms)
    templating.init_app(app)

    db.init_app(app)
    errors.init_app(app)
    headers.init_app(app)
    app.before_request(access.same_origin_only)
    door.init_app(app)  # every /t/<code>/… request: its table on g, once
    app.register_blueprint(table_routes.bp)
    app.register_blueprint(live.bp)
    app.register_blueprint(lookup_routes.bp)
    app.register_blueprint(night_routes.bp)  # game night: play again, following, the night page
    app.register_blueprint(hosting.bp)  # co-hosts, handing over, recovery, hosted tables, records
    app.register_blueprint(tablet_routes.bp)
    game_routes.init_app(app)  # each game's own routes.py, found by name
    return app

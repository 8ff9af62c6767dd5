"""One way down: no import circle inside companion/ (imports inside functions count too), and
a game's pure modules import neither Flask nor the web layer."""

import ast

import pytest

from helpers import ROOT as CHECKOUT

ROOT = CHECKOUT / "companion"


def module_name(path):
    parts = list(path.relative_to(ROOT.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {module_name(path): path for path in ROOT.rglob("*.py")}


def imports(name, path):
    """Every companion module this one imports, anywhere in its code."""
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")
                anchor = anchor[: len(anchor) - node.level + 1]
                base = ".".join(anchor + ([base] if base else []))
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                found.add(sub if sub in MODULES else base)
    return {m for m in found if m in MODULES and m != name}


GRAPH = {name: imports(name, path) for name, path in MODULES.items()}


def cycles():
    """Strongly connected groups of more than one module (Tarjan)."""
    index, low, stack, on, groups, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in GRAPH[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(GRAPH):
        if v not in index:
            visit(v)
    return groups


def test_no_import_circle_inside_companion():
    assert cycles() == []


def test_the_check_finds_a_circle(monkeypatch):
    monkeypatch.setitem(GRAPH, "companion.games.base", GRAPH["companion.games.base"] | {"companion.tables.store"})
    assert any("companion.tables.store" in group for group in cycles())


def pure_modules():
    return [name for name in MODULES if name.startswith("companion.games") and not name.endswith(".routes")]


def test_game_rules_import_neither_flask_nor_the_web_layer():
    for name in pure_modules():
        tree = ast.parse(MODULES[name].read_text())
        outside = {
            alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names
        }
        outside |= {
            node.module.split(".")[0]
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module and not node.level
        }
        assert not outside & {"flask", "werkzeug", "jinja2", "htmx_flask", "markupsafe"}, name
        web = {m for m in GRAPH[name] if not m.startswith("companion.games")}
        assert not web, (name, web)  # every companion module outside the games is the web layer


def test_the_app_registers_each_games_routes_and_hooks(app):
    assert {"danger_zone", "blackmail", "assassins"} <= set(app.blueprints)
    assert set(app.extensions["game_hooks"]) == {"blackmail"}


def test_no_module_is_over_500_lines():
    long = {
        name: len(path.read_text().splitlines())
        for name, path in MODULES.items()
        if len(path.read_text().splitlines()) > 500
    }
    assert not long, long


def test_no_two_names_are_a_singular_and_its_plural_or_a_module_and_its_store():
    """A reader tells modules and packages apart by name: never night.py beside nights/, nor
    tablet.py beside tablet_store.py. (The names every game or package repeats, such as
    routes.py and view.py, are one idea each.)"""
    names = {path.stem for path in ROOT.rglob("*.py")} | {
        path.name for path in ROOT.rglob("*") if path.is_dir() and path.name != "__pycache__"
    }
    pairs = [(n, n + ending) for n in sorted(names) for ending in ("s", "es", "_store") if n + ending in names]
    assert pairs == []


def test_one_door_loads_a_tables_request():
    """Only door.py asks for a table by its code and for who is asking; every view reads
    them from there (g.table, door.viewer(), door.require())."""
    callers = {
        name
        for name, path in MODULES.items()
        if name not in ("companion.access.door", "companion.access")
        and ("table_or_404(" in path.read_text() or "current_viewer(" in path.read_text())
    }
    assert callers <= {"companion.web.pages"}, callers  # pages: the viewer a stream's look renders for


def test_each_package_says_what_it_holds():
    for path in ROOT.rglob("__init__.py"):
        assert ast.get_docstring(ast.parse(path.read_text())), path


def test_a_games_routes_reach_the_web_layer_through_one_interface():
    """What a game's routes need of the web layer is companion.web.changes, never its routes."""
    for name in MODULES:
        if name.startswith("companion.games") and name.endswith(".routes"):
            web = {m for m in GRAPH[name] if m.startswith("companion.web")}
            assert web <= {"companion.web.changes"}, (name, web)


def test_every_game_meets_the_interface_and_a_module_that_does_not_is_refused():
    import types

    from companion import games
    from companion.games import interface

    for module in games.GAMES.values():
        assert isinstance(module, interface.Game), module.SLUG
        assert all(hasattr(module, name) for name in interface.OPTIONAL)
    half = types.ModuleType("half")
    half.SLUG, half.TITLE = "half", "Half a game"
    with pytest.raises(TypeError, match="lacks MIN_SEATS, MAX_SEATS, KINDS, SHARED, NOT_SHARED, new_state"):
        interface.check(half)

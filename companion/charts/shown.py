"""What the screens and exports take from the charts: the table's last game at its end (every
phone, the host page, the table screen), each game of a night, and the series as CSV rows.

A chart is read from scores the whole table may see (series.py), never from a hand or a
secret, so one drawing serves every kind of viewer.
"""

from companion.charts import bgstats, series, svg
from companion.nights import records
from companion.tables import store

KEEP_AT_MOST = 1024
_kept = {}  # (table id, code) -> (version, what the game's end shows, or None)


def at_the_end(connect, table, folded):
    """The table's last game once it has ended, or None: {"number", "drawn" (svg.drawing),
    "web" (the BG Stats link)}. A live fragment is rendered for every kind of viewer on every
    change, so the log is read again only once per version, and connect() (a database
    connection) is asked for only then: a stream's render during play needs none."""
    if not (records.game_over(table, folded) or folded.night.get("next")):
        return None  # the scoreboard ends when the night moves on; the others say so themselves
    key = (table.id, table.code)  # as pages.public_view: ids repeat across test databases
    kept = _kept.get(key)
    if kept is None or kept[0] != folded.version:
        if len(_kept) > KEEP_AT_MOST:
            _kept.clear()
        kept = _kept[key] = (folded.version, _ended(connect(), table, folded))
    return kept[1]


def _ended(db, table, folded):
    # Only what the fold has seen: a newer event is the next version's.
    events = [e for e in store.events(db, table) if e["id"] <= folded.version]
    chart = series.charts(events, table.game, table.options)[-1]
    if not chart["finished"]:
        return None  # left unfinished when the night moved on
    result = records.table_games(db, table, folded)[-1]
    return {
        "number": chart["number"],
        "web": bgstats.links(bgstats.play(result, chart))["web"],
        "drawn": svg.drawing(chart, f"end-chart-{chart['number']}"),
    }


def clear():
    _kept.clear()


def night_games(db, night):
    """Beside each of night["games"]: {"drawn" (None before anything moved), "web" (None
    until it ended)}. A play keeps its table's own game number, so a second tap (or the same
    game seen from a later table) is the same play in BG Stats."""
    per_table = {t.code: list(zip(series.table_charts(db, t), bgstats.table_plays(db, t))) for t in night["tables"]}
    return [
        {
            "drawn": svg.drawing(chart, f"night-chart-{game['number']}") if len(chart["steps"]) > 1 else None,
            "web": play["web"],
        }
        for game, (chart, play) in _per_game(night, per_table)
    ]


def night_charts(db, night):
    """The chart of each of night["games"], in its order (for the exports)."""
    per_table = {t.code: series.table_charts(db, t) for t in night["tables"]}
    return [chart for _, chart in _per_game(night, per_table)]


def _per_game(night, per_table):
    """Each of night["games"] with the matching item of its table's list: the night numbers its
    games across the tables, the lists count each table's own (as records.table_games)."""
    seen = {}
    for game in night["games"]:
        index = seen[game["table"]] = seen.get(game["table"], -1) + 1
        yield game, per_table[game["table"]][index]


def csv_rows(numbered, cell):
    """The series under a header, one row per game, seat and step: numbered is [(game number,
    chart)]; cell makes a name safe in a spreadsheet."""
    rows = [["game", *series.CSV_HEADER]]
    for number, chart in numbered:
        rows.extend([number, step, cell(name), measure, value] for step, name, measure, value in series.rows(chart))
    return rows

"""CPU per change counted in instructions: render_cost.py's moves under valgrind's callgrind,
which counts the same work the same however busy the machine is (on these 2-core machines a
timed figure moves by a quarter from one run to the next).

    python bench/instructions.py [--games generic,danger-zone] [--changes 40] [--pages 8]
                                 [--tree PATH]

For each game, two fresh processes under callgrind play render_cost's moves: a warm-up table,
then a table of 10 changes in one, and of 10 + `changes` in the other. The difference over
`changes` is what one change costs (the tap and every open page's stream), the process's
start, the warm-up and the table's set-up cancelling out. The dice and the deal come from a
generator seeded the same in every run, so two trees do the same moves: `--tree` runs
another checkout's bench/render_cost.py and app (the older tree's bench needs the same
signature, `measure(app, game, changes, pages)`). Needs valgrind (`apt-get install
valgrind`); a game takes a minute or two. Prints one JSON line per game: millions of
instructions per change.
"""

import argparse
import json
import pathlib
import re
import subprocess
import sys

GAMES = "generic,danger-zone,assassins,blackmail,blackmail-dealt"
PLAY = """
import random, secrets, sys, tempfile
secrets.SystemRandom = lambda: random.Random(1)  # before the app makes its generator
sys.path[:0] = [{root!r}, {bench!r}]
import render_cost
from companion import create_app
app = create_app({{"DATA_DIR": tempfile.mkdtemp()}})
render_cost.measure(app, {game!r}, 10, {pages})
render_cost.measure(app, {game!r}, {changes}, {pages})
"""


def instructions(root, game, changes, pages):
    """The instructions callgrind counts for a process that plays `changes` at one table."""
    play = PLAY.format(root=str(root), bench=str(root / "bench"), game=game, changes=changes, pages=pages)
    done = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable, "-c", play],
        capture_output=True,
        text=True,
        check=True,
    )
    return int(re.search(r"refs:\s+([\d,]+)", done.stderr).group(1).replace(",", ""))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=GAMES)
    parser.add_argument("--changes", type=int, default=40)
    parser.add_argument("--pages", type=int, default=8)
    parser.add_argument("--tree", default=str(pathlib.Path(__file__).resolve().parent.parent))
    args = parser.parse_args()
    root = pathlib.Path(args.tree).resolve()
    for game in args.games.split(","):
        base = instructions(root, game, 10, args.pages)
        more = instructions(root, game, 10 + args.changes, args.pages)
        per_change = (more - base) / args.changes
        print(
            json.dumps(
                {"game": game, "tree": str(root), "pages": args.pages, "minstr_per_change": round(per_change / 1e6, 2)}
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()

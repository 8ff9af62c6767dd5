#!/usr/bin/env python3
"""Rules search quality over the graded question set (tests/rules_questions.py).

Each question names the entry that answers it; the search must return it in the top 3.
Prints one JSON object per question, then a last line with the summary:
  {"summary": true, "questions": N, "top1": n1, "top3": n3, "hit_rate": n3 / N,
   "top1_rate": n1 / N, "by_game": {...}}

usage: python bench/search_quality.py [--misses]   (--misses: print only the questions missed)
"""

import argparse
import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from companion.lookup import search as rules  # noqa: E402
from rules_questions import QUESTIONS, wanted  # noqa: E402


def grade(row):
    query, game, _ = row
    want = wanted(row)
    found = [(e["game"], e["id"]) for e in rules.search(query, game=game, limit=10)]
    rank = found.index(want) + 1 if want in found else None
    return {
        "q": query,
        "game": game,
        "want": want[1] if game else "/".join(want),
        "rank": rank,
        "top1": rank == 1,
        "top3": rank is not None and rank <= 3,
        "got": [i if game else f"{g}/{i}" for g, i in found[:3]],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--misses", action="store_true", help="print only the questions missed")
    args = ap.parse_args()
    lines = [grade(row) for row in QUESTIONS]
    for line in lines:
        if not args.misses or not line["top3"]:
            print(json.dumps(line, ensure_ascii=False))
    by_game = {}
    for line in lines:
        g = by_game.setdefault(line["game"] or "all", {"questions": 0, "top1": 0, "top3": 0})
        g["questions"] += 1
        g["top1"] += line["top1"]
        g["top3"] += line["top3"]
    n = len(lines)
    top1 = sum(line["top1"] for line in lines)
    top3 = sum(line["top3"] for line in lines)
    print(
        json.dumps(
            {
                "summary": True,
                "questions": n,
                "top1": top1,
                "top3": top3,
                "hit_rate": round(top3 / n, 3),
                "top1_rate": round(top1 / n, 3),
                "by_game": by_game,
            }
        )
    )


if __name__ == "__main__":
    main()

"""Write ``tournament-money-12.jsonl``: the golden tournament night, with money.

    python tests/party/golden/build_money_golden.py

The rounds are those of ``tournament-12.jsonl`` (the same rolls, line for line); what
changes is around them: two prize groups of six, the tournament's payouts (seeds/004:
Most Buncos $100, Most Minis $50, Most Wins $40, Best Costume $25 per team; the team
with the most Buncos $100 and the best-costumed team $25), ties shared, "one prize per
person" and "must be present to win". The host takes the break after round 2 with a
drawing, every card is verified after round 6, Eve goes home before the prizes, and the
host names the costume winners. tests/money/test_money_golden.py pins every amount.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

HERE = Path(__file__).parent
PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
SETUP: dict[str, Any] = {
    "type": "party",
    "name": "Tournament night with prize money",
    "rules": "tournament",
    "players": PLAYERS,
    "groups": {"Team 1": PLAYERS[:6], "Team 2": PLAYERS[6:]},
    "prize_ties": "shared",
    "judged": ["Best Costume"],
    "must_be_present": True,
    "one_prize_per_person": True,
    "money": {"preset": "tournament"},
}
# After round 2 (the tournament's first break): a 10-minute break and a drawing among
# the twelve present; the pick 4 is the fifth candidate, Eve.
BREAK = [
    {"type": "break", "minutes": 10},
    {
        "type": "drawing",
        "name": "Break 1 drawing",
        "candidates": PLAYERS,
        "pick": 4,
        "winner": "Eve",
        "exclude_winners": True,
    },
    {"type": "end_break"},
]
# After round 6: every card verified by its team's checker, Eve leaves, the judges decide.
END = [
    *(
        {"type": "verify", "player": p, "checker": "Staff 1" if i < 6 else "Staff 2"}
        for i, p in enumerate(PLAYERS)
    ),
    {"type": "absent", "player": "Eve"},
    {"type": "judge", "prize": "best_costume", "group": "Team 1", "ranking": ["Eve", "Ann"]},
    {"type": "judge", "prize": "best_costume", "group": "Team 2", "ranking": ["Jo", "Kim"]},
    {"type": "judge", "prize": "group_best_costume", "winner": "Team 1"},
]


def rounds() -> list[dict[str, Any]]:
    """The rolls of the six rounds of tournament-12.jsonl, as they were."""
    lines = (HERE / "tournament-12.jsonl").read_text().splitlines()[1:]
    events = [json.loads(line) for line in lines]
    return [e for e in events if e["type"] == "roll" and "table" in e]  # no roll-offs


def build() -> list[dict[str, Any]]:
    rolls = rounds()
    # rounds 1 and 2 take the first 24 rolls
    return [SETUP, *rolls[:24], *BREAK, *rolls[24:], *END]


if __name__ == "__main__":
    text = "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in build())
    (HERE / "tournament-money-12.jsonl").write_text(text)

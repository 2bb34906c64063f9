"""Write the golden party logs of this folder from the hand-written plans below.

    python tests/party/golden/build_golden.py

Each plan is a 12-player night of one set, written as it happens in the room, one
roll a line: ``TABLE PLAYER FACES`` (``-`` for a roll-off at no table), or
``verify PLAYER CHECKER``, or ``close PLAYER...`` (the host closes the cards, naming
those not verified as they stand). Every roll names its player, so replaying a log checks
that the engine agrees with the seating and the turn order worked out by hand in
tests/party/test_party_golden.py (a roll by anyone else is refused). The comments
say what each roll does under the preset's rules; they are not copied into the logs.

Seating, round 1, in every plan (partners sit opposite: seats 1 & 3, 2 & 4):
table 1 Ann Bea Cat Dee, table 2 Eve Fay Gus Hal, table 3 Ivy Jo Kim Lou.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

PLAYERS = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou"]
HERE = Path(__file__).parent

CLASSIC_SETUP: dict[str, Any] = {
    "type": "party",
    "name": "Classic golden night",
    "rules": "classic",
    "house_rules": {"traveling": "123"},
    "players": PLAYERS,
    "prizes": [
        "most_buncos",
        "most_wins",
        "most_losses",
        "half_and_half",
        "last_bunco",
        "traveling",
    ],
    "prize_ties": "shared",
}

CLASSIC = """
# Round 1 (1's). T1 Ann Bea Cat Dee | T2 Eve Fay Gus Hal | T3 Ivy Jo Kim Lou
2 Eve 144   # +1
2 Eve 234   # miss -> Fay
2 Fay 115   # +2, Fay rolls on
3 Ivy 444   # Mini Bunco +5
3 Ivy 256   # miss -> Jo
1 Ann 111   # Bunco: the head table has 21, the bell rings
2 Fay 135   # Fay was mid-turn: rolls on after the bell, +1
2 Fay 246   # miss: table 2 ends 1-3
1 Ann 156   # Ann rolls on too: +1
1 Ann 345   # miss: round over
# Round 2 (2's). T1 Ann Cat Fay Hal | T2 Bea Dee Ivy Kim | T3 Jo Eve Gus Lou
2 Bea 113   # miss -> Dee
2 Dee 225   # +2
2 Dee 145   # miss -> Ivy
3 Jo 245    # +1
3 Jo 346    # miss -> Eve
3 Eve 256   # +1
3 Eve 114   # miss -> Gus: 1-1
1 Ann 146   # miss -> Cat
1 Cat 222   # Bunco: bell. Table 3 is tied 1-1 and nobody there is mid-turn
1 Cat 555   # after the bell: Mini Bunco +5
1 Cat 346   # miss
3 Jo 214    # roll-off session 1, scorekeeper first: +1
3 Jo 335    # miss
3 Eve 456   # miss
3 Gus 134   # miss
3 Lou 356   # miss: session over, Jo & Gus lead 1-0
# Round 3 (3's). T1 Cat Dee Kim Hal | T2 Ann Fay Jo Gus | T3 Eve Bea Ivy Lou
2 Ann 123   # +1 and the traveling roll: Ann holds the traveler
2 Ann 336   # +2
2 Ann 112   # miss -> Fay
2 Fay 445   # miss -> Jo
3 Eve 456   # miss -> Bea
3 Bea 355   # +1
3 Bea 244   # miss -> Ivy
1 Cat 555   # Mini Bunco +5
1 Cat 366   # +1
1 Cat 122   # miss -> Dee
1 Dee 334   # +2
1 Dee 356   # +1
1 Dee 115   # miss -> Kim
1 Kim 333   # Bunco: 27, bell
1 Kim 446   # miss
# Round 4 (4's). T1 Cat Kim Ann Jo | T2 Dee Hal Bea Lou | T3 Eve Ivy Fay Gus
2 Dee 114   # +1
2 Dee 225   # miss -> Hal
2 Hal 441   # +2
2 Hal 356   # miss -> Bea
3 Eve 444   # Bunco at table 3: 21, no bell (not the head table)
3 Eve 235   # miss -> Ivy
1 Cat 444   # Bunco: bell
1 Cat 156   # miss
# Round 5 (5's). T1 Cat Ann Hal Lou | T2 Kim Jo Eve Fay | T3 Ivy Dee Bea Gus
2 Kim 551   # +2
2 Kim 234   # miss -> Jo
2 Jo 566    # +1
2 Jo 511    # +1, Jo rolls on: 2-2
3 Ivy 224   # miss
3 Dee 334   # miss
3 Bea 526   # +1
3 Bea 446   # miss -> Gus
1 Cat 124   # miss -> Ann
1 Ann 555   # Bunco: bell
2 Jo 553    # after the bell: +2
2 Jo 124    # miss: 2-4
1 Ann 112   # miss
# Round 6 (6's). T1 Ann Jo Fay Lou | T2 Cat Hal Ivy Bea | T3 Dee Kim Eve Gus
2 Cat 666   # Bunco at table 2 (the last Bunco of the night)
2 Cat 245   # miss -> Hal
3 Dee 224   # miss
3 Kim 633   # +1
3 Kim 455   # miss
3 Eve 114   # miss
3 Gus 312   # miss, a traveling roll: Gus takes the traveler
1 Ann 444   # Mini Bunco +5
1 Ann 555   # Mini Bunco +5
1 Ann 222   # Mini Bunco +5
1 Ann 663   # +2 (17)
1 Ann 663   # +2 (19)
1 Ann 663   # +2 (21): bell
1 Ann 112   # miss: the night is over
"""

TOURNAMENT_SETUP: dict[str, Any] = {
    "type": "party",
    "name": "Tournament golden night",
    "rules": "tournament",
    "players": PLAYERS,
    "groups": {
        "Team 1": ["Ann", "Bea", "Cat", "Dee"],
        "Team 2": ["Eve", "Fay", "Gus", "Hal"],
        "Team 3": ["Ivy", "Jo", "Kim", "Lou"],
    },
}

TOURNAMENT = """
# Round 1 (1's). T1 Ann Bea Cat Dee | T2 Eve Fay Gus Hal | T3 Ivy Jo Kim Lou
2 Eve 223   # miss -> Fay
2 Fay 146   # +1
2 Fay 155   # +1, Fay rolls on
3 Ivy 156   # +1
3 Ivy 246   # miss -> Jo
3 Jo 145    # +1
3 Jo 336    # miss -> Kim: 1-1
1 Ann 333   # Mini Bunco +5
1 Ann 111   # Bunco: 26, bell
2 Fay 114   # Fay rolls on after the bell: +2
2 Fay 356   # miss: 0-4
1 Ann 144   # Ann rolls on: +1
1 Ann 225   # miss
3 Kim 235   # sudden death at table 3, Kim's turn: no 1
3 Lou 166   # a 1: Jo & Lou win
# Round 2 (2's). T1 Ann Cat Ivy Kim | T2 Fay Bea Dee Hal | T3 Jo Eve Gus Lou
2 Fay 234   # +1
2 Fay 113   # miss -> Bea
2 Bea 456   # miss -> Dee
3 Jo 134    # miss -> Eve
3 Eve 226   # +2
3 Eve 345   # miss -> Gus
1 Ann 134   # miss -> Cat
1 Cat 222   # Bunco: bell
1 Cat 115   # miss
# Round 3 (3's). T1 Cat Jo Gus Kim | T2 Fay Dee Ann Ivy | T3 Eve Bea Hal Lou
2 Fay 345   # +1
2 Fay 555   # Mini Bunco +5
2 Fay 122   # miss -> Dee
3 Eve 112   # miss -> Bea
3 Bea 335   # +2
3 Bea 446   # miss -> Hal
1 Cat 124   # miss -> Jo
1 Jo 311    # +1
1 Jo 333    # Bunco: 22, bell
1 Jo 246    # miss
verify Bea Staff-1
# Round 4 (4's). T1 Jo Eve Hal Kim | T2 Fay Ann Cat Gus | T3 Bea Dee Ivy Lou
2 Fay 123   # miss -> Ann
2 Ann 455   # +1
2 Ann 112   # miss -> Cat
3 Bea 412   # +1, Bea rolls on
1 Jo 441    # +2
1 Jo 444    # Bunco: 23, bell
3 Bea 444   # Bea rolls on after the bell: a Bunco, 22
3 Bea 156   # miss
1 Jo 235    # miss
# Round 5 (5's). T1 Jo Hal Dee Lou | T2 Ann Eve Kim Gus | T3 Bea Ivy Fay Cat
2 Ann 124   # miss -> Eve
2 Eve 566   # +1
2 Eve 122   # miss -> Kim
3 Bea 551   # +2
3 Bea 666   # Mini Bunco +5
3 Bea 234   # miss -> Ivy
1 Jo 112    # miss -> Hal
1 Hal 555   # Bunco: bell
1 Hal 334   # miss
# Round 6 (6's). T1 Hal Ivy Cat Lou | T2 Eve Jo Dee Gus | T3 Bea Fay Ann Kim
2 Eve 612   # +1
2 Eve 133   # miss -> Jo
2 Jo 225    # miss -> Dee
3 Bea 112   # miss -> Fay
3 Fay 663   # +2
3 Fay 245   # miss -> Ann
1 Hal 123   # miss -> Ivy
1 Ivy 666   # Bunco: bell
1 Ivy 123   # miss: the night is over
verify Ann Staff-1     # the checkers verify the cards (not Jo's; Bea's only after round 3)
verify Cat Staff-1
verify Dee Staff-1
verify Eve Staff-2
verify Fay Staff-2
verify Gus Staff-2
verify Hal Staff-2
verify Ivy Staff-3
verify Kim Staff-3
verify Lou Staff-3
close Bea Jo           # the host closes the cards: Bea's changed since round 3, Jo's unchecked
- Ann 234   # roll-off, Most Buncos of Team 1: Ann's total 9
- Cat 654   # Cat's 15: Cat rolls first
- Cat 661   # +2
- Cat 123   # miss
- Ann 623   # +1
- Ann 666   # Bunco: 22 >= 5, Ann wins
"""

SCIL_SETUP: dict[str, Any] = {
    "type": "party",
    "name": "SCIL golden night",
    "rules": "scil",
    "players": PLAYERS,
}

_HIGH = "665 112 113 114"  # the scorekeeper's 17 beats 4, 5 and 6


def _first_rolls(round_tables: list[list[str]], first: int = 1) -> str:
    """Rolls for high at tables ``first``...: the scorekeeper, then to the right, seats 4, 3, 2."""
    lines = []
    for k, table in enumerate(round_tables, start=first):
        order = [table[0], table[3], table[2], table[1]]
        for name, faces in zip(order, _HIGH.split(), strict=True):
            lines.append(f"{k} {name} {faces}")
    return "\n".join(lines)


SCIL = (
    """
# Round 1 (1's). T1 Ann Bea Cat Dee | T2 Eve Fay Gus Hal | T3 Ivy Jo Kim Lou
1 Ann 665   # rolls for high, to the right: Ann 17
1 Dee 223   # 7
1 Cat 423   # 9
1 Bea 552   # 12: Ann starts
2 Eve 234   # 9
2 Hal 664   # 16
2 Gus 335   # 11
2 Fay 655   # 16: Hal and Fay tie and roll again
2 Hal 223   # 7
2 Fay 662   # 14: Fay starts
3 Ivy 556   # 16
3 Lou 234   # 9
3 Kim 122   # 5
3 Jo 334    # 10: Ivy starts
2 Fay 134   # +1
2 Fay 222   # Baby Bunco +5: the turn ends, the dice go right to Eve
2 Eve 345   # miss -> Hal
3 Ivy 114   # +2
3 Ivy 235   # miss -> Lou
3 Lou 146   # +1
3 Lou 136   # +1
3 Lou 225   # miss -> Kim: 2-2
1 Ann 111   # Bunco: bell, nobody rolls on
3 Ivy 234   # roll-off session at table 3, scorekeeper first, to the right: miss
3 Lou 235   # miss
3 Kim 122   # +1
3 Kim 345   # miss
3 Jo 456    # miss: Ivy & Kim lead 1-0
# Round 2 (2's). T1 Ann Cat Fay Hal | T2 Eve Gus Ivy Kim | T3 Jo Bea Dee Lou
"""
    + _first_rolls(
        [["Ann", "Cat", "Fay", "Hal"], ["Eve", "Gus", "Ivy", "Kim"], ["Jo", "Bea", "Dee", "Lou"]]
    )
    + """
2 Eve 234   # +1
2 Eve 134   # miss -> Kim
2 Kim 225   # +2
2 Kim 113   # miss -> Ivy
3 Jo 256    # +1
3 Jo 333    # Baby Bunco +5, the turn ends -> Lou
3 Lou 145   # miss -> Dee
1 Ann 134   # miss -> Hal
1 Hal 222   # Bunco: bell
# Round 3 (3's). T1 Cat Gus Kim Hal | T2 Eve Ivy Jo Dee | T3 Bea Ann Fay Lou
1 Cat 112   # 4
1 Hal 666   # 18: Hal starts
1 Kim 223   # 7
1 Gus 334   # 10
"""
    + _first_rolls([["Eve", "Ivy", "Jo", "Dee"], ["Bea", "Ann", "Fay", "Lou"]], first=2)
    + """
2 Eve 445   # miss -> Dee
2 Dee 331   # +2
2 Dee 245   # miss -> Jo
3 Bea 315   # +1
3 Bea 224   # miss -> Lou
3 Lou 555   # Baby Bunco +5, the turn ends -> Fay
1 Hal 333   # Bunco: bell
# Round 4 (4's). T1 Gus Ivy Dee Hal | T2 Eve Jo Ann Lou | T3 Bea Fay Cat Kim
"""
    + _first_rolls(
        [["Gus", "Ivy", "Dee", "Hal"], ["Eve", "Jo", "Ann", "Lou"], ["Bea", "Fay", "Cat", "Kim"]]
    )
    + """
2 Eve 411   # +1
2 Eve 223   # miss -> Lou
2 Lou 442   # +2
2 Lou 156   # miss -> Ann
3 Bea 444   # Bunco at table 3: 21, rolls again
3 Bea 123   # miss -> Kim
1 Gus 454   # +2
1 Gus 666   # Baby Bunco +5, the turn ends -> Hal
1 Hal 125   # miss -> Dee
1 Dee 444   # Bunco: 28, bell
# Round 5 (5's). T1 Gus Dee Jo Lou | T2 Eve Ann Bea Cat | T3 Fay Ivy Hal Kim
"""
    + _first_rolls(
        [["Gus", "Dee", "Jo", "Lou"], ["Eve", "Ann", "Bea", "Cat"], ["Fay", "Ivy", "Hal", "Kim"]]
    )
    + """
2 Eve 123   # miss -> Cat
2 Cat 551   # +2
2 Cat 234   # miss -> Bea
3 Fay 512   # +1
3 Fay 346   # miss -> Kim
3 Kim 112   # miss -> Hal
1 Gus 555   # Bunco: bell
# Round 6 (6's). T1 Gus Jo Ann Cat | T2 Eve Bea Fay Hal | T3 Ivy Dee Lou Kim
"""
    + _first_rolls(
        [["Gus", "Jo", "Ann", "Cat"], ["Eve", "Bea", "Fay", "Hal"], ["Ivy", "Dee", "Lou", "Kim"]]
    )
    + """
2 Eve 612   # +1
2 Eve 134   # miss -> Hal
2 Hal 112   # miss -> Fay
2 Fay 333   # Baby Bunco +5, the turn ends -> Bea
3 Ivy 124   # miss -> Kim
3 Kim 665   # +2
3 Kim 145   # miss -> Lou
1 Gus 666   # Bunco: bell, the night is over
- Gus 334   # roll-off for Most Buncos (Gus, Hal): Gus's total 10
- Hal 665   # Hal's 17: Hal first
- Hal 662   # +2
- Hal 662   # +2
- Hal 634   # +1: 5, Hal wins
- Bea 444   # roll-off for Most Losses (Bea, Eve): Bea's total 12
- Eve 651   # 12: a tie, both roll again
- Bea 221   # 5
- Eve 333   # 9: Eve first
- Eve 612   # +1
- Eve 123   # miss
- Bea 665   # +2
- Bea 666   # Bunco: 23 >= 5, Bea wins
"""
)

WM_SETUP: dict[str, Any] = {
    "type": "party",
    "name": "Winning Moves golden night",
    "rules": "winning-moves",
    "players": PLAYERS,
}

WM = """
# Round 1 (1's). T1 Ann Bea Cat Dee | T2 Eve Fay Gus Hal | T3 Ivy Jo Kim Lou
1 Ann 114   # +2
1 Ann 234   # miss -> Bea
1 Bea 156   # +1
1 Bea 345   # miss -> Cat: 2-1
2 Eve 235   # miss -> Fay
2 Fay 113   # +2
2 Fay 456   # miss -> Gus: 0-2
3 Ivy 111   # Bunco: the round ends at every table at once
# Round 2 (2's). T1 Ann Cat Jo Lou | T2 Fay Bea Dee Hal | T3 Ivy Kim Eve Gus
1 Ann 111   # Low Bunco +7
1 Ann 111   # Low Bunco +7
1 Ann 111   # Low Bunco +7: 21, table 1 is won; the others play on
3 Ivy 234   # +1
3 Ivy 345   # miss -> Kim
3 Kim 256   # +1
3 Kim 134   # miss -> Eve: 1-1
2 Fay 345   # miss -> Bea
2 Bea 222   # Bunco: the round ends at tables 2 and 3
3 Ivy 123   # table 3 is tied 1-1: roll-off to 5. All four roll for high: Ivy 6
3 Kim 665   # 17
3 Eve 224   # 8
3 Gus 335   # 11: Kim starts, then to the left
3 Kim 225   # +2
3 Kim 134   # miss -> Eve
3 Eve 226   # +2
3 Eve 444   # another three of a kind scores nothing in a roll-off: -> Gus
3 Gus 221   # +2 (4)
3 Gus 235   # +1 (5): Kim & Gus win
# Round 3 (3's). T1 Ann Jo Ivy Eve | T2 Bea Cat Lou Hal | T3 Kim Fay Dee Gus
1 Ann 345   # +1
1 Ann 124   # miss -> Jo
1 Jo 335    # +2
1 Jo 112    # miss -> Ivy: 1-2
2 Bea 312   # +1
2 Bea 112   # miss -> Cat
2 Cat 456   # miss -> Lou: 1-0
3 Kim 222   # Low Bunco +7
3 Kim 456   # miss -> Fay
3 Fay 333   # Bunco: round over
# Round 4 (4's). T1 Jo Kim Dee Eve | T2 Bea Lou Ann Ivy | T3 Fay Cat Hal Gus
2 Bea 412   # +1
2 Bea 123   # miss -> Lou
2 Lou 445   # +2
2 Lou 112   # miss -> Ann: 1-2
3 Fay 566   # miss -> Cat
3 Cat 456   # +1
3 Cat 122   # miss -> Hal: 0-1
1 Jo 444    # Bunco: round over
# Round 5 (5's). T1 Jo Dee Fay Hal | T2 Lou Kim Eve Ivy | T3 Cat Bea Ann Gus
1 Jo 552    # +2
1 Jo 111    # Low Bunco +7
1 Jo 333    # Low Bunco +7
1 Jo 544    # +1 (17)
1 Jo 234    # miss -> Dee
1 Dee 123   # miss -> Fay
1 Fay 444   # Low Bunco +7: 24, table 1 is won
3 Cat 234   # miss -> Bea
3 Bea 511   # +1
3 Bea 666   # High Bunco +5
3 Bea 223   # miss -> Ann
3 Ann 112   # miss -> Gus: 0-6
2 Lou 234   # miss -> Kim
2 Kim 555   # Bunco: round over
# Round 6 (6's). T1 Jo Fay Cat Ann | T2 Kim Dee Hal Ivy | T3 Bea Lou Eve Gus
1 Jo 661    # +2
1 Jo 234    # miss -> Fay
1 Fay 123   # miss -> Cat: 2-0
3 Bea 234   # miss -> Lou
3 Lou 612   # +1
3 Lou 663   # +2
3 Lou 123   # miss -> Eve: 0-3
2 Kim 234   # miss -> Dee
2 Dee 666   # Bunco: the set is over
"""

PLANS: dict[str, tuple[dict[str, Any], str]] = {
    "classic": (CLASSIC_SETUP, CLASSIC),
    "tournament": (TOURNAMENT_SETUP, TOURNAMENT),
    "scil": (SCIL_SETUP, SCIL),
    "winning-moves": (WM_SETUP, WM),
}


def events(plan: str) -> list[dict[str, Any]]:
    """The events of a plan: one per line that is not blank or a comment."""
    out: list[dict[str, Any]] = []
    for raw in plan.splitlines():
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        words = line.split()
        if words[0] == "verify":
            out.append(
                {"type": "verify", "player": words[1], "checker": words[2].replace("-", " ")}
            )
            continue
        if words[0] == "close":
            out.append({"type": "close_cards", "unverified": words[1:]})
            continue
        table, player, faces = words
        event: dict[str, Any] = {"type": "roll"}
        if table != "-":
            event["table"] = int(table)
        event["dice"] = [int(c) for c in faces]
        event["player"] = player
        out.append(event)
    return out


def log_text(preset: str) -> str:
    setup, plan = PLANS[preset]
    lines = [json.dumps(setup)] + [json.dumps(e) for e in events(plan)]
    return "\n".join(lines) + "\n"


def main() -> None:
    for preset in PLANS:
        (HERE / f"{preset}-12.jsonl").write_text(log_text(preset), encoding="utf-8")


if __name__ == "__main__":
    main()

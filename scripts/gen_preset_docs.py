"""Write docs/presets/<preset>.md, one page per preset, from the code.

Each page has the preset's one-line summary (``presets.SUMMARIES``) and sources
(``presets.SOURCES``), a table of every rule field with its value (as
``RuleSet.as_dict`` gives it), its meaning (``rules.rule_docs``) and where the value
comes from (``rule_sources.RULE_SOURCES``), what a roll scores in round 4 (from
``dice.score_roll``), and a hand-written account of how a night of the preset runs
(kept here, in ``NIGHTS``). tests/core/test_docs.py checks that the pages in the
repository are exactly what this script writes now, so the docs cannot drift from
the code.

Usage::

    python scripts/gen_preset_docs.py          # (re)write the four pages
    python scripts/gen_preset_docs.py --check  # exit 1 and name the pages that are stale
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rule_sources import RULE_SOURCES, SEED_FILES, source_kind  # beside this script

from bunco.core.dice import score_roll
from bunco.core.presets import PRESETS, SOURCES, SUMMARIES
from bunco.core.rules import RuleSet, rule_docs

ROOT = Path(__file__).resolve().parents[1]
PRESET_DIR = ROOT / "docs" / "presets"

EXAMPLE_ROUND = 4
EXAMPLE_ROLLS: tuple[tuple[int, int, int], ...] = (
    (4, 1, 6),
    (4, 4, 2),
    (4, 4, 4),
    (2, 2, 2),
    (5, 5, 5),
    (1, 2, 3),
    (1, 1, 1),
)

SOURCE_LEGEND = (
    "- `seeds/NNN: “…”` — the seed document says so, in its own words;",
    "- `RULES.md §N: …` — the seed is silent or contradicts itself, and RULES.md decides;",
    "- `bunco default: …` — neither says: the rule never comes up for this preset, or the",
    "  value is what a group playing it would expect.",
)

NIGHTS: dict[str, str] = {
    "winning-moves": """\
**Players and tables.** Two to four players play *One Table Bunco*: everyone for
themselves (four players too, as in the seeds/000 example), first to 21 points; two
players is seeds/002's *Bunco for two*. A party of 12 plays at three team tables of
four. Five to eleven players use seeds/000's layouts: 5 → tables of 3 and 2, 6 → 4 + 2,
7 → 4 + 3, 8 → 4 + 4, 9 → 4 + 3 + 2, 10 → 4 + 4 + 2, 11 → 4 + 4 + 3; larger parties get
as many tables of four as possible and the rest at tables of two or three. At a party,
a team table of four plays to 21 (partners opposite, points added together) and a
table of two or three individuals plays to 11.

**First roller.** At a party, every table's scorekeeper (seat 1) rolls first in every
round. At one table, the scorekeeper starts round 1; after that the player to the
left of the previous round's winner starts.

**A roll.** Each die showing the round's number scores 1 and the player rolls again.
Three of the round's number is a true **Bunco**: 21 points, and the round ends at
once, at every table. Three of a kind below the number is a **Low Bunco** (7 points),
above it a **High Bunco** (5 points); the player rolls again. Anything else ends the
turn and the dice pass to the left.

**Round end.** Every table plays until a side there reaches its target: that side wins
the table and the table stops. The round is over when every table has a winner — or
at once when a Bunco is rolled anywhere; then the side with the most points wins at
each table that had not finished.

**After the bell.** Nobody rolls on.

**Tie-break.** A tie can only happen at a table stopped by a Bunco elsewhere. The tied
players hold a roll-off: each rolls three dice for high total (ties roll again), the
high roller starts and the dice go on in seat order; only the round's number and true
Buncos score (a Low or High Bunco scores nothing there and ends the turn), and the
first side to 5 points wins the table.

**Winners.** Every winner gets a W in the round's column of the master score sheet;
the player who rolled a true Bunco also gets a B (not the partner). The winner of a
set is the player with the most W's; among players tied on W's, the most B's wins;
still tied, a roll-off: each tied player rolls three dice, the highest total goes
first (that roll does not score), then they take turns rolling for the number 6 (the
round just completed) and the first to 5 points wins the set. seeds/000's worked
sheet: Andy 2 W, Laura 2 W and a B, Paul 1 W, Suzi 1 W and a B — Laura wins.

**Movement.** Winners stay (at a team table one of them shifts a chair, so both get a
new partner); losers move on to the next table, k → k+1, the last table → table 1.
The 5 to 11 player layouts work out as seeds/000 describes, e.g. with five players
both players at table 2 go to table 1 and the two losers at table 1 go to table 2.

**Prizes and sets.** No prize categories: the set's winner is the result. A night is
one to four sets; each set starts fresh W and B columns.

**Where RULES.md settles the seeds.**

- seeds/000 says a true Bunco "immediately ends the round" and also that play goes on
  "until one player accumulates 21 points": the round ends at whichever comes first.
- At a party, seeds/000 says the round ends when "one team accumulates 21", then that
  "The other tables keep playing until there is a winning team at each table":
  RULES.md §3 reads it as every table playing to its own target.
- The one-table example sheet in seeds/000 credits LL with the win, but her column as
  printed (1, 2, 2, 7, 2, 5) adds up to 19, not 21; the rule (first to reach or pass
  the target) is what the software plays.
- The roll-off in seeds/000 says "points are scored for rolling the number of the
  round just completed, as well as for Buncos": in every roll-off and tie-break only the
  round's number and true Buncos score, so a Low or High Bunco scores nothing there.
- seeds/000 describes the high-total roll for who starts with the set's roll-off; the
  software uses the same start for a table's roll-off to 5.
""",
    "classic": """\
**Players and tables.** Tables of four, partners opposite (seats 1 & 3 against
2 & 4), points added together. A count that is not a multiple of four gets a table of
two or three individuals (5 → 3 + 2, 6 → 4 + 2, 7 → 4 + 3, 9 → 4 + 3 + 2, 13 →
4 + 4 + 3 + 2), who also play to 21. One table of four plays as two teams; two or three
players play as individuals.

**First roller.** Every table's scorekeeper (seat 1), every round.

**A roll.** Each die showing the round's number scores 1 and the player rolls again.
Three of the round's number is a **Bunco**: 21 points, roll again. Any other three of
a kind is a **Mini Bunco**: 5 points, roll again. Anything else ends the turn and the
dice pass to the left (clockwise).

**Round end.** When the head table (table 1) has 21 points on one side, its bell ends
the round at every table. The other tables stop wherever they are — above or below 21.

**After the bell.** Every player who is in the middle of a turn (their last roll
scored) keeps rolling until a roll scores nothing — the head table's roller who rang
the bell too. Those points, Buncos and Mini Buncos count. A table whose dice had just
passed when the bell rang stops at once.

**Tie-break.** The head table cannot tie. At another table, a tie is broken by roll-off
*sessions*: every player of the tied sides takes one full turn, the scorekeeper first,
in seat order; the side with more session points wins; still tied, another session.
The round's score stays as it was at the bell.

**Winners.** Both partners of the winning side write a W, the others an L. Only the
roller marks a Bunco or a Mini Bunco on their own card.

**Movement.** The head table's winners stay (one moves over a chair); winners at table
k move **up** to k−1; losers at table k move **down** to k+1; the losers at the last
table stay (one moves over a chair). Everyone who stays gets a new partner.

**Prizes and sets.** At the end of the night: Most Buncos, Most Wins, Most Losses,
Half Wins and Half Losses, Last Bunco. A tie for a prize is rolled off (high total
first, then first to 5 points rolling 6's) unless the host shares it
(`prize_ties=shared`). Traveling is an optional prize once the host names a trigger
(see [house rules](../house-rules.md)). seeds/001 plays two to four sets; the software
allows one to four.

**Where RULES.md settles the seeds.**

- The Example of Play in seeds/001 says "Stacy and Wanda earned a total of 5 points",
  but Stacy wrote 3 and Wanda 5 in the "Us" column: the team has 3 + 5 = 8, against
  Carol and Hannah's 2 + 21 = 23. The Example is replayed as a party log in
  [concepts](../concepts.md).
- seeds/001 says a Bunco roller "must keep rolling (unless the player is sitting at the
  head table in which case she rings the bell to signal the end of that round)", yet
  its Example has Hannah roll again after ringing the bell: RULES.md §3 follows the
  Example — she rings the bell and rolls on until a roll scores nothing.
- seeds/001 passes the dice "to the player on the left" and, in the Example,
  "clockwise": the same direction.
""",
    "scil": """\
**Players and tables.** Tables of four, partners opposite. A count that is not a
multiple of four gets **ghosts**: every table has four seats and the missing players are
ghost seats, one per table at the last tables (7 → 4 + 3 and a ghost, 10 → 4, then two
tables with a ghost each). The ghost's partner rolls for both; the ghost's points count
for the team but its Buncos and Baby Buncos are credited to nobody. Where ghosts cannot
fill (five players) the party uses tables of three and two individuals. Two or three
players play as individuals at one table.

**First roller.** At every table, in every round, each player rolls the three dice
once; the highest total starts (those tied re-roll among themselves). These rolls
score nothing. Play then proceeds **to the right** (seat 1 → 4 → 3 → 2).

**A roll.** Each die showing the round's number scores 1 and the player rolls again.
Three of the round's number is a **Bunco**: 21 points, roll again. Any other three of
a kind is a **Baby Bunco**: 5 points for the team, and the turn **ends**. Anything else
ends the turn.

**Round end.** When a team at the head table reaches 21 it rings the bell and the round
is over at every table.

**After the bell.** Nobody rolls on.

**Tie-break.** Roll-off sessions as in `classic`: every player of the tied sides takes
one turn, the scorekeeper first, then to the right; repeated until the tie is broken.

**Winners.** Winners circle the round on their score sheet (a W), losers cross it out
(an L). Only the roller scores a Bunco or a Baby Bunco.

**Movement.** The head table's winners stay; the winners of every other table move up
one table; the head table's losers go to the **last** (low) table; all other losers stay.
Nobody may partner the same person two rounds running, and whoever stays at a table
changes partner. A host who seats everyone by hand (a `seat` event) is
held to it too: a seating that puts a partnership of the round just played back
together is refused with the rule named, unless the event says
`"overrides": ["no_repeat_partners"]`; then the kept partnerships are recorded and the
score cards and `bunco replay` mark that round (`*`).

**Prizes.** Most Buncos, Most Baby Buncos, Most Wins, Most Losses; a tie is rolled off
(high total first, then first to 5 points rolling 6's) unless the host shares it.

**Where RULES.md settles the seeds.**

- seeds/003's only rule for going on is "If any of the dice comes up as a "1", then
  keep rolling" — "When no 1's are rolled, give the dice to the next player". A Baby
  Bunco shows none of the round's number, so it ends the turn (RULES.md §1), unlike the
  Mini Buncos of the other presets.
- seeds/003's rules say "Baby Bunco" and its score sheet says "Mini Buncos": the sheets
  here say Baby Bunco.
- seeds/003 allows a ghost when "missing one player"; the software fills any gap of at
  most one ghost per table the same way (RULES.md §6).
- seeds/003 does not say how a tie at a table is broken: RULES.md §3 uses `classic`'s
  sessions.
""",
    "tournament": """\
**Players and tables.** Tables of four, partners opposite; seeds/004 names the tables
A, B, C — here tables 1, 2, 3, table 1 (A) being the head table. A count that is not a
multiple of four gets a table of two or three individuals, as in `classic`. Players
register in **groups** (seeds/004's "TEAM NUMBER"), each with a staff checker.

**First roller.** Every table's scorekeeper, every round.

**A roll.** Each die showing the round's number (the "mark") scores 1 and the player
rolls again. Three of the round's number is a **BUNCO!**: 21 points, roll again. Any
other three of a kind is a **Mini Bunco**: 5 points, roll again. Anything else ends the
turn and the dice pass to the left.

**Round end.** The head table reaching 21 rings the bell and ends the round for the
entire room; the other tables may stand above or below 21.

**After the bell.** As in `classic`: the player rolling finishes their turn, rolling
until no die shows the mark — the head table's roller too.

**Tie-break.** *Sudden death*: the tied table keeps taking turns, going on with the next
player in seat order (after a turn rolled on past the bell, the player after that
roller); the first roll with any die showing the round's number wins the round for that
roller's team (a point is all it takes; nothing else scores). The round goes on with its
own turn rules ("Ties in the round will be decided by continuing to roll"): a Mini Bunco
(three of a kind of another number) "continues their turn", so its roller rolls again
rather than passing the dice, and it counts on their card as a Mini Bunco; any other roll
without the round's number passes the dice. A house rule that ends the turn on a three
of a kind ends the tie-break turn too.

**Winners.** W for the winning team, L for the losers; only the roller marks a Bunco or
a Mini Bunco.

**Movement.** "Losers walk and Winner's talk": winners stay (one of them changes seat to
get a new partner); losers walk to the next table clockwise, A → B → C → A (k → k+1,
the last table → 1). Nobody has the same partner in consecutive rounds. A host who seats everyone by hand (a `seat` event) is
held to it too: a seating that puts a partnership of the round just played back
together is refused with the rule named, unless the event says
`"overrides": ["no_repeat_partners"]`; then the kept partnerships are recorded and the
score cards and `bunco replay` mark that round (`*`).

**Sessions and breaks.** seeds/004's "session" of six rounds is a set; there are breaks
after rounds 2, 4 and 6.

**Prizes.** In every group: Most Buncos, Most Mini Buncos, Most Wins; overall: the group
with the most Buncos. Only what the group's checker has verified counts: a `verify`
event (see [the party log](../party-log.md)) records a player's Buncos, Mini Buncos and
Wins at that moment, and prizes are decided from the last verified counts. As in
seeds/004, checkers may verify after the last round: each `verify` then decides the
prizes again, until the first prize roll-off roll; a card can be verified again at every
break and at the end, changed or not, and the sheets say when each card was last checked.
Best Costume is not decided by the dice. "You must be present with a valid ID to win"
(`must_be_present`, on in this preset): a prize whose winner has gone home passes to the
next in line, and a group prize is paid to the group's members present.

**Where RULES.md settles the seeds.**

- seeds/004 illustrates a Bunco as "rolling '3', '3' in Round 3" — two dice; its own
  definition, "3 of a kind of the target number", is what counts.
- seeds/004 says "Ties in the round will be decided by continuing to roll. The first
  person to roll the target number wins the Round for their team": RULES.md §3 calls
  this sudden death.
- seeds/004 says nothing about a tie for a prize: RULES.md §4 rolls it off unless the
  host shares it.
""",
}


def _cell(text: str) -> str:
    """Text safe for one Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _value(value: Any) -> str:
    return "`" + json.dumps(value, ensure_ascii=False) + "`"


def _roll_table(rules: RuleSet) -> list[str]:
    lines = [
        "| dice | points | kind | turn | round |",
        "|---|---|---|---|---|",
    ]
    for dice in EXAMPLE_ROLLS:
        score = score_roll(dice, EXAMPLE_ROUND, rules)
        lines.append(
            f"| {' '.join(map(str, dice))} | {score.points} | `{score.kind.value}` | "
            f"{'rolls again' if score.turn_continues else 'ends'} | "
            f"{'ends at every table' if score.ends_round else 'goes on'} |"
        )
    return lines


def render(preset: str) -> str:
    """The Markdown page of ``preset`` (a canonical preset name)."""
    rules = PRESETS[preset]
    docs = rule_docs()
    sources = RULE_SOURCES[preset]
    values = rules.as_dict()
    lines = [
        "<!-- Generated by scripts/gen_preset_docs.py from src/bunco/core (presets.py, rules.py)",
        "     and scripts/rule_sources.py — do not edit by hand: change the code and run the script. -->",
        "",
        f"# Preset `{preset}`",
        "",
        f"**In one line:** {SUMMARIES[preset]}.",
        "",
        f"**Source:** {SOURCES[preset]}.",
        "",
        f"See every value with `bunco rules {preset}` (`--json` for data); change one for a",
        'night with `--house NAME=VALUE` or `"house_rules"` in the party log',
        "([house rules](../house-rules.md)). The words are explained in",
        "[concepts](../concepts.md).",
        "",
        "## How a night runs",
        "",
        NIGHTS[preset].rstrip("\n"),
        "",
        f"## What a roll scores in round {EXAMPLE_ROUND}",
        "",
        f"The round's number is {EXAMPLE_ROUND}. Try any roll with "
        f"`bunco score --rules {preset} --round {EXAMPLE_ROUND} 4 4 2`.",
        "",
        *_roll_table(rules),
        "",
        "## Every rule",
        "",
        "Values as `bunco rules " + preset + " --json` prints them. A source is one of:",
        "",
        *SOURCE_LEGEND,
        "",
        "| rule | value | meaning | source |",
        "|---|---|---|---|",
    ]
    for name, value in values.items():
        if name == "name":
            continue
        source = sources[name]
        source_kind(source)  # refuses a malformed source
        lines.append(f"| `{name}` | {_value(value)} | {_cell(docs[name])} | {_cell(source)} |")
    used = sorted({sid for text in sources.values() for sid in _seed_ids(text)})
    lines += [
        "",
        "## Seed documents cited",
        "",
        *[f"- `seeds/{sid}` — `{SEED_FILES[sid][0]}`: {SEED_FILES[sid][1]}" for sid in used],
        "",
    ]
    return "\n".join(lines)


def _seed_ids(text: str) -> list[str]:
    return [sid for sid in SEED_FILES if f"seeds/{sid}" in text]


def pages(out_dir: Path = PRESET_DIR) -> dict[Path, str]:
    """Every preset page: path → content."""
    return {out_dir / f"{name}.md": render(name) for name in PRESETS}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write docs/presets/<preset>.md from the code.")
    parser.add_argument(
        "--check", action="store_true", help="only check; exit 1 if a page is stale"
    )
    parser.add_argument(
        "--out", type=Path, default=PRESET_DIR, help="the folder of the pages (docs/presets)"
    )
    args = parser.parse_args(argv)
    stale: list[Path] = []
    for path, text in pages(args.out).items():
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            continue
        stale.append(path)
        if not args.check:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    names = ", ".join(p.name for p in stale)
    if args.check:
        if stale:
            print(f"stale in {args.out} (rerun the script): {names}", file=sys.stderr)
            return 1
        print("preset pages are up to date")
        return 0
    print(f"wrote {names} in {args.out}" if stale else "nothing to write: all pages up to date")
    return 0


if __name__ == "__main__":
    sys.exit(main())

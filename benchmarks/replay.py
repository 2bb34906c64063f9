"""How long `bunco replay` takes to fold a big party log.

Builds a seeded ``tournament`` night (1,000 players, 250 tables, one set by default) in
which every table rolls at the same pace, as in a real room: the tables take turns, one
roll each, with random dice, until the head table's bell; then whoever may still roll
(after the bell, tie-breaks) rolls on. After the last round each group's checker verifies
every card (004), then the prize roll-offs are rolled. The log is written to a file and
read back with :func:`bunco.core.party_log.read_log`, which is what `bunco replay` does before
printing; the log up to the last round is timed too, to show what the verifications cost.

    python benchmarks/replay.py                  # 1,000 players, seed 1
    python benchmarks/replay.py --players 200 --sets 2 --repeat 3 --keep night.jsonl

Prints the number of events and the seconds taken (build, read, report).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bunco.core.night import Night
from bunco.core.party_log import read_log, write_log
from bunco.party.report import night_report


def build_night(
    players: int, seed: int, sets: int = 1, rules: str = "tournament", verify: bool = True,
    money: bool = False,
) -> tuple[dict[str, Any], list[dict[str, Any]], int, Night]:
    """A whole night with seeded random dice.

    Returns the party line, the events, how many of them come before the verifications
    after the last round, and the night.
    """
    rng = random.Random(seed)
    names = [f"P{i:04d}" for i in range(1, players + 1)]
    setup: dict[str, Any] = {"type": "party", "rules": rules, "players": names, "sets": sets}
    if money:  # groups of 100, seeds/004's payouts, one prize each, must be present
        setup.update(groups={f"Team {g + 1}": names[g * 100:(g + 1) * 100]
                             for g in range((players + 99) // 100)},
                     judged=["Best Costume"], money="tournament", one_prize_per_person=True,
                     must_be_present=True)
    night = Night.start(setup)
    events: list[dict[str, Any]] = []
    pointer = 0
    while night.phase == "playing":
        event: dict[str, Any] = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        tables = night.tables
        for step in range(len(tables)):
            k = (pointer + step) % len(tables)
            if tables[k].roller is not None:
                break
        event["table"] = k + 1
        pointer = k + 1
        night = night.apply(event)
        events.append(event)
    rounds_only = len(events)
    if verify:
        for name in names:
            event = {"type": "verify", "player": name, "checker": "Staff"}
            night = night.apply(event)
            events.append(event)
    while night.phase != "over":  # prize roll-offs at no table
        event = {"type": "roll", "dice": [rng.randint(1, 6) for _ in range(3)]}
        night = night.apply(event)
        events.append(event)
    if money:
        extra: list[dict[str, Any]] = [{"type": "absent", "player": n} for n in names[::7]]
        extra += [{"type": "judge", "prize": "best_costume", "group": g, "ranking": m[:3]}
                  for g, m in setup["groups"].items()]
        extra.append({"type": "judge", "prize": "group_best_costume",
                      "ranking": list(setup["groups"])})
        night = night.apply_all(extra)
        events += extra
    return setup, events, rounds_only, night


def time_read(lines: list[str], repeat: int) -> tuple[float, Night]:
    times = []
    night = None
    for _ in range(repeat):
        started = time.perf_counter()
        night = read_log(lines)
        times.append(time.perf_counter() - started)
    assert night is not None
    return statistics.median(times), night


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--sets", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="tournament")
    parser.add_argument("--repeat", type=int, default=1, help="read the log this many times")
    parser.add_argument("--keep", type=Path, help="write the log here instead of a temporary file")
    parser.add_argument(
        "--no-verify", action="store_true", help="no verifications after the last round"
    )
    parser.add_argument("--money", action="store_true",
                        help="tournament payouts, groups of 100, absentees, judged prizes")
    args = parser.parse_args()

    started = time.perf_counter()
    setup, events, rounds_only, built = build_night(
        args.players, args.seed, args.sets, args.rules, verify=not args.no_verify,
        money=args.money,
    )
    build_seconds = time.perf_counter() - started
    text = write_log(setup, events)
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "night.jsonl"
        path.write_text(text, encoding="utf-8")
        lines = path.read_text(encoding="utf-8").splitlines()
    read_seconds, night = time_read(lines, args.repeat)
    rounds_seconds, _ = time_read(lines[: 1 + rounds_only], args.repeat)
    started = time.perf_counter()
    report = night_report(night)
    report_seconds = time.perf_counter() - started
    assert report == night_report(built), "the replay differs from the night as it was played"
    tables = len(night.history[0].tables)
    print(
        f"rules {args.rules}, {args.players} players, {tables} tables, "
        f"{args.sets} set(s), seed {args.seed}"
    )
    print(f"events                  {len(events):>10,}   ({rounds_only:,} in the rounds)")
    print(f"log size                {len(text) / 1e6:>10.1f} MB")
    print(f"build (play) s          {build_seconds:>10.2f}")
    print(f"read_log, rounds only s {rounds_seconds:>10.2f}   (median of {args.repeat})")
    print(f"read_log, whole log s   {read_seconds:>10.2f}   (median of {args.repeat})")
    print(f"events per s            {len(events) / read_seconds:>10,.0f}")
    print(f"report() s              {report_seconds:>10.2f}")
    if args.money:
        from bunco.core.money import prize_money

        started = time.perf_counter()
        paid = prize_money(night)
        money_seconds = time.perf_counter() - started
        print(f"payouts (prize_money) s {money_seconds:>10.3f}   ({len(paid['payouts'])} "
              f"payouts, {len(paid['awards'])} awards)")


if __name__ == "__main__":
    main()

"""Speed of the simulators, measured side by side in one run on one core.

Prints rolls per second of
- the reference loop (:mod:`bunco.analysis.reference`, one ``score_roll`` per roll),
- the night engine (:class:`bunco.core.night.Night`, one event per roll, one table),
- the fast kernel (:mod:`bunco.analysis.kernel`), with its dice drawn and pre-drawn,
- the bare draw of three dice per roll from NumPy's generator,
and the ratios the goals name: kernel / reference >= 100, kernel / bare draw >= 25%;
then twelve-player one-set (six-round) nights per second, everything played (seating,
moving, the bell, tie-breaks, roll-offs, prizes):

- through the night engine (:func:`bunco.analysis.simulate.play_night`),
- through the compiled night kernel (:mod:`bunco.analysis.night_kernel`), drawing its own
  dice (goal: 50,000 per second per core),
- and the bare draw of a set's worth of dice (as many rolls as the kernel's sets took).

Run: ``python benchmarks/simulate.py [--quick]``. A benchmark, not a test: it prints
figures and never fails on them.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Callable

import numpy as np

from bunco.analysis.engine_feed import engine_rounds
from bunco.analysis.kernel import code_table, dice_to_codes, play_rounds, simulate_rounds
from bunco.analysis.night_kernel import FIGURES, night_figures, night_seeds
from bunco.analysis.reference import reference_rounds
from bunco.analysis.simulate import play_night, sim_rules
from bunco.core.presets import get_rules
from bunco.core.rules import AfterBell


def best_rate(run: Callable[[], int], repeat: int) -> float:
    """The best of ``repeat`` runs, in units (rolls) per second."""
    best = 0.0
    for _ in range(repeat):
        start = time.perf_counter()
        units = run()
        elapsed = time.perf_counter() - start
        best = max(best, units / elapsed)
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--quick", action="store_true", help="smaller runs (a smoke test)")
    args = parser.parse_args()
    scale = 1 if args.quick else 10
    rules = get_rules(args.rules)
    round_no = 3
    rng = np.random.default_rng(1)
    target = rules.target(team=True, single_table=False)
    finish = rules.after_bell is AfterBell.FINISH_TURN
    table = code_table(rules, round_no)

    ref_dice = rng.integers(1, 7, size=(4_000 * scale, 3)).tolist()

    def reference() -> int:
        return sum(r.rolls for r in reference_rounds(rules, round_no, ref_dice))

    engine_dice = [tuple(d) for d in rng.integers(1, 7, size=(600 * scale, 3)).tolist()]

    def engine() -> int:
        extra = iter(engine_dice[::-1])  # rolls for high and tie-breaks: varied dice, so
        # that rolling for high total (scil) does not tie for ever
        played = engine_rounds(args.rules, {}, iter(engine_dice),
                               extra=lambda: next(extra, (6, 5, 4)))
        return sum(r.rolls for r in played)

    n_rounds = 40_000 * scale

    def kernel_drawn() -> int:
        sim = simulate_rounds(rules, round_no, n_rounds, rng=rng, pair=False)
        return sim.head_used

    codes = dice_to_codes(rng.integers(1, 7, size=(n_rounds * 60, 3)))

    def kernel_predrawn() -> int:
        return play_rounds(table, target, finish, codes).head_used

    n_draw = 2_000_000 * scale

    def bare_draw() -> int:
        rng.integers(1, 7, size=(n_draw, 3), dtype=np.int8)
        return n_draw

    def bare_draw_int64() -> int:
        rng.integers(1, 7, size=(n_draw, 3))
        return n_draw

    play_rounds(table, target, finish, codes[:1000])  # compile (or load) the kernel first
    figures = {
        "reference loop (score_roll)": best_rate(reference, 3),
        "night engine (Night.apply)": best_rate(engine, 3),
        "kernel, dice drawn": best_rate(kernel_drawn, 3),
        "kernel, dice pre-drawn": best_rate(kernel_predrawn, 3),
        "bare draw of 3 dice (int8)": best_rate(bare_draw, 3),
        "bare draw of 3 dice (int64)": best_rate(bare_draw_int64, 3),
    }
    print(f"rules {args.rules}, round {round_no}, one core (pid {os.getpid()})")
    width = max(map(len, figures))
    for name, rate in figures.items():
        print(f"  {name:<{width}}  {rate:>14,.0f} rolls/s")
    kernel = figures["kernel, dice drawn"]
    print(f"  kernel / reference loop      {kernel / figures['reference loop (score_roll)']:>10,.0f}x"
          "   (goal >= 100x)")
    print(f"  kernel / night engine        {kernel / figures['night engine (Night.apply)']:>10,.0f}x")
    print(f"  kernel / bare draw (int8)    {kernel / figures['bare draw of 3 dice (int8)']:>10.0%}"
          "   (goal >= 25%)")
    print(f"  kernel / bare draw (int64)   {kernel / figures['bare draw of 3 dice (int64)']:>10.0%}")
    print("  (the kernel draws one code 0-215 per roll: as random as three dice, cheaper to draw)")

    night_rates(args.rules, scale)


def night_rates(rules_name: str, scale: int) -> None:
    """Twelve-player one-set nights per second: engine, kernel, bare draw of their dice."""
    rules = sim_rules(rules_name, {})
    seeds = iter(range(10**6))

    def engine_nights() -> int:
        count = 2 * scale
        for _ in range(count):
            play_night(rules_name, {}, players=12, sets=1, seed=next(seeds))
        return count

    n_sets = 20_000 * scale
    night_figures(rules, 12, 1, night_seeds(0, 10))  # compile (or load) the kernel first
    rolls: list[float] = []

    def kernel_nights() -> int:
        figures, _ = night_figures(rules, 12, 1, night_seeds(next(seeds), n_sets))
        rolls.append(float(figures[:, FIGURES.index("rolls_per_set")].mean()))
        return n_sets

    engine = best_rate(engine_nights, 3)
    kernel = best_rate(kernel_nights, 3)
    per_set = round(sum(rolls) / len(rolls))
    gen = np.random.default_rng(3)

    def bare_draw() -> int:
        gen.integers(0, 216, size=n_sets * per_set, dtype=np.uint8)
        return n_sets

    bare = best_rate(bare_draw, 3)
    print(f"twelve-player one-set nights ({rules_name}, {per_set} rolls per set), one core:")
    print(f"  night engine (Night.apply)          {engine:>14,.1f} sets/s")
    print(f"  night kernel, dice drawn            {kernel:>14,.0f} sets/s   (goal >= 50,000)")
    print(f"  bare draw of a set's dice (uint8)   {bare:>14,.0f} sets/s")
    print(f"  night kernel / night engine         {kernel / engine:>14,.0f}x")
    print(f"  night kernel / bare draw            {kernel / bare:>14.0%}")


if __name__ == "__main__":
    main()

"""The door badges PDF (sheets/badges.py): CPU time and size for 40 and 250 players, its
QR codes drawn as runs of dark squares in one path, side by side with a rectangle per
square (the house-rules card's way, sheets/rulecard.draw_qr), in one run.

    .venv/bin/python benchmarks/badges.py
"""

from __future__ import annotations

import time
from collections.abc import Callable

import bunco.sheets.badges as badges
from bunco.core.night import Night
from bunco.sheets import rulecard


def made(players: int) -> tuple[float, int]:
    """Seconds of CPU (the best of three) and bytes of the badges of ``players``."""
    names = [f"Player {k}" for k in range(players)]
    night = Night.start({"players": names, "rules": "classic"})
    urls = {n: f"http://192.168.1.20:8000/n/AbCdEf12/door/{k:016d}" for k, n in enumerate(names)}
    best, size = float("inf"), 0
    for _ in range(3):
        start = time.process_time()
        size = len(badges.badges_pdf(night, "Friday club night", urls))
        best = min(best, time.process_time() - start)
    return best, size


def with_drawing(draw: Callable[..., None], players: int) -> tuple[float, int]:
    kept = badges.draw_qr
    badges.draw_qr = draw
    try:
        return made(players)
    finally:
        badges.draw_qr = kept


def main() -> None:
    print(f"{'players':>8} {'runs, one path':>22} {'a rectangle a square':>22} {'CPU ratio':>10}")
    for players in (40, 250):
        runs = with_drawing(badges.draw_qr, players)
        squares = with_drawing(rulecard.draw_qr, players)
        print(
            f"{players:>8} {runs[0]:>8.2f} s {runs[1] / 1024:>7.0f} KiB"
            f" {squares[0]:>8.2f} s {squares[1] / 1024:>7.0f} KiB {squares[0] / runs[0]:>9.2f}x"
        )


if __name__ == "__main__":
    main()

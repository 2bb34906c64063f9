"""An undo folds the round again from the newest checkpoint before its entry (one every
``CHECKPOINT_EVERY`` standing events), not from the round's start: the night after any
mix of rolls and undos is the same as the night of the entries that stand folded from the
start, whatever the checkpoints' spacing, and an undo refolds no more than the events
since its checkpoint."""

from __future__ import annotations

import random

import pytest

from bunco.core import night as night_mod
from bunco.core.errors import BuncoError
from bunco.core.night import Night

PLAYERS = [f"P{i}" for i in range(1, 13)]


def played(seed: int, steps: int) -> Night:
    """A seeded ``classic`` night at three tables: random dice, and now and then an undo
    at a random table (refused ones are skipped, as a page would be told no)."""
    rng = random.Random(seed)
    night = Night.start({"type": "party", "rules": "classic", "players": PLAYERS})
    for _ in range(steps):
        if night.phase != "playing":
            break
        rollers = [t for t, _ in night.expected_rollers() if t is not None]
        table = rng.choice(rollers or [1])
        event = (
            {"type": "undo", "table": rng.randint(1, 3)}
            if rng.random() < 0.25
            else {"type": "roll", "table": table, "dice": [rng.randint(1, 6) for _ in range(3)]}
        )
        try:
            night = night.apply(event)
        except BuncoError:
            continue
    return night


def standing(night: Night) -> Night:
    """The same night folded from its setup with the events that stand (no undo)."""
    return Night.start(night.setup).apply_all(list(night.effective))


def same(a: Night, b: Night) -> bool:
    return (a.set_no, a.round_no, a.phase, a.tables, a.history, a.cards, a.bell) == (
        b.set_no,
        b.round_no,
        b.phase,
        b.tables,
        b.history,
        b.cards,
        b.bell,
    )


@pytest.mark.parametrize(("every", "kept"), [(1, 64), (3, 2), (3, 1), (32, 64), (10_000, 64)])
@pytest.mark.parametrize("seed", range(6))
def test_rolls_and_undos_end_as_the_standing_entries_folded_from_the_start(
    monkeypatch, seed, every, kept
):
    monkeypatch.setattr(night_mod, "CHECKPOINT_EVERY", every)
    monkeypatch.setattr(night_mod, "CHECKPOINTS_KEPT", kept)  # few: older undos from the start
    night = played(seed, 400)
    assert any(e["type"] == "undo" for e in night.events)
    assert same(night, standing(night))


def test_an_undo_refolds_only_the_events_since_its_checkpoint(monkeypatch):
    night = Night.start({"type": "party", "rules": "classic", "players": PLAYERS[:8]})
    faces = [2, 3, 5]  # no 1: round 1 never ends
    for n in range(3_000):
        night = night.apply({"type": "roll", "table": n % 2 + 1, "dice": faces})
    folded: list[str] = []
    real = Night._apply_effective

    def counting(self: Night, ev):  # type: ignore[no-untyped-def]
        folded.append(ev["type"])
        return real(self, ev)

    monkeypatch.setattr(Night, "_apply_effective", counting)
    for n in range(50):  # undo a table's last roll and enter it again, 50 times
        night = night.apply({"type": "undo", "table": n % 2 + 1})
        night = night.apply({"type": "roll", "table": n % 2 + 1, "dice": faces})
    # each undo refolded at most the checkpoint spacing, not the 3,000-roll round
    assert len(folded) <= 50 * (night_mod.CHECKPOINT_EVERY + 1)
    assert sum(len(t.rolls) for t in night.tables) == 3_000
    assert same(night, standing(night))
    assert len(night.checkpoints) == night_mod.CHECKPOINTS_KEPT  # the newest only

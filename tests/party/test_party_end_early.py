"""The host ends a night early (``end_night``): between rounds only, with the rounds played
so far as the night, the set under way decided as if it were over, then the prizes."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import event as label
from hypothesis import strategies as st
from party_checks import check_night
from party_helpers import party, roll

from bunco.core.errors import NotAllowedNow
from bunco.core.night import Night
from bunco.core.party_log import read_log
from bunco.party.night_report import night_report
from bunco.party.view import live_view
from night_helpers import night_log, random_roll

EIGHT = ["Ann", "Bea", "Cat", "Dee", "Eve", "Fay", "Gus", "Hal"]
END = {"type": "end_night"}


def settle(night: Night, seed: int = 1) -> Night:
    """Roll random dice in the roll-offs due until there is none."""
    rng = random.Random(seed)
    while night.phase == "rolloff":
        night, _ = random_roll(night, rng)
    return night


def play_rounds(night: Night, rounds: int, seed: int = 7) -> Night:
    """Roll random dice for whoever may roll until ``rounds`` more rounds are finished."""
    rng = random.Random(seed)
    goal = len(night.history) + rounds
    while len(night.history) < goal:
        night, _ = random_roll(night, rng)
    return night


def test_classic_night_ends_after_round_two() -> None:
    night = play_rounds(party("classic", EIGHT), 2)
    assert (night.set_no, night.round_no, night.started) == (1, 3, False)
    ended = night.apply(END)
    assert ended.phase in ("over", "rolloff")
    report = night_report(ended)
    assert len(report["rounds"]) == 2
    assert report["ended_early"] == {"set": 1, "round": 2}
    assert report["next"] is None
    assert report["sets"] == 1
    assert report["changes"][-1] == {"type": "end_night", "set": 1, "round": 3}
    for name, card in report["players"].items():
        assert card["wins"] + card["losses"] == 2, name
    # the prizes come from the two rounds played: Most Wins goes to the players on 2 wins
    most_wins = next(p for p in report["prizes"] if p["category"] == "most_wins")
    top = max(c["wins"] for c in report["players"].values())
    leaders = sorted(n for n, c in report["players"].items() if c["wins"] == top)
    assert sorted(most_wins.get("candidates") or most_wins["winners"]) == leaders
    check_night(report, ended.rules, EIGHT)
    assert live_view(ended)["ended_early"] == {"set": 1, "round": 2}


def test_refused_mid_round_before_any_round_and_after_the_end() -> None:
    fresh = party("classic", EIGHT)
    with pytest.raises(NotAllowedNow, match="no round has been played yet"):
        fresh.apply(END)
    night = play_rounds(fresh, 1)
    mid = roll(night, 1, 2, 3, 4)
    before = night_report(mid)
    with pytest.raises(NotAllowedNow, match="a round is under way") as refused:
        mid.apply(END)
    assert "before the first roll of a round" in str(refused.value)
    assert night_report(mid) == before  # a refused command changes nothing
    over = settle(night.apply(END))
    with pytest.raises(NotAllowedNow, match="already over"):
        over.apply(END)
    with pytest.raises(Exception, match="the night is over"):
        roll(over, 1, 1, 1, 1)
    with pytest.raises(NotAllowedNow, match="no entry at table 1 to undo"):
        over.apply({"type": "undo", "table": 1})


def test_winning_moves_set_under_way_gets_its_winner() -> None:
    night = play_rounds(party("winning-moves", EIGHT, sets=2), 3, seed=3)
    ended = settle(night.apply(END))
    report = night_report(ended)
    assert ended.phase == "over"
    assert report["sets"] == 1 and len(report["set_winners"]) == 1
    winner = report["set_winners"][0]
    top = max(c["wins"] for c in report["players"].values())
    if winner["settled_by"] != "roll_off":
        assert report["players"][winner["winner"]]["wins"] == top
    assert report["winner"] == winner["winner"]


def test_between_sets_the_night_simply_ends() -> None:
    night = play_rounds(party("classic", EIGHT, sets=2), 6, seed=5)
    night = settle(night)
    assert (night.set_no, night.round_no, night.started) == (2, 1, False)
    ended = night.apply(END)
    report = night_report(ended)
    assert report["sets"] == 1
    assert report["ended_early"] == {"set": 1, "round": 6}
    assert [(r["set"], r["round"]) for r in report["rounds"]] == [(1, r) for r in range(1, 7)]


def test_the_log_replays_the_early_end() -> None:
    night = play_rounds(party("scil", EIGHT), 2, seed=11)
    ended = night.apply(END)
    lines = night_log(ended).splitlines()
    assert lines[-1] == '{"type": "end_night"}'
    assert night_report(read_log(lines)) == night_report(ended)


def test_replay_and_the_report_say_the_host_ended_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from typer.testing import CliRunner

    from bunco.cli import app
    from bunco.party.night_report import progress

    ended = settle(play_rounds(party("classic", EIGHT), 3, seed=2).apply(END))
    path = tmp_path / "early.jsonl"
    path.write_text(night_log(ended), encoding="utf-8")
    shown = " ".join(CliRunner().invoke(app, ["replay", str(path)]).stdout.split())
    assert "The night is over. The host ended it after set 1, round 3." in shown
    assert progress(ended) == "the night is over: the host ended it after set 1, round 3"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(["winning-moves", "classic", "scil", "tournament"]),
    players=st.integers(2, 14),
    sets=st.integers(1, 2),
    rounds=st.integers(0, 13),
    extra=st.sampled_from([0, 0, 0, 1, 3]),  # mostly right at a round's end
    seed=st.integers(0, 10_000),
)
def test_ending_at_any_moment_is_refused_cleanly_or_ends_the_night(
    preset: str, players: int, sets: int, rounds: int, extra: int, seed: int
) -> None:
    """Play ``rounds`` rounds (or the whole night) and ``extra`` rolls more, then end."""
    rng = random.Random(seed)
    night = party(preset, [f"P{i}" for i in range(players)], sets=sets)
    rolled = 0
    while night.phase != "over" and (len(night.history) < rounds or rolled < extra):
        if len(night.history) >= rounds:
            rolled += 1
        night, _ = random_roll(night, rng)
    before = (live_view(night), night_report(night), len(night.events))
    between = night.phase == "playing" and not night.started and bool(night.history)
    try:
        ended = night.apply(END)
    except NotAllowedNow:
        label("refused")
        assert not between
        assert (live_view(night), night_report(night), len(night.events)) == before
        return
    label("ended")
    assert between
    played = len(night.history)
    ended = settle(ended, seed)
    report = night_report(ended)
    assert ended.phase == "over" and report["next"] is None
    assert len(report["rounds"]) == played
    last = night.history[-1]
    assert report["ended_early"] == {"set": last.set_no, "round": last.round_no}
    assert report["sets"] == last.set_no
    for name, card in report["players"].items():
        seated = sum(name in t["players"] for r in report["rounds"] for t in r["tables"])
        assert card["wins"] + card["losses"] == seated, name
    assert night_report(read_log(night_log(ended).splitlines())) == report

"""Reading a party log from a file: a line at a time, short errors, cut last lines alike.

`bunco replay` and `bunco play --resume` read the file through
:func:`bunco.core.party_log.read_log_stream`; a line cut short by a crash is set aside the
same way whether or not a newline follows it.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bunco.cli.app import app
from bunco.core.errors import LogError
from bunco.core.party_log import MAX_LINE, read_log_stream, stream_lines
from bunco.play.logfile import LogFileError, resume_night, set_aside_cut_line

PARTY = json.dumps({"type": "party", "rules": "classic", "players": ["A", "B"]})
ROLL = json.dumps({"type": "roll", "table": 1, "dice": [1, 1, 1]})


def test_lines_are_read_one_at_a_time_up_to_a_limit() -> None:
    data = (PARTY + "\n" + ROLL + "\n" + "garbage\n").encode()
    night = read_log_stream(io.BytesIO(data), limit=len(PARTY) + len(ROLL) + 2)
    assert night.tables[0].points == (21, 0)
    with pytest.raises(LogError) as err:
        read_log_stream(io.BytesIO(data))
    assert err.value.line == 3


def test_a_line_longer_than_the_limit_is_refused_without_reading_it_whole() -> None:
    class Counting(io.BytesIO):
        largest = 0

        def readline(self, size: int | None = -1) -> bytes:
            line = super().readline(size)
            Counting.largest = max(Counting.largest, len(line))
            return line

    data = (PARTY + "\n" + '{"type": "join", "player": "' + "x" * (MAX_LINE + 10) + '"}\n').encode()
    with pytest.raises(LogError) as err:
        list(stream_lines(Counting(data)))
    assert err.value.line == 2 and "longer than" in err.value.message
    assert Counting.largest <= MAX_LINE + 1


def test_replay_of_a_huge_bad_line_prints_an_excerpt(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    log.write_text(PARTY + "\n" + '{"type": "' + "x" * 1_000_000 + '"}\n')
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code != 0
    assert "line 2" in result.output and len(result.output) < 2000


def test_replay_refuses_dice_as_text_like_the_api(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    log.write_text(PARTY + '\n{"type": "roll", "table": 1, "dice": ["1", 1, 1]}\n')
    result = CliRunner().invoke(app, ["replay", str(log)])
    assert result.exit_code != 0
    assert "line 2" in result.output and "whole number" in result.output


@pytest.mark.parametrize("ending", ["", "\n", "\r\n", "\n\n"])
def test_a_cut_last_line_is_set_aside_with_or_without_its_newline(
    tmp_path: Path, ending: str
) -> None:
    log = tmp_path / "n.jsonl"
    original = PARTY + "\n" + ROLL + "\n" + '{"type": "roll", "ta' + ending
    log.write_bytes(original.encode())
    with pytest.raises(LogFileError, match="line 3"):
        resume_night(log)
    backup, line = set_aside_cut_line(log) or (None, "")
    assert backup is not None and backup.read_bytes() == original.encode()
    assert line == '{"type": "roll", "ta'
    assert log.read_text() == PARTY + "\n" + ROLL + "\n"
    assert resume_night(log).tables[0].points == (21, 0)


@pytest.mark.parametrize("ending", ["", "\n"])
def test_a_whole_last_event_is_never_set_aside(tmp_path: Path, ending: str) -> None:
    log = tmp_path / "n.jsonl"
    log.write_text(PARTY + "\n" + ROLL + ending)
    assert set_aside_cut_line(log) is None
    assert not (tmp_path / "n.jsonl.bak").exists()


def test_a_log_broken_before_its_last_line_is_not_touched(tmp_path: Path) -> None:
    log = tmp_path / "n.jsonl"
    text = PARTY + "\nnot json\n" + ROLL + '\n{"type": "ro\n'
    log.write_text(text)
    assert set_aside_cut_line(log) is None
    assert log.read_text() == text
    with pytest.raises(LogFileError, match="line 2"):
        resume_night(log)

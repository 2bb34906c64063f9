"""The typed shapes of the host's records as the report and the live view read them
(:func:`bunco.core.hosting.host_report`)."""

from typing_extensions import TypedDict


class SetRound(TypedDict):
    """A round of the night: its set and its number."""

    set: int
    round: int


class DrawingView(TypedDict):
    """One drawing: the candidates in order, the random pick among them, the winner."""

    name: str
    candidates: list[str]
    pick: int
    winner: str
    exclude_winners: bool
    at: str | None


class BreakView(TypedDict):
    """A break under way: its minutes (None: open-ended), when it began, after which round."""

    minutes: int | None
    started_at: str | None
    after: SetRound | None


class JudgedView(TypedDict):
    """A judged prize as the host named it: the winner first."""

    prize: str
    group: str | None
    ranking: list[str]


HostReport = TypedDict(  # functional form: ``break`` is a Python keyword
    "HostReport",
    {
        "judged": list[JudgedView],
        "absent": list[str],
        "must_be_present": bool,
        "break": BreakView | None,
        "drawings": list[DrawingView],
    },
)
"""Everything the host recorded beside the dice, for the report and the live view."""

"""The party line of a new ``bunco play`` night, from the choices made at the prompt.

>>> party = build_party("classic", make_roster("4", ["Ann"]), sets=1, seed=5)
>>> party["tables"], party["bots"], party["seed"]
([['Ann', 'Bea', 'Cal', 'Dot']], ['Bea', 'Cal', 'Dot'], 5)
>>> build_party("tournament", make_roster("2", []), sets=1, seed=1)["house_rules"]
{'verify_for_prizes': 'false'}
"""

from __future__ import annotations

from collections.abc import Mapping

from bunco.core.party_setup import PartyLine
from bunco.core.presets import get_rules, preset_name
from bunco.core.rules import HouseRuleValue
from bunco.core.seating import first_seating
from bunco.play.roster import Roster, make_roster

__all__ = ["build_party", "make_roster"]


def build_party(
    rules: str,
    roster: Roster,
    *,
    sets: int,
    seed: int,
    house_rules: Mapping[str, HouseRuleValue] | None = None,
    shuffle: bool = False,
    physical: bool = False,
) -> PartyLine:
    """The first line of the party log; raises :class:`~bunco.core.errors.BuncoError`.

    Players are seated in roster order (humans first) unless ``shuffle``, which lets the
    engine shuffle them with ``seed``. The program keeps every card itself, so a preset
    that wants a checker's verification before prizes (``tournament``) plays with
    ``verify_for_prizes`` off unless the house rules say otherwise. With ``physical``
    the party line says ``"dice": "physical"``, so ``--resume`` goes on typing dice.
    """
    name = preset_name(rules)
    house = dict(house_rules or {})
    if get_rules(name).verify_for_prizes and "verify_for_prizes" not in house:
        house["verify_for_prizes"] = "false"
    ruleset = get_rules(name, house)
    party: PartyLine = {
        "type": "party",
        "rules": name,
        "players": list(roster.players),
        "sets": sets,
        "seed": seed,
        "bots": list(roster.bots),
    }
    if physical:
        party["dice"] = "physical"
    if house:
        party["house_rules"] = house
    if not shuffle:
        party["tables"] = [list(t) for t in first_seating(roster.players, ruleset)]
    return party

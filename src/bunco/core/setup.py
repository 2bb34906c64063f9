"""The first line of a party log: who plays, under which rules, seated how.

>>> party = normalize_setup({"type": "party", "rules": "wm", "players": ["Ann", "Bea"]})
>>> party["rules"], party["sets"]
('winning-moves', 1)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import TypeGuard

from bunco.core.awards import award_keys
from bunco.core.errors import BuncoError, InvalidSetup
from bunco.core.hosting import normalize_judged, prize_key
from bunco.core.money import implied_judged, normalize_money
from bunco.core.names import MAX_NAME, clean_text, name_key, person_name
from bunco.core.party_setup import PartySetup, PrizeOptions
from bunco.core.presets import get_rules, preset_name
from bunco.core.rules import HouseRuleValue, Prize, PrizeTies, RuleSet, whole_number_rules
from bunco.core.seating import Tables, first_seating, validate_seating

__all__ = ["MAX_NAME", "MAX_PLAYERS", "first_tables", "normalize_setup", "rules_of"]

MAX_PLAYERS = 2000
MAX_SEED = 2**63


def normalize_setup(setup: object) -> PartySetup:
    """Check a party line and return it in canonical form; raises :class:`InvalidSetup`."""
    if not isinstance(setup, Mapping):
        raise InvalidSetup(
            "the first line must be a JSON object", expected='{"type": "party", ...}'
        )
    if setup.get("type", "party") != "party":
        raise InvalidSetup(
            f"the first line has type {setup.get('type')!r}", expected='"type": "party"'
        )
    rules_name = setup.get("rules", "classic")
    if not isinstance(rules_name, str):
        raise InvalidSetup(
            f"rules {rules_name!r} is not a preset name",
            expected="winning-moves, classic, scil or tournament",
        )
    preset = preset_name(rules_name)
    house = setup.get("house_rules") or {}
    if not isinstance(house, Mapping):
        raise InvalidSetup("house_rules must be an object", expected='{"wipeout": true, ...}')
    house_rules = _house_rules(house) if house else None
    players = setup.get("players")
    if not isinstance(players, list) or len(players) < 2:
        raise InvalidSetup(
            "a party needs a list of at least two players",
            expected='"players": ["Ann", "Bea", ...]',
        )
    if len(players) > MAX_PLAYERS:
        raise InvalidSetup(f"{len(players)} players is too many", expected=f"at most {MAX_PLAYERS}")
    names = [person_name(p, "player") for p in players]
    keys: dict[str, str] = {}
    for name in names:
        key = name_key(name)
        other = keys.get(key)
        keys[key] = name
        if other == name:
            raise InvalidSetup(f"player {name!r} is listed twice", expected="every name once")
        if other is not None:
            raise InvalidSetup(
                f"players {other!r} and {name!r} are the same name (case, spacing and "
                "look-alike letters are ignored when names are compared)",
                expected="names that tell every player apart",
            )
    seen = set(names)
    sets = setup.get("sets", 1)
    if isinstance(sets, bool) or not isinstance(sets, int) or not 1 <= sets <= 4:
        raise InvalidSetup(f"sets {sets!r} is not allowed", expected="1 to 4 sets")
    out: PartySetup
    if house_rules is None:  # the keys in the log's order
        out = {"type": "party", "rules": preset, "players": names, "sets": sets}
    else:
        out = {
            "type": "party",
            "rules": preset,
            "house_rules": house_rules,
            "players": names,
            "sets": sets,
        }
    if setup.get("name") is not None:
        out["name"] = clean_text(str(setup["name"]), "name")
    if setup.get("created") is not None:
        out["created"] = clean_text(str(setup["created"]), "created")
    if setup.get("seed") is not None:
        seed = setup["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or not -MAX_SEED <= seed <= MAX_SEED:
            raise InvalidSetup(
                f"seed {str(seed)[:30]!r} is not a whole number within ±2^63",
                expected="an integer seed",
            )
        out["seed"] = seed
    if setup.get("prizes") is not None:
        prizes = setup["prizes"]
        if not isinstance(prizes, list):
            raise InvalidSetup(
                "prizes must be a list", expected="a list of " + ", ".join(p.value for p in Prize)
            )
        try:
            out["prizes"] = [Prize(str(p)).value for p in prizes]
        except ValueError:
            raise InvalidSetup(
                f"unknown prize in {prizes!r}",
                expected="some of " + ", ".join(p.value for p in Prize),
            ) from None
    if setup.get("prize_ties") is not None:
        try:
            out["prize_ties"] = PrizeTies(str(setup["prize_ties"])).value
        except ValueError:
            raise InvalidSetup(
                f"prize_ties {setup['prize_ties']!r}", expected="roll_off or shared"
            ) from None
    if setup.get("dice") is not None:  # how rolls are entered: drawn, or typed from real dice
        if setup["dice"] not in ("digital", "physical"):
            raise InvalidSetup(f"dice {setup['dice']!r}", expected='"digital" or "physical"')
        out["dice"] = setup["dice"]
    if setup.get("groups") is not None:
        out["groups"] = _groups(setup["groups"], names)
    if setup.get("bots") is not None:
        bots = setup["bots"]
        if isinstance(bots, list):
            bots = [person_name(b, "bot") for b in bots]
        if not isinstance(bots, list) or any(b not in seen for b in bots):
            raise InvalidSetup(
                "bots must list players of the night", expected='"bots": ["Ann", ...]'
            )
        out["bots"] = list(bots)
    if setup.get("tables") is not None:
        tables = setup["tables"]
        if not isinstance(tables, list) or not all(isinstance(t, list) for t in tables):
            raise InvalidSetup(
                "tables must be a list of tables, each a list of names",
                expected='"tables": [["Ann", "Bea", "Cat", "Dee"]]',
            )
        out["tables"] = [[None if s is None else person_name(s, "seat") for s in t] for t in tables]
    rules = rules_of(out)  # house rules are checked here, so a bad one is refused at the first line
    options = prize_options(setup, out, rules)
    if "must_be_present" in options:
        out["must_be_present"] = options["must_be_present"]
    if "one_prize_per_person" in options:
        out["one_prize_per_person"] = options["one_prize_per_person"]
    if "judged" in options:
        out["judged"] = options["judged"]
    if "money" in options:
        out["money"] = options["money"]
    return out


def prize_options(setup: Mapping[str, object], party: PartySetup, rules: RuleSet) -> PrizeOptions:
    """The party line's judged prizes, presence and payout options, and its money."""
    out: PrizeOptions = {}
    present = _flag(setup, "must_be_present")
    if present is not None:
        out["must_be_present"] = present
    one_prize = _flag(setup, "one_prize_per_person")
    if one_prize is not None:
        out["one_prize_per_person"] = one_prize
    night_prizes = [p.value for p in rules.prizes]
    groups = list(party.get("groups", {}))
    grouped = bool(groups) and rules.prize_groups
    judged = setup.get("judged")
    if judged is None:  # the tournament money table brings its Best Costume
        judged = implied_judged(setup.get("money"))
    if judged is not None:
        out["judged"] = normalize_judged(judged, {*night_prizes, "group_most_buncos"})
    if setup.get("money") is not None:
        keys = award_keys(night_prizes, [prize_key(j) for j in out.get("judged", [])], grouped)
        out["money"] = normalize_money(
            setup["money"], keys, groups if grouped else [], players=len(party["players"])
        )
    return out


def _flag(setup: Mapping[str, object], key: str) -> bool | None:
    """A true-or-false field of the party line, or None when it is not given."""
    value = setup.get(key)
    if value is not None and not isinstance(value, bool):
        raise InvalidSetup(f"{key} {value!r} is not true or false", expected="true or false")
    return value


def _house_rules(house: Mapping[object, object]) -> dict[str, HouseRuleValue]:
    """The house rules of a party line: a number rule takes a JSON integer (``21``, not
    ``"21"`` or ``21.5``); names and values are checked again by the rule set."""
    numbers = whole_number_rules()
    out: dict[str, HouseRuleValue] = {}
    for key, value in house.items():
        if not isinstance(key, str):
            raise InvalidSetup(f"house rule {key!r} is not a name", expected="a rule's name")
        clean_text(key, "house rule")
        if not _rule_value(value):
            raise InvalidSetup(
                f"house rule {key!r} is {str(value)[:30]!r}, not a rule's value",
                expected="true or false, a number, a text, or a list of them",
            )
        items = value if isinstance(value, list) else [value]
        if key.replace("-", "_") in numbers and not all(
            isinstance(v, int) and not isinstance(v, bool) for v in items
        ):
            raise InvalidSetup(
                f"house rule {key!r} is {str(value)[:30]!r}, not a whole number",
                expected="a JSON integer such as 21 (not text, not a fraction)",
            )
        out[key] = value
    return out


def _rule_value(value: object) -> TypeGuard[HouseRuleValue]:
    """Whether ``value`` is a house rule's value: one JSON scalar, or a list of texts and
    whole numbers (what the rule set reads; an object never is)."""
    if value is None or isinstance(value, bool | int | float | str):
        return True
    return isinstance(value, list) and all(isinstance(v, str | int) for v in value)


def _groups(groups: object, names: list[str]) -> dict[str, list[str]]:
    if not isinstance(groups, Mapping):
        raise InvalidSetup(
            "groups must map a group name to its players", expected='{"Group 1": ["Ann", ...]}'
        )
    out: dict[str, list[str]] = {}
    placed: set[str] = set()
    for group, members in groups.items():
        if not isinstance(members, list):
            raise InvalidSetup(f"group {group!r} must list players", expected="a list of names")
        clean_text(str(group), "group")
        members = [person_name(m, "group member") for m in members]
        for member in members:
            if member not in names:
                raise InvalidSetup(
                    f"group {group!r} lists {member!r}, who is not a player",
                    expected="players of the night",
                )
            if member in placed:
                raise InvalidSetup(
                    f"{member!r} is in two groups", expected="each player in one group"
                )
            placed.add(member)
        out[str(group)] = list(members)
    return out


def rules_of(party: PartySetup) -> RuleSet:
    """The rule set of a normalised party line (preset, house rules, prizes)."""
    house: dict[str, HouseRuleValue] = dict(party.get("house_rules", {}))
    if "prizes" in party:
        house["prizes"] = party["prizes"]
    if "prize_ties" in party:
        house["prize_ties"] = party["prize_ties"]
    try:
        return get_rules(party["rules"], house)
    except BuncoError as exc:
        raise InvalidSetup(exc.message, expected=exc.expected) from None


def first_tables(party: PartySetup, rules: RuleSet) -> Tables:
    """Round 1's seating: as given, else the players in order (shuffled when a seed is set)."""
    players = list(party["players"])
    if party.get("tables") is not None:
        return validate_seating(party["tables"], players, rules)
    if party.get("seed") is not None:
        random.Random(party["seed"]).shuffle(players)
    return first_seating(players, rules)

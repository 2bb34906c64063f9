"""A change of a night's server options (:class:`~bunco.core.server_options.NightOptions`),
and what it did: the values both the options' writes
(:meth:`EventStore.change_options <bunco.store.events.EventStore.change_options>`) and the
tokens' (:mod:`bunco.store.night_tokens`) speak of.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bunco.core.server_options import NightOptions

OptionsChange = Callable[[NightOptions], NightOptions]
"""A change of a night's options: the options as stored in (a copy), the new ones out."""


@dataclass(frozen=True, slots=True)
class ChangedOptions:
    """The night's options just before a change and as it left them."""

    before: NightOptions
    after: NightOptions

"""Read models over a night's fold: what pages, sheets, the terminal and the API show.

- :mod:`bunco.party.view`: the live view of a night and of one table (the pages).
- :mod:`bunco.party.night_report`: the ``bunco replay --json`` report and the night in words.
- :mod:`bunco.party.standings`: the one ranking of players, with the prizes they won.
- :mod:`bunco.party.sheets`: table tallies, score cards and their lines, the master sheet.

Everything here reads a folded :class:`~bunco.core.night.Night` and imports only
:mod:`bunco.core`; nothing here changes a night.
"""

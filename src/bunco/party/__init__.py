"""The party on paper: score sheets, table tallies and the master score sheet of a night."""

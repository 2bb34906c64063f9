"""A club's season: roster, nights, dues ledger and standings, as pure folds (core only)."""

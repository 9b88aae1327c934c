"""The event log: the hash chain, appending with an expected seq, forced moves, replay,
verify, export and import. Knows no mail and no Flask."""

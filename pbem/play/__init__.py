"""Use cases: every write (create a game, act, a default at a deadline, renew, pause, talk,
settings...) is one function that opens the transaction and calls the log, the clock, the
links and the outbox. Routes, commands and workers call these, never the models."""

"""Who made each move (issue: the review's clean-up): `event.played_by` says who chose a seat's
move as it is recorded — "player", "forced" (the server played its only move), "computer" (a
computer's seat), "stand_in" (the computer for a player), or why its default was played:
"deadline", "absent", "host", "handover" (chain.TIMEOUT_MARKS). Events recorded before have
none (their pages and imports read the flags and the log line, as before). Only a default's
why enters the hash, and only on the events that have one. Rolls back: yes (the column goes;
the default moves played since the upgrade then fail `pbem games verify` with a hash that does
not match, as the old release does not hash their why: export such games before rolling back
if their records must check)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("event", played_by=pw.CharField(max_length=16, null=True))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("event", "played_by")

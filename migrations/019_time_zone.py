"""A player may choose a time zone on the home page (issue 24): mails then write each moment in
it too, next to UTC. An IANA name ("Europe/Budapest"); empty: none chosen. Rolls back: yes (the
column goes; mails are written in UTC alone, as before)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.add_fields("player_settings", time_zone=pw.CharField(max_length=64, default=""))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("player_settings", "time_zone")

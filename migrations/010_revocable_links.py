"""Credentials that can be revoked (issue 18, item 2; issue 24, item 6): each address's
home-link generation (a renew or the host's revoke stops every older home link), and what
spent each turn link (the move it last saw, and whether a move, a newer link or the host
ended it). Rolls back: yes (home links then never stop before they expire; link pages say
less)."""

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class HomeKey(pw.Model):
        email = pw.CharField(max_length=254, unique=True)
        generation = pw.IntegerField(default=0)
        renewed_at = pw.DateTimeField(null=True)

        class Meta:
            table_name = "home_key"

    migrator.add_fields("link", spent_seq=pw.IntegerField(null=True),
                        spent_by=pw.CharField(max_length=20, default=""),
                        source=pw.CharField(max_length=20, default=""))


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_fields("link", "spent_seq", "spent_by", "source")
    migrator.remove_model("home_key")

"""/me does the same work for every address (issue 18, item 7): the asked-for home link waits
in home_request, one row an address, until the mail worker looks the address up. Rolls back:
yes (the table goes; requests not answered yet are lost: the player asks again)."""

import datetime as dt

import peewee as pw
from peewee_migrate import Migrator


def migrate(migrator: Migrator, database: pw.Database, *, fake=False):
    @migrator.create_model
    class HomeRequest(pw.Model):
        email = pw.CharField(max_length=254, unique=True)
        language = pw.CharField(max_length=8, default="en")
        requested_at = pw.DateTimeField(default=dt.datetime.utcnow)

        class Meta:
            table_name = "home_request"


def rollback(migrator: Migrator, database: pw.Database, *, fake=False):
    migrator.remove_model("home_request")

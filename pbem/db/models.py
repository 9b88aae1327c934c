"""The database: games, seats, the append-only event log, turn links and the mail outbox.

Every model binds to `db`, a proxy that `create_app` points at SQLite or PostgreSQL.
"""
from __future__ import annotations

import datetime as dt
import json

import peewee as pw

db = pw.DatabaseProxy()


def utcnow() -> dt.datetime:
    return dt.datetime.now(dt.timezone.utc).replace(tzinfo=None)


class Digest(pw.BlobField):
    """A SHA-256 digest kept as its 32 bytes (migration 030), read and written as the 64 hex
    digits every other part of pbem speaks: half of what the text took, on every event. A
    row written before 030 (text) reads as it is."""

    def db_value(self, value):
        return None if value is None else bytes.fromhex(value)

    def python_value(self, value):
        if value is None or isinstance(value, str):
            return value
        return bytes(value).hex()


class JSONField(pw.TextField):
    """JSON kept as text, so SQLite and PostgreSQL store it alike. `plain_text`: letters
    beyond ASCII kept as they are (UTF-8) rather than escaped, for a field that holds only the
    server's own words (an escape takes 6 bytes where the letter takes 2); anything a person
    typed stays escaped, since a lone surrogate could not be stored otherwise."""

    def __init__(self, *args, plain_text: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.plain_text = plain_text

    def db_value(self, value):
        return None if value is None else json.dumps(value, sort_keys=True, separators=(",", ":"),
                                                     ensure_ascii=not self.plain_text)

    def python_value(self, value):
        return None if value is None else json.loads(value)


class BaseModel(pw.Model):
    class Meta:
        database = db


class Game(BaseModel):
    rules = pw.CharField(max_length=40)
    rules_version = pw.IntegerField()
    options = JSONField()
    players = pw.IntegerField()
    seed = pw.BigIntegerField()
    salt = pw.CharField(max_length=32, null=True)  # of the shuffle commitment; None: made before
    seq = pw.IntegerField(default=0)              # seq of the last event
    head_hash = pw.CharField(max_length=64)        # hash of the last event
    state = JSONField()                            # snapshot: rules.dump(state) after `seq`
    # running | over; found through the indexes (status, id) and (status, finished_at, id)
    status = pw.CharField(max_length=10, default="running")
    title = pw.CharField(max_length=200, default="")
    host_email = pw.CharField(max_length=254, default="")
    host_nonce_hash = pw.CharField(max_length=64, default="")
    created_at = pw.DateTimeField(default=utcnow)
    finished_at = pw.DateTimeField(null=True)
    # pace (pbem/play/pace.py): days per decision (None: no limit), what a missed deadline does
    pace_days = pw.FloatField(null=True)
    on_timeout = pw.CharField(max_length=8, default="wait")     # wait | auto | bot
    drop_after = pw.IntegerField(default=3)    # auto: missed deadlines in a row, then dropped
    paused_at = pw.DateTimeField(null=True)    # the host paused the game: no clock runs
    resumed_at = pw.DateTimeField(null=True)
    # the pace pass failed on this game at move `pace_error_seq`: skipped until the game moves
    pace_error = pw.TextField(default="")
    pace_error_seq = pw.IntegerField(null=True)
    # undo within a turn (pbem/log/undo.py): {"seat", "states"}, the dumped states before the
    # actions the seat on turn may still take back, oldest first; None when there are none
    undo = JSONField(null=True)
    # the finished game this one replays (pbem/play/rematch.py): at most one rematch a game
    rematch_of = pw.IntegerField(null=True, unique=True)
    # how the players ended it together (pbem/log/ending.py): {"resigned": [seats], "agreed":
    # [seats], "ended": None | "resigned" | "abandoned"}; None until someone resigns or proposes
    ending = JSONField(null=True)
    # whether each player's quiet hours stop their clock (pbem/play/quiet.py); the host's choice
    quiet_hours = pw.BooleanField(default=True)
    # a clock with a bank (pbem/play/bank.py): {"days", "increment", "cap"}; None: a pace
    bank = JSONField(null=True)


class Seat(BaseModel):
    game = pw.ForeignKeyField(Game, backref="seats", on_delete="CASCADE", index=False)
    index = pw.IntegerField()
    name = pw.CharField(max_length=100)
    email = pw.CharField(max_length=254, default="")
    language = pw.CharField(max_length=8, default="en")
    seen_seq = pw.IntegerField(default=0)   # events up to here were in this seat's last turn mail
    # the clock of the decision the seat is asked now (pbem/play/pace.py); None when not asked
    asked_at = pw.DateTimeField(null=True)
    remind_at = pw.DateTimeField(null=True)     # three quarters of the time, shifted by pauses
    deadline = pw.DateTimeField(null=True)
    bank_left = pw.FloatField(null=True)        # a game with a bank: days left between decisions
    held_at = pw.DateTimeField(null=True)       # the clock stopped here (vacation, game paused)
    reminded_at = pw.DateTimeField(null=True)
    late_at = pw.DateTimeField(null=True)       # the deadline passed and was dealt with
    missed = pw.IntegerField(default=0)         # deadlines missed in a row
    dropped = pw.BooleanField(default=False)    # default moves are played as soon as asked
    # the turn (the engine's turn_of, as JSON) whose deadline the seat missed: its defaults
    # are played whenever it is asked until that turn ends (a default plays the whole decision)
    default_turn = pw.TextField(null=True)
    handed_over = pw.BooleanField(default=False)  # dropped by the host's hand-over, not misses
    talk_mailed_upto = pw.IntegerField(default=0)  # table talk up to this Message.id was mailed
    # computer players (pbem/play/computers.py): the level of a seat the computer plays (no
    # address), and whether the computer answers the seat's present decision (a missed deadline)
    bot_level = pw.IntegerField(null=True)
    stand_in = pw.BooleanField(default=False)

    class Meta:
        indexes = ((("game", "index"), True),)


class Event(BaseModel):
    game = pw.ForeignKeyField(Game, backref="events", on_delete="CASCADE", index=False)
    seq = pw.IntegerField()
    seat = pw.IntegerField(null=True)       # None for the game's creation (seq 0)
    action = JSONField()
    automatic = pw.BooleanField(default=False)
    timeout = pw.BooleanField(default=False)   # the seat's default move, played at its deadline
    bot = pw.BooleanField(default=False)       # chosen by the computer (pbem/play/computers.py)
    # who chose a seat's move (chain.PLAYED_BY); None on the events recorded before 0.3.1
    played_by = pw.CharField(max_length=16, null=True)
    summary = pw.TextField(default="")      # rules.describe(...) in English, names as {p0}...
    # language -> the line in it, for the languages the table reads (pbem/log/lines.py)
    summaries = JSONField(default=dict, plain_text=True)
    created_at = pw.CharField(max_length=32)  # ISO text, exactly as hashed
    hash = Digest()

    class Meta:
        # (game, seq) names an event: its key (031: PostgreSQL drops the serial id; SQLite's
        # id is the table's rowid, not read)
        primary_key = pw.CompositeKey("game", "seq")
        indexes = ((("game", "seq"), True),)


class Checkpoint(BaseModel):
    """The state after event `seq`, kept every CHECKPOINT_EVERY events (pbem/log/store.py) so
    that any step of a replay starts from the nearest one at or before it, in every worker.
    Written with its event (or by an import or a verify), never updated; `hash` is that event's,
    so a checkpoint is only ever used on the chain it belongs to."""
    game = pw.ForeignKeyField(Game, backref="checkpoints", on_delete="CASCADE", index=False)
    seq = pw.IntegerField()
    hash = Digest()
    state = JSONField()

    class Meta:
        indexes = ((("game", "seq"), True),)


class Link(BaseModel):
    game = pw.ForeignKeyField(Game, backref="links", on_delete="CASCADE", index=False)
    seat = pw.IntegerField()
    turn_seq = pw.IntegerField()            # the game's seq when the seat became to act
    nonce_hash = pw.CharField(max_length=64, unique=True)
    created_at = pw.DateTimeField(default=utcnow)
    expires_at = pw.DateTimeField()
    spent_at = pw.DateTimeField(null=True)
    spent_reason = pw.CharField(max_length=20, default="")  # played | turn_over | replaced | revoked
    spent_seq = pw.IntegerField(null=True)  # the game's seq when it was spent: what it last saw
    # who or what spent it: played by the seat (you), a move played for it (timeout, host,
    # dropped), a newer link (renew, resend, play now, digest, revoke) -- see pbem/play/links.py
    spent_by = pw.CharField(max_length=20, default="")
    source = pw.CharField(max_length=20, default="")   # where it came from: links.SOURCES

    class Meta:
        indexes = ((("game", "seat", "spent_at"), False),)


class Outbox(BaseModel):
    message_id = pw.CharField(max_length=200, unique=True)
    game = pw.ForeignKeyField(Game, backref="mail", null=True, on_delete="SET NULL")
    seat = pw.IntegerField(null=True)
    kind = pw.CharField(max_length=20)      # invite | turn | link | host
    recipient = pw.CharField(max_length=254)
    subject = pw.CharField(max_length=300)
    body_text = pw.TextField(default="")
    body_html = pw.TextField(default="")
    # what to send: the template and its context (JSON), rendered outside the game's lock by
    # pbem/mail/compose.py after the transaction commits, or by the worker before sending
    template = pw.CharField(max_length=40, default="")
    context = JSONField(null=True)
    language = pw.CharField(max_length=8, default="en")
    rendered = pw.BooleanField(default=True)
    created_at = pw.DateTimeField(default=utcnow)
    attempts = pw.IntegerField(default=0)
    next_try_at = pw.DateTimeField(default=utcnow, index=True)
    claimed_until = pw.DateTimeField(null=True)
    claimed_by = pw.CharField(max_length=300, null=True)    # host:pid of the claiming process
    sent_at = pw.DateTimeField(null=True, index=True)
    failed_at = pw.DateTimeField(null=True)  # permanent failure, shown to the host
    last_error = pw.TextField(default="")

    class Meta:
        indexes = ((("recipient", "sent_at"), False),)   # mails per recipient per day


class Heartbeat(BaseModel):
    """When each process that sends mail or plays the computers (a mail worker, a cron
    `mail send` or `pbem bots`) last finished a pass, by the database's clock, and whether it
    said goodbye; the last read of the replies' IMAP mailbox (kind "imap"), for /health."""
    kind = pw.CharField(max_length=40)          # "mail worker" | "mail send" | "bots" | "imap"
    host = pw.CharField(max_length=255)
    pid = pw.IntegerField()                     # 0 for a one-shot command (one row per host)
    started_at = pw.DateTimeField()
    beat_at = pw.DateTimeField()
    stopped_at = pw.DateTimeField(null=True)    # set by a worker that stopped cleanly
    clock_ahead = pw.FloatField(null=True)      # seconds its clock was ahead of the database's
    error = pw.TextField(default="")            # "imap": the last read's error ("" when fine)
    lost_at = pw.DateTimeField(null=True)       # a later worker on its host found it gone

    class Meta:
        indexes = ((("host", "pid", "kind"), True),)


class Signup(BaseModel):
    """A game asked for on /new: kept until its host confirms it from their own mailbox (or it
    expires); every one counts towards the daily limits per host address and per client."""
    nonce_hash = pw.CharField(max_length=64, unique=True)
    host_email = pw.CharField(max_length=254, default="", index=True)   # lower case
    client = pw.CharField(max_length=64, default="", index=True)        # the request's address
    request = JSONField()                   # rules, players, options, title: the checked form
    language = pw.CharField(max_length=8, default="en")
    created_at = pw.DateTimeField(default=utcnow, index=True)
    expires_at = pw.DateTimeField()
    confirmed_at = pw.DateTimeField(null=True)
    game = pw.ForeignKeyField(Game, null=True, on_delete="SET NULL")


class OptOut(BaseModel):
    """An address that asked for no more mail from this server (kept in lower case)."""
    email = pw.CharField(max_length=254, unique=True)
    created_at = pw.DateTimeField(default=utcnow)


class Vacation(BaseModel):
    """A player's days away, by normalized email address: their deadlines wait meanwhile.
    The bank is PBEM_VACATION_DAYS a calendar year; `used_days` counts this `year`'s."""
    email = pw.CharField(max_length=254, unique=True)
    year = pw.IntegerField()
    used_days = pw.FloatField(default=0)
    away_from = pw.DateTimeField(null=True)
    away_until = pw.DateTimeField(null=True)
    bot = pw.BooleanField(default=False)        # the computer plays their seats meanwhile


class Message(BaseModel):
    """Table talk: a short message by a seat, kept beside the log (never an event)."""
    game = pw.ForeignKeyField(Game, backref="messages", on_delete="CASCADE", index=False)
    seat = pw.IntegerField(null=True)
    text = pw.TextField()
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("game", "id"), False),)


class PlayerSettings(BaseModel):
    """What one email address chose on its home page (defaults when it has no row)."""
    email = pw.CharField(max_length=254, unique=True)   # lower case
    mail_mode = pw.CharField(max_length=10, default="each")   # each | digest
    digest_hour = pw.IntegerField(default=7)             # UTC hour of the daily digest
    last_digest_on = pw.DateField(null=True)
    time_zone = pw.CharField(max_length=64, default="")  # an IANA name; "": none chosen
    # quiet hours (pbem/play/quiet.py), in `time_zone`: a daily window in minutes after
    # midnight (None: none) and whole quiet days ("sat,sun")
    quiet_start = pw.IntegerField(null=True)
    quiet_end = pw.IntegerField(null=True)
    quiet_days = pw.CharField(max_length=32, default="")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "player_settings"


class Webhook(BaseModel):
    """A game's chat webhook (pbem/play/webhooks.py): its turns and result are posted there."""
    game = pw.ForeignKeyField(Game, backref="webhooks", unique=True, on_delete="CASCADE")
    url = pw.CharField(max_length=254)
    created_at = pw.DateTimeField(default=utcnow)


class ReplyAddress(BaseModel):
    """The reply id of one turn mail (its Reply-To turns+<id>@...), bound to that mail's link:
    only the id's hash is kept."""
    id_hash = pw.CharField(max_length=64, unique=True)
    link = pw.ForeignKeyField(Link, backref="replies", on_delete="CASCADE")
    created_at = pw.DateTimeField(default=utcnow)
    answered_at = pw.DateTimeField(null=True)   # its last answer (at most one an hour)

    class Meta:
        table_name = "reply_address"


class InboundMail(BaseModel):
    """A reply handled once (played or answered): the same Message-ID again changes nothing."""
    key_hash = pw.CharField(max_length=64, unique=True)    # sha256 of the Message-ID
    outcome = pw.CharField(max_length=20)                  # played | answered
    received_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "inbound_mail"


class DoneOnce(BaseModel):
    """Work done once per database, not once per process (the redaction of mail sent by
    versions before it): its name, when it was done."""
    name = pw.CharField(max_length=60, unique=True)
    done_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "done_once"


class HomeKey(BaseModel):
    """The generation of an address's home links (pbem/play/home.py): a home link names the
    generation it was issued in and works only while that is the address's current one, so
    "send me a new link" and the host's revoke stop every older home link."""
    email = pw.CharField(max_length=254, unique=True)   # lower case
    generation = pw.IntegerField(default=0)
    renewed_at = pw.DateTimeField(null=True)

    class Meta:
        table_name = "home_key"


class HomeRequest(BaseModel):
    """An address that asked /me for its home link, waiting for the mail worker: /me writes
    the same row for every address and answers at once; whether the address plays is looked
    up later (pbem/play/fresh.py). One row an address (asked again: nothing more)."""
    email = pw.CharField(max_length=254, unique=True)   # normalized
    language = pw.CharField(max_length=8, default="en")
    requested_at = pw.DateTimeField(default=utcnow)

    class Meta:
        table_name = "home_request"


MODELS = [Game, Seat, Event, Checkpoint, Link, Outbox, Heartbeat, Signup, OptOut, Vacation, Message,
          PlayerSettings, Webhook, ReplyAddress, InboundMail, HomeKey, HomeRequest, DoneOnce]

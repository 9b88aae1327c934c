"""A chat post has a deadline for all of it (connecting, the answer's status line, headers and
body): a receiver on this machine that trickles its answer a byte at a time is cut off at the
deadline, the mail of every game goes out before any post, and the posts of one pass of the
mail worker take at most the pass's time for posts, the rest waiting untried for the next."""
from __future__ import annotations

import select
import socket
import threading

import pytest

from pbem.db.models import Game, Outbox
from pbem.mail import mailer
from pbem.mail import webhooks as delivering
from pbem.play import creation
from pbem.play import webhooks

ANSWER_HEAD = b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
TRICKLE = 0.2           # seconds between two bytes of a slow answer


class TricklingReceiver:
    """A chat server that reads each post whole, then answers one byte every TRICKLE seconds
    (a full answer takes about 30 s). It counts its connections, the bytes it got out before
    the client hung up, and, with `inbox`, the mails that inbox held when each post came."""

    def __init__(self, slow: str = "head", inbox=None):
        head = ANSWER_HEAD + b"X-Padding: " + b"." * 100 + b"\r\nContent-Length: 40\r\n\r\n"
        self.fast, self.slow = (b"", head + b"o" * 40) if slow == "head" else (head, b"o" * 40)
        self.full_bytes = len(self.fast) + len(self.slow)
        self.inbox = inbox
        self.connections = 0
        self.written: list[int] = []            # slow bytes written, per connection
        self.mails_before: list[int] = []
        self.answered = threading.Condition()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/hooks/abc"
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self):
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:
                return                          # closed at the end of the test
            self.connections += 1
            if self.inbox is not None:
                self.mails_before.append(len(self.inbox.messages))
            with conn:
                try:
                    written = self._answer(conn)
                except OSError:                 # reset while it read the post: nothing written
                    written = 0
            with self.answered:
                self.written.append(written)
                self.answered.notify_all()

    def bytes_written(self, connections: int) -> list[int]:
        """The slow bytes written on each connection, once the first `connections` ended (it
        sees a client hang up at its next byte)."""
        with self.answered:
            assert self.answered.wait_for(lambda: len(self.written) >= connections, 60)
            return list(self.written)

    def _answer(self, conn) -> int:
        request = b""
        while b"\r\n\r\n" not in request:
            chunk = conn.recv(65536)
            if not chunk:
                return 0
            request += chunk
        head, _, body = request.partition(b"\r\n\r\n")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(body) < length:
            body += conn.recv(65536)
        conn.sendall(self.fast)
        written = 0
        for byte in self.slow:
            readable, _, _ = select.select([conn], [], [], TRICKLE)
            if readable and self._hung_up(conn):
                return written
            try:
                conn.sendall(bytes([byte]))
            except OSError:
                return written
            written += 1
        return written

    @staticmethod
    def _hung_up(conn) -> bool:
        """The client closed (an end of file) or reset the connection (which used to kill
        this server's thread, so the next post went uncounted)."""
        try:
            return not conn.recv(1)
        except OSError:
            return True

    def close(self):
        self.listener.close()


@pytest.fixture
def receivers():
    made = []

    def make(**kwargs):
        made.append(TricklingReceiver(**kwargs))
        return made[-1]
    yield make
    for receiver in made:
        receiver.close()


@pytest.fixture
def short_deadline(app):
    app.config.update(WEBHOOK_ALLOW_PRIVATE=True, WEBHOOK_TIMEOUT=1.0)
    return app


def players(*names):
    return [{"name": name, "email": f"{name.lower()}@example.org"} for name in names]


# 1 s of a 0.2 s trickle is 5 bytes; the bound leaves room for a slow machine, and is a tenth
# of what the receiver would trickle without a deadline (a per-read timeout never fires)
BOUND = 15


@pytest.mark.parametrize("slow", ["head", "body"])
def test_a_trickling_receiver_is_cut_off_at_the_post_deadline(short_deadline, receivers, slow):
    receiver = receivers(slow=slow)
    post = Outbox(recipient=receiver.url, body_text="Ann to move")
    with pytest.raises(delivering.PostFailed) as failed:
        delivering.deliver(post)
    assert not failed.value.permanent                   # retried later, with backoff
    assert str(failed.value) == "the receiver did not answer within 1 s"
    assert receiver.connections == 1
    [written] = receiver.bytes_written(1)
    print(f"{slow}: {written} of {receiver.full_bytes} bytes before the client hung up")
    assert written <= BOUND < receiver.full_bytes // 10


def test_the_mail_of_other_games_goes_out_before_a_slow_post(short_deadline, smtp, receivers):
    receiver = receivers(inbox=smtp.inbox)
    chatty, _ = creation.create_game("duel", players("Ann", "Bob"), {"rounds": 2}, seed=1)
    webhooks.change(chatty, receiver.url)
    quiet, _ = creation.create_game("duel", players("Cid", "Dee"), {"rounds": 2}, seed=2)
    mails = Outbox.select().where(Outbox.kind != webhooks.KIND).count()

    counts = mailer.send_due()

    assert counts == {"sent": mails, "retry": 1, "failed": 0}
    assert smtp.inbox.to("cid@example.org") and smtp.inbox.to("dee@example.org")
    assert receiver.mails_before == [mails]     # every mail was out when the post began
    assert receiver.bytes_written(1)[0] <= BOUND
    post = Outbox.get(Outbox.kind == webhooks.KIND)
    assert post.attempts == 1 and post.sent_at is None and post.failed_at is None
    assert post.last_error == "PostFailed: the receiver did not answer within 1 s"


def test_the_posts_of_one_pass_stop_at_the_pass_budget_and_the_rest_wait(short_deadline,
                                                                         receivers):
    # 2.9 s for posts of at most 1 s each: a second post starts with 1.9 s left, a third
    # would start with 0.9 s, less than a post may take
    short_deadline.config["WEBHOOK_SECONDS_PER_PASS"] = 2.9
    receiver = receivers()
    for seed in range(4):
        game, _ = creation.create_game("duel", players("Ann", "Bob"), {"rounds": 2}, seed=seed)
        webhooks.change(game, receiver.url)
    Outbox.update(sent_at=Outbox.created_at).where(Outbox.kind != webhooks.KIND).execute()

    assert mailer.send_due() == {"sent": 0, "retry": 2, "failed": 0}
    assert receiver.connections == 2 and max(receiver.bytes_written(2)) <= BOUND
    posts = list(Outbox.select().where(Outbox.kind == webhooks.KIND).order_by(Outbox.id))
    assert [p.attempts for p in posts] == [1, 1, 0, 0]
    assert all(p.claimed_until is None and p.failed_at is None for p in posts)
    assert posts[0].last_error == "PostFailed: the receiver did not answer within 1 s"
    assert posts[2].last_error == "" or posts[2].last_error is None

    # the next pass: the two left over are tried, the two tried wait for their backoff
    assert mailer.send_due() == {"sent": 0, "retry": 2, "failed": 0}
    assert receiver.connections == 4
    assert [p.attempts for p in Outbox.select().where(Outbox.kind == webhooks.KIND)
            .order_by(Outbox.id)] == [1, 1, 1, 1]


def test_a_pass_shorter_than_one_post_still_tries_one(short_deadline, receivers):
    short_deadline.config["WEBHOOK_SECONDS_PER_PASS"] = 0.1
    receiver = receivers()
    for seed in range(2):
        game, _ = creation.create_game("duel", players("Ann", "Bob"), {"rounds": 2}, seed=seed)
        webhooks.change(game, receiver.url)
    Outbox.update(sent_at=Outbox.created_at).where(Outbox.kind != webhooks.KIND).execute()
    assert mailer.send_due()["retry"] == 1 and receiver.connections == 1
    assert Game.select().count() == 2

"""Turns in a group chat: a game's webhook receives who is to move, missed deadlines
and the result, through the outbox, at a real HTTP receiver on this machine; URLs that point
inside (loopback, private, link-local) are refused unless PBEM_WEBHOOK_ALLOW_PRIVATE is set."""
from __future__ import annotations

import datetime as dt
import json
import os
import shutil
import socket
import ssl
import subprocess
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import SimpleNamespace

import pytest

from pbem import outbound
from pbem.db.models import Game, Outbox, Seat, Webhook
from pbem.log import store
from pbem.mail import mailer
from pbem.mail import webhooks as delivering
from pbem.play import moves as playing
from pbem.play import creation
from pbem.play import pace, webhooks

PLAYERS = [{"name": "Ann", "email": "ann@example.org"}, {"name": "Bob", "email": "bob@example.org"}]


class Receiver:
    """A chat server's webhook endpoint: keeps each post, answers `status` (and `location`);
    `tls`: (certificate, key) files to answer HTTPS with, keeping the name each client asked
    for (SNI) in `names`."""

    def __init__(self, tls=None):
        self.posts: list[dict] = []
        self.names: list[str | None] = []
        self.status, self.location = 200, None
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 - http.server's name
                length = int(self.headers.get("Content-Length", 0))
                receiver.posts.append({"path": self.path, "type": self.headers["Content-Type"],
                                       "host": self.headers["Host"],
                                       "body": json.loads(self.rfile.read(length))})
                self.send_response(receiver.status)
                if receiver.location:
                    self.send_header("Location", receiver.location)
                self.send_header("Content-Length", "2")
                self.end_headers()
                self.wfile.write(b"ok")

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        if tls is not None:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(*tls)
            context.sni_callback = lambda _sock, name, _context: self.names.append(name)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks/abc"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def texts(self) -> list[str]:
        return [p["body"]["text"] for p in self.posts]


@pytest.fixture
def receiver():
    found = Receiver()
    yield found
    found.server.shutdown()
    found.server.server_close()


@pytest.fixture
def private(app):
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True
    return app


def to_act(game):
    game = store.get_game(game.id)
    return store.rules_of(game).to_act(store.state_of(game))


def play_to_end(game):
    rules = store.rules_of(game)
    while True:
        game = store.get_game(game.id)
        state = store.state_of(game)
        waiting = rules.to_act(state)
        if game.status != "running" or not waiting:
            return game
        playing.act(game.id, waiting[0], rules.legal_actions(state, waiting[0])[0], game.seq)


@pytest.mark.parametrize("url", [
    "http://chat.example.org/hook",            # plain http
    "https://127.0.0.1/hook", "https://localhost/hook", "https://[::1]/hook",
    "https://10.1.2.3/hook", "https://192.168.0.7/hook", "https://172.16.5.5/hook",
    "https://169.254.169.254/latest/meta-data", "https://100.64.0.1/hook",
    "https://[::ffff:127.0.0.1]/hook", "https://0.0.0.0/hook",
    "https://user:secret@8.8.8.8/hook", "https://8.8.8.8:notaport/hook",
    "https://no-such-host.invalid/hook", "https://exa mple.org/", "ftp://8.8.8.8/",
    "https://8.8.8.8/" + "a" * 300, "", "   ",
])
def test_urls_inside_or_malformed_are_refused_with_a_reason(app, url):
    with pytest.raises(webhooks.WebhookError) as refused:
        webhooks.check_url(url)
    assert str(refused.value)


def test_a_public_address_is_accepted_and_private_ones_only_with_the_setting(app):
    assert webhooks.check_url(" https://8.8.8.8/hook?x=1 ") == "https://8.8.8.8/hook?x=1"
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True
    assert webhooks.check_url("http://127.0.0.1:9/hook") == "http://127.0.0.1:9/hook"


def test_a_refused_url_creates_nothing_from_the_form_or_the_command(app, client):
    answer = client.post("/new", data={"rules": "duel", "name0": "Ann", "email0": "ann@example.org",
                                       "name1": "Bob", "email1": "bob@example.org",
                                       "webhook": "https://127.0.0.1/hook"})
    assert answer.status_code == 400
    assert "not on the public internet" in answer.get_data(as_text=True)
    result = app.test_cli_runner().invoke(args=[
        "games", "create", "duel", "--player", "Ann <ann@example.org>",
        "--player", "Bob <bob@example.org>", "--webhook", "https://10.0.0.5/x"])
    assert result.exit_code != 0 and "not on the public internet" in result.output
    assert "Traceback" not in result.output
    assert Game.select().count() == 0 and Outbox.select().count() == 0


def test_turns_missed_deadlines_and_the_result_reach_the_chat_without_links(private, client,
                                                                          receiver):
    answer = client.post("/new", data={"rules": "duel", "name0": "Ann", "email0": "ann@example.org",
                                       "name1": "Bob", "email1": "bob@example.org",
                                       "host_email": "host@example.org", "pace": "1",
                                       "on_timeout": "auto", "webhook": receiver.url})
    assert answer.status_code == 303, answer.get_data(as_text=True)
    game = Game.select().get()
    assert webhooks.url_of(game) == receiver.url
    mailer.send_due()
    first = to_act(game)
    names = [p["name"] for p in PLAYERS]
    [post] = receiver.posts
    assert post["path"] == "/hooks/abc" and post["type"].startswith("application/json")
    assert post["body"]["text"] == post["body"]["content"]
    assert f"{names[first[0]]} to move in" in post["body"]["text"]
    assert post["body"]["text"].endswith(f"http://pbem.test/games/{game.id}")

    seat = Seat.get(Seat.game == game.id, Seat.index == first[0])
    pace.run_pass(seat.deadline + dt.timedelta(minutes=1))       # a missed deadline (auto)
    mailer.send_due()
    assert any(f"{names[first[0]]} missed the deadline" in t for t in receiver.texts())

    game = play_to_end(game)
    mailer.send_due()
    assert f"is over: 1. " in receiver.texts()[-1]
    everything = json.dumps([p["body"] for p in receiver.posts])
    for secret in ("/turn/", "/host/", "/me/", "/replay/", "ann@example.org"):
        assert secret not in everything
    # one post per change of who is to act, never two for the same one
    turns = [t for t in receiver.texts() if " to move in " in t]
    assert all(a != b for a, b in zip(turns, turns[1:])) or len(set(turns)) < len(turns)


def test_a_failing_receiver_is_retried_and_a_refusal_shows_on_the_host_page(private, client,
                                                                          receiver):
    game, host_token = creation.create_game("duel", PLAYERS, {"rounds": 2}, seed=1,
                                           host_email="host@example.org")
    receiver.status = 503
    assert client.post(f"/host/{host_token}/webhook",
                       data={"url": receiver.url}).status_code == 303
    mailer.send_due()
    row = Outbox.get(Outbox.kind == "webhook")
    assert row.sent_at is None and row.failed_at is None and row.attempts == 1  # to retry
    receiver.status = 200
    mailer.send_due(now=row.next_try_at + dt.timedelta(seconds=1))
    sent = Outbox.get_by_id(row.id)
    assert sent.sent_at is not None
    # the webhook's URL is a credential: a sent post keeps only its host
    assert sent.recipient == f"http://127.0.0.1:{receiver.server.server_port}/…"
    assert "/hooks/abc" not in sent.recipient

    receiver.status, receiver.location = 302, "http://127.0.0.1:9/elsewhere"
    play_one = to_act(game)[0]
    state = store.state_of(store.get_game(game.id))
    playing.act(game.id, play_one, store.rules_of(game).legal_actions(state, play_one)[0],
                store.get_game(game.id).seq)
    posts_before = len(receiver.posts)
    mailer.send_due()
    failed = Outbox.select().where(Outbox.kind == "webhook", Outbox.failed_at.is_null(False))
    assert failed.count() == 1 and "redirects are not followed" in failed.get().last_error
    assert len(receiver.posts) == posts_before + 1              # the redirect was not followed
    page = client.get(f"/host/{host_token}").get_data(as_text=True)
    assert receiver.url in page and "redirects are not followed" in page   # failed: kept whole


def test_a_post_while_its_host_does_not_resolve_is_retried_and_sent_once_it_does(
        private, client, receiver, monkeypatch):
    """A DNS outage is not the URL's fault: the post waits with backoff (the host page shows
    no failure) and goes out when the name resolves again, each try with one lookup."""
    dns, looked_up, real = {"up": True}, [], socket.getaddrinfo

    def resolve(host, *args, **kwargs):
        looked_up.append(host)
        if host == "hook.pbem.test" and not dns["up"]:
            raise socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")
        return real("127.0.0.1" if host == "hook.pbem.test" else host, *args, **kwargs)
    monkeypatch.setattr(outbound, "socket", SimpleNamespace(
        getaddrinfo=resolve, SOCK_STREAM=socket.SOCK_STREAM, gaierror=socket.gaierror,
        create_connection=socket.create_connection))
    url = f"http://hook.pbem.test:{receiver.server.server_port}/hooks/abc"
    game, host_token = creation.create_game("duel", PLAYERS, {"rounds": 2}, seed=1,
                                           host_email="host@example.org")
    assert client.post(f"/host/{host_token}/webhook", data={"url": url}).status_code == 303

    dns["up"], looked_up[:] = False, []
    mailer.send_due()
    row = Outbox.get(Outbox.kind == "webhook")
    assert row.sent_at is None and row.failed_at is None and row.attempts == 1
    assert "could not be found" in row.last_error and looked_up == ["hook.pbem.test"]
    assert receiver.posts == []

    dns["up"], looked_up[:] = True, []
    mailer.send_due(now=row.next_try_at + dt.timedelta(seconds=1))
    assert Outbox.get_by_id(row.id).sent_at is not None
    assert looked_up == ["hook.pbem.test"] and len(receiver.posts) == 1


def test_the_host_sets_changes_and_removes_the_webhook(app, client, receiver):
    game, host_token = creation.create_game("duel", PLAYERS, {"rounds": 2}, seed=1,
                                           host_email="host@example.org")
    refused = client.post(f"/host/{host_token}/webhook", data={"url": receiver.url})
    assert refused.status_code == 400            # plain http to loopback, without the setting
    assert "must start with https://" in refused.get_data(as_text=True)
    assert Webhook.select().count() == 0
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True
    assert client.post(f"/host/{host_token}/webhook",
                       data={"url": receiver.url}).status_code == 303
    assert webhooks.url_of(game) == receiver.url
    assert receiver.url in client.get(f"/host/{host_token}").get_data(as_text=True)
    other = receiver.url.replace("/abc", "/def")
    client.post(f"/host/{host_token}/webhook", data={"url": other})
    assert webhooks.url_of(game) == other and Webhook.select().count() == 1
    client.post(f"/host/{host_token}/webhook", data={"url": ""})
    assert webhooks.url_of(game) is None


def self_signed(tmp_path, name: str) -> tuple[str, str]:
    """A certificate for `name` (and only that name) with its key, signed by itself."""
    openssl = shutil.which("openssl")
    if openssl is None:             # needed, like Chromium: a missing tool fails, never skips
        pytest.fail("openssl is not installed: apt-get install openssl (.ci/run installs it)")
    cert, key = str(tmp_path / "cert.pem"), str(tmp_path / "key.pem")
    subprocess.run([openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt",
                    "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1", "-subj", f"/CN={name}",
                    "-addext", f"subjectAltName=DNS:{name}", "-keyout", key, "-out", cert],
                   check=True, capture_output=True)
    return cert, key


def test_https_goes_to_the_address_checked_and_verifies_the_certificates_name(app, tmp_path,
                                                                              monkeypatch):
    cert, key = self_signed(tmp_path, "chat.pbem.test")
    receiver = Receiver(tls=(cert, key))
    port = receiver.server.server_port
    try:
        # only the check (pbem/play/webhooks.py) can resolve the *.pbem.test names, to the
        # receiver's address: delivery that looked a name up again would find nothing
        real, looked_up = socket.getaddrinfo, []

        def resolve(host, *args, **kwargs):
            looked_up.append(host)
            return real("127.0.0.1" if host.endswith(".pbem.test") else host, *args, **kwargs)
        monkeypatch.setattr(outbound, "socket", SimpleNamespace(
            getaddrinfo=resolve, SOCK_STREAM=socket.SOCK_STREAM, gaierror=socket.gaierror,
            create_connection=socket.create_connection))
        with pytest.raises(socket.gaierror):
            socket.getaddrinfo("chat.pbem.test", port)
        # the client trusts the test's certificate, here only, and checks names as ever
        monkeypatch.setattr(delivering, "_context",
                            lambda: ssl.create_default_context(cafile=cert))
        post = SimpleNamespace(recipient=f"https://chat.pbem.test:{port}/hooks/abc?x=1",
                               body_text="Ann to move")

        with pytest.raises(delivering.PostFailed) as refused:     # loopback: not without the
            delivering.deliver(post)                               # setting, checked again
        assert refused.value.permanent and "not on the public internet" in str(refused.value)
        assert receiver.posts == [] and receiver.names == []

        app.config["WEBHOOK_ALLOW_PRIVATE"] = True
        assert delivering.deliver(post) == 200
        [got] = receiver.posts
        assert got["path"] == "/hooks/abc?x=1" and got["body"]["text"] == "Ann to move"
        assert got["host"] == f"chat.pbem.test:{port}" and receiver.names == ["chat.pbem.test"]
        assert looked_up == ["chat.pbem.test"] * 2      # one lookup a delivery

        # a name the certificate does not carry, at the same address: nothing is posted
        other = SimpleNamespace(recipient=f"https://other.pbem.test:{port}/hooks/abc",
                                body_text="Ann to move")
        with pytest.raises(delivering.PostFailed) as mismatch:
            delivering.deliver(other)
        assert "CERTIFICATE_VERIFY_FAILED" in str(mismatch.value)
        assert "other.pbem.test" in str(mismatch.value)
        # without the test's trust (the system's store) the self-signed certificate is refused
        monkeypatch.setattr(delivering, "_context", ssl.create_default_context)
        with pytest.raises(delivering.PostFailed) as untrusted:
            delivering.deliver(post)
        assert "CERTIFICATE_VERIFY_FAILED" in str(untrusted.value)
        assert len(receiver.posts) == 1
    finally:
        receiver.server.shutdown()
        receiver.server.server_close()

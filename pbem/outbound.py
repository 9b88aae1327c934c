"""Connections pbem opens to addresses others chose (a game's chat webhook), kept from reaching
the host's own network: which addresses are public, and an HTTP connection pinned to the one
that was checked, every step of it bound by one deadline.

The address rules: a host's every address must be public — no loopback, private, link-local
(cloud metadata), shared or reserved address, nor an IPv6 address that carries a non-public
IPv4 one (NAT64, 6to4, mapped...: a form that embeds 127.0.0.1 reaches the loopback through a
translator or the kernel). The connection goes to the address checked, with no second lookup
between the check and the connection, and each socket operation waits only the time left
before the deadline, so a receiver that trickles its answer a byte at a time is cut off like
one that says nothing.

Plain Python, no Flask: the refusals are exceptions carrying the facts; the words a host reads
are pbem/play/webhooks.py's (check_url).
"""
from __future__ import annotations

import http.client
import io
import ipaddress
import socket
import ssl
import time


class Unresolvable(Exception):
    """The host name did not resolve: it may again later (a DNS outage)."""

    def __init__(self, host: str):
        super().__init__(f"{host} could not be found")
        self.host = host


class NotPublic(Exception):
    """One of the host's addresses is not public: `ip`, and the IPv4 address it carries."""

    def __init__(self, host: str, ip, carried):
        super().__init__(f"{host} is not on the public internet ({ip})")
        self.host, self.ip, self.carried = host, ip, carried


def addresses(host: str, port: int, private: bool = False) -> list[str]:
    """The host's addresses, each checked: Unresolvable, or NotPublic when any address is not
    public (unless `private`: development and tests)."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (socket.gaierror, UnicodeError, OSError):
        raise Unresolvable(host) from None
    ips = []
    for _family, _type, _proto, _name, sockaddr in found:
        ip = ipaddress.ip_address(sockaddr[0].split("%")[0])
        if not private and not is_public(ip):
            raise NotPublic(host, ip, carried_ipv4(ip))
        ips.append(str(ip))
    if not ips:
        raise Unresolvable(host)
    return ips


# Never posted to, whatever Python's is_global says of them (3.11 calls some of them global).
NEVER_PUBLIC = [ipaddress.ip_network(network) for network in (
    "192.0.0.0/24",         # IETF protocol assignments (DS-Lite, NAT64 discovery, dummy address)
    "2001::/32",            # Teredo: a tunnel to IPv4 addresses hidden inside it
    "64:ff9b:1::/48",       # NAT64 for local use: the site's own translator, to its own network
)]
# IPv6 forms whose last 32 bits are an IPv4 address the packets may end up at.
CARRYING_IPV4 = [ipaddress.ip_network(network) for network in (
    "::/96",                # IPv4-compatible, ::a.b.c.d (deprecated)
    "::ffff:0:0/96",        # IPv4-mapped, ::ffff:a.b.c.d: the IPv4 host itself
    "::ffff:0:0:0/96",      # IPv4-translated (SIIT), ::ffff:0:a.b.c.d
    "64:ff9b::/96",         # NAT64's well-known prefix (DNS64 answers with it)
)]


def carried_ipv4(ip) -> ipaddress.IPv4Address | None:
    """The IPv4 address an IPv6 address carries (the forms above, or 6to4's 2002::/16), or
    None."""
    if ip.version != 6 or ip.is_loopback or ip.is_unspecified:     # ::1 and :: are no IPv4
        return None
    if ip.sixtofour is not None:
        return ip.sixtofour
    if any(ip in network for network in CARRYING_IPV4):
        return ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF)
    return None


def is_public(ip) -> bool:
    """True when a post may go to `ip`: a global unicast address, not one of NEVER_PUBLIC, and
    when it carries an IPv4 address (NAT64, 6to4, mapped...), that one public too: a form that
    embeds 127.0.0.1 reaches the loopback through a translator or the kernel."""
    if any(ip in network for network in NEVER_PUBLIC):
        return False
    carried = carried_ipv4(ip)
    if carried is not None:
        return is_public(carried)
    return ip.is_global and not ip.is_multicast


class Deadline:
    """A moment on the monotonic clock, `seconds` from now."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.at = time.monotonic() + seconds

    def left(self) -> float:
        """The seconds left; TimeoutError once there are none."""
        left = self.at - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"past the deadline of {self.seconds:g} s")
        return left


class _TimedSocket:
    """A connection's socket whose every operation may wait only the time left before the
    post's deadline (a socket's own timeout counts each read afresh). It offers what
    http.client uses of a socket: sendall, makefile and close; like a socket, it closes only
    once the answer's reader is closed too (http.client closes the connection before it reads
    the body of an answer that ends the connection)."""

    def __init__(self, sock: socket.socket, deadline: Deadline):
        self._sock, self._deadline = sock, deadline
        self._readers, self._closed = 0, False

    def sendall(self, data) -> None:
        view = memoryview(data).cast("B")
        while view:
            self._sock.settimeout(self._deadline.left())
            view = view[self._sock.send(view):]

    def makefile(self, mode: str = "rb", *args, **kwargs) -> io.BufferedReader:
        self._readers += 1
        return io.BufferedReader(_TimedReader(self))

    def readinto(self, buffer) -> int:
        self._sock.settimeout(self._deadline.left())
        return self._sock.recv_into(buffer)

    def reader_closed(self) -> None:
        self._readers -= 1
        if self._closed and not self._readers:
            self._sock.close()

    def close(self) -> None:
        self._closed = True
        if not self._readers:
            self._sock.close()


class _TimedReader(io.RawIOBase):
    """The answer as http.client reads it, each read waiting only the time left."""

    def __init__(self, sock: _TimedSocket):
        super().__init__()
        self._sock = sock

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        return self._sock.readinto(buffer)

    def close(self) -> None:
        if not self.closed:
            self._sock.reader_closed()
        super().close()


class PinnedConnection(http.client.HTTPConnection):
    """HTTP to `host` over a socket to `address`, the one checked (no second lookup); with
    `tls` (https) the socket is wrapped for `host`: SNI, and its certificate checked against
    that name by the context. Plain HTTP is for development only (pbem/play/webhooks.py allows it then).
    Connecting, the handshake and every read and write end by `deadline`."""

    def __init__(self, host: str, port: int, address: str, tls: ssl.SSLContext | None,
                 deadline: Deadline):
        super().__init__(host, port)
        self._address, self._tls, self._deadline = address, tls, deadline

    def connect(self):
        sock = socket.create_connection((self._address, self.port), self._deadline.left())
        try:
            if self._tls is not None:
                sock.settimeout(self._deadline.left())      # the whole handshake (CPython's
                sock = self._tls.wrap_socket(sock, server_hostname=self.host)  # ssl: one deadline)
        except BaseException:
            sock.close()
            raise
        self.sock = _TimedSocket(sock, self._deadline)

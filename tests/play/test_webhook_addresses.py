"""Webhook URLs whose address reaches inside through a form that carries an IPv4 address
(IPv4-compatible, IPv4-mapped, IPv4-translated, NAT64, 6to4), through Teredo or the local-use
NAT64 prefix, or in 192.0.0.0/24, are refused with a reason; the same forms carrying a public
IPv4 address are not."""
from __future__ import annotations

import ipaddress

import pytest

from pbem import outbound
from pbem.play import webhooks

INSIDE = {
    "IPv4-compatible loopback": "https://[::127.0.0.1]/hook",
    "IPv4-compatible private": "https://[::10.0.0.1]/hook",
    "IPv4-mapped loopback, hex": "https://[::ffff:7f00:1]/hook",
    "IPv4-mapped link-local": "https://[::ffff:169.254.169.254]/hook",
    "IPv4-translated loopback": "https://[::ffff:0:7f00:1]/hook",
    "IPv4-translated private": "https://[::ffff:0:192.168.1.1]/hook",
    "NAT64 loopback": "https://[64:ff9b::7f00:1]/hook",
    "NAT64 metadata": "https://[64:ff9b::169.254.169.254]/hook",
    "NAT64 local-use, public inside": "https://[64:ff9b:1::808:808]/hook",
    "NAT64 local-use, loopback inside": "https://[64:ff9b:1:7f:0:100::]/hook",
    "6to4 loopback": "https://[2002:7f00:1::]/hook",
    "6to4 private": "https://[2002:a00:1::1]/hook",
    "Teredo": "https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook",
    "Teredo, loopback server": "https://[2001:0:7f00:1::1]/hook",
    "IETF protocol assignments, dummy": "https://192.0.0.8/hook",
    "IETF protocol assignments, PCP anycast": "https://192.0.0.9/hook",
    "IETF protocol assignments, DS-Lite": "https://192.0.0.1/hook",
}


@pytest.mark.parametrize("url", INSIDE.values(), ids=INSIDE.keys())
def test_an_address_reaching_inside_is_refused_with_the_reason(app, url):
    with pytest.raises(webhooks.WebhookError) as refused:
        webhooks.check_url(url)
    assert "not on the public internet" in str(refused.value)


@pytest.mark.parametrize("url, carried", [("https://[::127.0.0.1]/hook", "127.0.0.1"),
                                          ("https://[64:ff9b::7f00:1]/hook", "127.0.0.1"),
                                          ("https://[2002:7f00:1::]/hook", "127.0.0.1"),
                                          ("https://[::ffff:0:a00:5]/hook", "10.0.0.5")])
def test_the_refusal_names_the_ipv4_address_carried(app, url, carried):
    with pytest.raises(webhooks.WebhookError, match=f"which carries {carried}"):
        webhooks.check_url(url)


@pytest.mark.parametrize("url", ["https://[64:ff9b::808:808]/hook",       # DNS64's answer
                                 "https://[::ffff:8.8.8.8]/hook",
                                 "https://[2002:808:808::1]/hook",
                                 "https://[2606:4700:4700::1111]/hook", "https://8.8.8.8/hook"])
def test_the_same_forms_carrying_a_public_address_are_accepted(app, url):
    assert webhooks.check_url(url) == url


@pytest.mark.parametrize("address", ["::1", "::", "ff02::1", "fe80::1", "fc00::1", "224.0.0.1"])
def test_loopback_unspecified_multicast_and_local_are_never_public(address):
    assert not outbound.is_public(ipaddress.ip_address(address))


def test_the_setting_for_development_lifts_the_check(app):
    app.config["WEBHOOK_ALLOW_PRIVATE"] = True
    assert webhooks.check_url("https://[64:ff9b::7f00:1]/hook") == "https://[64:ff9b::7f00:1]/hook"

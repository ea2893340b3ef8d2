"""Which webhook URLs may be called: server-side request forgery stops here.

A URL must be https (http only when the operator allows it), name a host and a port
other than 0, carry no credentials and hold nothing a request line cannot carry
(spaces, control characters, non-ASCII: such a URL could never be delivered); every
address its host resolves to must be public (not loopback, private, link-local,
multicast, reserved or unspecified) unless the operator allows private ones. An IPv6
address that carries an IPv4 one (IPv4-mapped, 6to4 2002::/16, Teredo 2001::/32, NAT64
64:ff9b::/96) is judged by the IPv4 address too, since that is where it leads. The
check runs when a webhook is registered and again before each delivery, which then
connects to the address it checked: a name that resolves to a public address at
registration and to 127.0.0.1 later (DNS rebinding) is refused.
"""

import ipaddress
import re
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

MAX_URL = 2000


class RefusedUrl(Exception):
    """A webhook URL that may not be called; the message says why."""


@dataclass(frozen=True)
class Target:
    scheme: str
    host: str
    port: int
    path: str  # with the query, as sent in the request line


def parse(url, allow_http=False):
    """The parts of a webhook URL, or RefusedUrl."""
    if not isinstance(url, str) or len(url) > MAX_URL:
        raise RefusedUrl(f"a webhook URL is a string of at most {MAX_URL} characters")
    if not _SENDABLE.fullmatch(url):  # urlsplit would drop a tab, http.client refuse a space
        raise RefusedUrl(
            "a webhook URL is printable ASCII without spaces (percent-encode the rest, "
            "a host in punycode)"
        )
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError as error:
        raise RefusedUrl(f"not a valid URL: {error}") from None
    schemes = ("https", "http") if allow_http else ("https",)
    if parts.scheme not in schemes:
        raise RefusedUrl(f"a webhook URL must be {' or '.join(schemes)}")
    if parts.username is not None or parts.password is not None:
        raise RefusedUrl("a webhook URL may not carry credentials")
    if not parts.hostname:
        raise RefusedUrl("a webhook URL names a host")
    if port == 0:
        raise RefusedUrl("a webhook URL's port is 1 to 65535")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    default = 443 if parts.scheme == "https" else 80
    return Target(parts.scheme, parts.hostname, port or default, path)


def address_allowed(address):
    """True when `address` (an IP address as text) is a public one a webhook may reach:
    an IPv6 address that carries an IPv4 one only when that one is public too."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])  # drop an IPv6 scope id
    if ip.version == 4:
        return _public(ip)
    if ip.ipv4_mapped is not None:
        return _public(ip.ipv4_mapped)  # ::ffff:127.0.0.1 is 127.0.0.1
    if ip in NAT64:  # 64:ff9b::7f00:1 is translated to 127.0.0.1
        return _public(ipaddress.IPv4Address(int(ip) & 0xFFFFFFFF))
    carried = [ip.sixtofour] if ip.sixtofour else []  # 2002:7f00:1:: leads to 127.0.0.1
    if ip.teredo:
        carried += ip.teredo  # its server and its client
    return _public(ip) and all(_public(inner) for inner in carried)


# The well-known prefix of RFC 6052: the last 32 bits are the IPv4 address reached.
NAT64 = ipaddress.ip_network("64:ff9b::/96")
# What a request line carries: printable ASCII, no space.
_SENDABLE = re.compile(r"[!-~]+")
# What `parse` needs of a URL's text, as the API's document says it: http(s) (the
# scheme in any case, as urlsplit reads it), then what a request line carries. The
# rest (https only, a host, no credentials, a port, public addresses) is the check's.
PATTERN = r"^[Hh][Tt][Tt][Pp][Ss]?://[!-~]+$"


def _public(ip):
    refused = (
        ip.is_loopback
        or ip.is_private
        or ip.is_link_local
        or ip.is_multicast
        or ip.is_reserved
        or ip.is_unspecified
    )
    return ip.is_global and not refused


def resolve(url, allow_http=False, allow_private=False, resolver=socket.getaddrinfo):
    """(target, addresses) for a webhook URL: its parts and the addresses to connect
    to, every one of them checked. Raises RefusedUrl."""
    target = parse(url, allow_http)
    try:
        found = resolver(target.host, target.port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise RefusedUrl(f"the host {target.host!r} does not resolve: {error}") from None
    addresses = list(dict.fromkeys(info[4][0] for info in found))
    if not addresses:
        raise RefusedUrl(f"the host {target.host!r} does not resolve")
    if not allow_private:
        for address in addresses:
            if not address_allowed(address):
                raise RefusedUrl(
                    f"the host {target.host!r} resolves to {address}, which is not a public address"
                )
    return target, addresses

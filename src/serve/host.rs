//! Which name a request is addressed to, read as HTTP/1.1 says (RFC 9112 §3.2): the `Host`
//! header, or the authority of a request target in absolute form (which then wins over the
//! header).
//!
//! A server on loopback answers only requests addressed to a loopback name, so that a web
//! page served elsewhere cannot reach the archive through a DNS name of its own that
//! resolves here (DNS rebinding). The rule is strict where a browser never strays and
//! refuses what HTTP/1.1 calls a bad request:
//!
//! - more than one `Host` header, a `Host` that is not `host[:port]` (a bracketed IPv6
//!   address, or a name or IPv4 address; the port digits naming at most 65535), or none in
//!   an HTTP/1.1 request: 400;
//! - loopback names are `localhost` in any case, `127.x.x.x` and `[::1]` (or an IPv4
//!   loopback address mapped into IPv6), each with or without a port, and the first two
//!   with the trailing dot of a fully qualified name (`localhost.`);
//! - an HTTP/1.0 request may carry no `Host`: it names nothing, and a browser always sends
//!   one, so it is answered.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use axum::http::{HeaderMap, Uri, Version, header};

use super::is_loopback;

/// Where a request is addressed.
#[derive(Debug, PartialEq, Eq)]
pub enum Addressed {
    /// To a loopback name, or (HTTP/1.0) to no name at all.
    Loopback,
    /// To another name or address.
    Elsewhere,
    /// A bad request: the message says why.
    Invalid(&'static str),
}

/// Where a request with `version`, `uri` and `headers` is addressed.
pub fn addressed(version: Version, uri: &Uri, headers: &HeaderMap) -> Addressed {
    let mut hosts = headers.get_all(header::HOST).iter();
    let host = hosts.next();
    if hosts.next().is_some() {
        return Addressed::Invalid("the request has more than one Host header");
    }
    // A target in absolute form names the host itself, and the Host header is ignored.
    if let Some(authority) = uri.authority() {
        return name_in(authority.as_str());
    }
    match host {
        None if version >= Version::HTTP_11 => Addressed::Invalid("an HTTP/1.1 request needs a Host header"),
        None => Addressed::Loopback,
        Some(value) => match value.to_str() {
            Ok(text) => name_in(text),
            Err(_) => Addressed::Invalid(INVALID),
        },
    }
}

const INVALID: &str = "the Host header is not a host name or address with an optional port";

/// Reads `host[:port]`.
fn name_in(text: &str) -> Addressed {
    let (name, port) = match text.strip_prefix('[') {
        Some(rest) => {
            let Some((inside, after)) = rest.split_once(']') else { return Addressed::Invalid(INVALID) };
            let Ok(v6) = inside.parse::<Ipv6Addr>() else { return Addressed::Invalid(INVALID) };
            let port = match after {
                "" => "",
                after => match after.strip_prefix(':') {
                    Some(port) => port,
                    None => return Addressed::Invalid(INVALID),
                },
            };
            if !is_port(port) {
                return Addressed::Invalid(INVALID);
            }
            return if is_loopback(IpAddr::V6(v6)) { Addressed::Loopback } else { Addressed::Elsewhere };
        }
        None => text.split_once(':').unwrap_or((text, "")),
    };
    // A registered name or IPv4 address holds no ':' (RFC 3986 `reg-name`); the port is digits.
    let name_char = |b: u8| b.is_ascii_alphanumeric() || b"-._~!$&'()*+,;=%".contains(&b);
    if name.is_empty() || !name.bytes().all(name_char) || !is_port(port) {
        return Addressed::Invalid(INVALID);
    }
    let bare = name.strip_suffix('.').unwrap_or(name);
    let loopback =
        bare.eq_ignore_ascii_case("localhost") || bare.parse::<Ipv4Addr>().is_ok_and(|v4| v4.is_loopback());
    if loopback { Addressed::Loopback } else { Addressed::Elsewhere }
}

/// Whether `port` is a port: digits naming one of 0 to 65535, or nothing (RFC 3986 lets a
/// URI's port be empty).
fn is_port(port: &str) -> bool {
    port.bytes().all(|b| b.is_ascii_digit()) && (port.is_empty() || port.parse::<u16>().is_ok())
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn with_hosts(version: Version, target: &str, hosts: &[&[u8]]) -> Addressed {
        let mut headers = HeaderMap::new();
        for host in hosts {
            headers.append(header::HOST, HeaderValue::from_bytes(host).unwrap());
        }
        addressed(version, &target.parse().unwrap(), &headers)
    }

    fn host(value: &str) -> Addressed {
        with_hosts(Version::HTTP_11, "/", &[value.as_bytes()])
    }

    #[test]
    fn loopback_names_in_every_spelling() {
        for value in [
            "localhost",
            "LocalHost",
            "localhost.",
            "LOCALHOST.:8080",
            "localhost:",
            "127.0.0.1",
            "127.1.2.3:80",
            "127.0.0.1.",
            "[::1]",
            "[::1]:8080",
            "[0:0:0:0:0:0:0:1]",
            "[::ffff:127.0.0.1]:1",
        ] {
            assert_eq!(host(value), Addressed::Loopback, "{value}");
        }
    }

    #[test]
    fn other_names_are_elsewhere() {
        for value in [
            "evil.example",
            "evil.example:8080",
            "localhost.evil.example",
            "localhost..",
            "kifudex.localhost",
            "127.0.0.1.evil.example",
            "192.168.1.10",
            "0.0.0.0",
            "[::]",
            "[::2]:80",
            "%6cocalhost",
        ] {
            assert_eq!(host(value), Addressed::Elsewhere, "{value}");
        }
    }

    #[test]
    fn malformed_hosts_are_bad_requests() {
        for value in [
            "[::1]evil.example",
            "[::1]:80x",
            "[::1",
            "[localhost]",
            "[fe80::1%25eth0]",
            "::1",
            "localhost:80:80",
            "localhost:http",
            "localhost:65536",
            "127.0.0.1:99999",
            "localhost:99999999999",
            "[::1]:65536",
            "evil@localhost",
            "localhost/evil",
            "local host",
            "",
            ":8080",
        ] {
            assert_eq!(host(value), Addressed::Invalid(INVALID), "{value}");
        }
        assert_eq!(with_hosts(Version::HTTP_11, "/", &[b"localhost\xff"]), Addressed::Invalid(INVALID));
    }

    /// RFC 9112 §3.2: 400 for an HTTP/1.1 request without Host, or with more than one.
    #[test]
    fn one_host_header_in_http_1_1() {
        let twice = Addressed::Invalid("the request has more than one Host header");
        assert_eq!(with_hosts(Version::HTTP_11, "/", &[b"localhost", b"evil.example"]), twice);
        assert_eq!(with_hosts(Version::HTTP_11, "/", &[b"localhost", b"localhost"]), twice);
        assert_eq!(with_hosts(Version::HTTP_10, "/", &[b"evil.example", b"localhost"]), twice);
        assert_eq!(
            with_hosts(Version::HTTP_11, "/", &[]),
            Addressed::Invalid("an HTTP/1.1 request needs a Host header")
        );
        assert_eq!(with_hosts(Version::HTTP_10, "/", &[]), Addressed::Loopback);
    }

    /// RFC 9112 §3.2.2: a target in absolute form names the host, whatever Host says.
    #[test]
    fn an_absolute_target_names_the_host() {
        let absolute = |target, host: &str| with_hosts(Version::HTTP_11, target, &[host.as_bytes()]);
        assert_eq!(absolute("http://evil.example/api/status", "localhost"), Addressed::Elsewhere);
        assert_eq!(absolute("http://localhost:8080/api/status", "evil.example"), Addressed::Loopback);
        assert_eq!(absolute("http://[::1]/", "evil.example"), Addressed::Loopback);
    }
}

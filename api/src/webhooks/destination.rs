//! Which destinations a webhook may reach. Refused unless self-hosting is allowed
//! (`SKIRMISH_WEBHOOKS_ALLOW_PRIVATE`): loopback (127/8, ::1), private (10/8, 172.16/12,
//! 192.168/16), shared address space (100.64/10), link-local (169.254/16, fe80::/10),
//! unique-local (fc00::/7), unspecified (0.0.0.0, ::), broadcast and multicast, and every other
//! range the IANA special-purpose registries mark as not globally reachable (documentation,
//! benchmarking 198.18/15, reserved 240/4, 192.0.0/24, site-local fec0::/10 …); an IPv6 address
//! carrying an IPv4 one (::ffff:a.b.c.d, ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16) by the
//! IPv4 rule. Checked on the URL at creation and on every
//! resolved address at send time (a name that later resolves elsewhere is refused then).

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// How long resolving a name may take at creation.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether `ip` may be reached when private destinations are not allowed: a global unicast
/// address, by the IANA special-purpose registries. An IPv6 address that carries an IPv4 one
/// (IPv4-mapped `::ffff:0:0/96`, IPv4-compatible `::/96`, NAT64 `64:ff9b::/96`, 6to4
/// `2002::/16`) is judged by the IPv4 address it reaches.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match embedded_v4(v6) {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

/// IPv4 ranges that are not globally reachable (RFC 6890 and the IANA IPv4 special-purpose
/// registry), as (network, prefix length).
const NOT_PUBLIC_V4: [([u8; 4], u8); 17] = [
    ([0, 0, 0, 0], 8),       // "this network", unspecified
    ([10, 0, 0, 0], 8),      // private
    ([100, 64, 0, 0], 10),   // shared address space (carrier-grade NAT)
    ([127, 0, 0, 0], 8),     // loopback
    ([169, 254, 0, 0], 16),  // link-local (cloud metadata)
    ([172, 16, 0, 0], 12),   // private
    ([192, 0, 0, 0], 24),    // IETF protocol assignments
    ([192, 0, 2, 0], 24),    // documentation (TEST-NET-1)
    ([192, 31, 196, 0], 24), // AS112
    ([192, 52, 193, 0], 24), // AMT
    ([192, 88, 99, 0], 24),  // deprecated 6to4 relay anycast
    ([192, 168, 0, 0], 16),  // private
    ([198, 18, 0, 0], 15),   // benchmarking
    ([198, 51, 100, 0], 24), // documentation (TEST-NET-2)
    ([203, 0, 113, 0], 24),  // documentation (TEST-NET-3)
    ([224, 0, 0, 0], 4),     // multicast
    ([240, 0, 0, 0], 4),     // reserved, and the limited broadcast address
];

/// IPv6 ranges that are not globally reachable (the IANA IPv6 special-purpose registry and
/// address architecture), as (network, prefix length). Ranges carrying an IPv4 address are
/// handled by [`embedded_v4`] first.
const NOT_PUBLIC_V6: [(u128, u8); 12] = [
    (0, 96),                      // ::/96 but ::ffff: — unspecified, loopback, IPv4-compatible
    (0x0064_ff9b_0001 << 80, 48), // 64:ff9b:1::/48, local-use NAT64
    (0x0100 << 112, 64),          // 100::/64, discard-only
    (0x2001_0000 << 96, 23),      // 2001::/23, IETF protocol assignments (Teredo, ORCHID …)
    (0x2001_0db8 << 96, 32),      // 2001:db8::/32, documentation
    (0x3fff << 112, 20),          // 3fff::/20, documentation
    (0x5f00 << 112, 16),          // 5f00::/16, segment routing SIDs
    (0xfc00 << 112, 7),           // fc00::/7, unique-local
    (0xfe80 << 112, 10),          // fe80::/10, link-local
    (0xfec0 << 112, 10),          // fec0::/10, deprecated site-local
    (0xff00 << 112, 8),           // ff00::/8, multicast
    (0x0000_0000_0000_0000_ffff_0000_0000_0000, 96), // ::ffff:0:0:0/96, IPv4-translated (SIIT)
];

fn in_v4(ip: Ipv4Addr, (network, length): ([u8; 4], u8)) -> bool {
    let mask = u32::MAX.checked_shl(32 - u32::from(length)).unwrap_or(0);
    u32::from(ip) & mask == u32::from_be_bytes(network) & mask
}

fn in_v6(ip: Ipv6Addr, (network, length): (u128, u8)) -> bool {
    let mask = u128::MAX.checked_shl(128 - u32::from(length)).unwrap_or(0);
    u128::from(ip) & mask == network & mask
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    !NOT_PUBLIC_V4.iter().any(|&range| in_v4(ip, range))
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    !NOT_PUBLIC_V6.iter().any(|&range| in_v6(ip, range))
}

/// The IPv4 address an IPv6 one carries: IPv4-mapped, IPv4-compatible (but `::` and `::1`),
/// NAT64 (well-known prefix) or 6to4.
fn embedded_v4(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let bits = u128::from(ip);
    let low = Ipv4Addr::from((bits & 0xffff_ffff) as u32);
    if let Some(v4) = ip.to_ipv4_mapped() {
        return Some(v4);
    }
    if in_v6(ip, (0, 96)) && bits > 1 {
        return Some(low);
    }
    if in_v6(ip, (0x0064_ff9b << 96, 96)) {
        return Some(low);
    }
    if in_v6(ip, (0x2002 << 112, 16)) {
        return Some(Ipv4Addr::from(((bits >> 80) & 0xffff_ffff) as u32));
    }
    None
}

/// Why a URL is refused, for a 422 naming `url`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    #[error("must be an absolute http or https URL: {0}")]
    Malformed(String),
    #[error("must be at most {MAX_URL_LEN} characters")]
    TooLong,
    #[error("must not carry a user name or password")]
    Credentials,
    #[error("{0} could not be resolved")]
    Unresolved(String),
    #[error(
        "{host} is {ip}, a loopback, private, link-local or otherwise non-public address: refused \
         (a self-hosted server allows these with SKIRMISH_WEBHOOKS_ALLOW_PRIVATE=true)"
    )]
    NotPublic { host: String, ip: IpAddr },
}

/// Parses and checks a subscription's URL: http or https, no credentials, and (unless
/// `allow_private`) a host whose every address is public.
pub async fn check_url(text: &str, allow_private: bool) -> Result<Url, Refused> {
    if text.len() > MAX_URL_LEN {
        return Err(Refused::TooLong);
    }
    let url = Url::parse(text).map_err(|e| Refused::Malformed(e.to_string()))?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err(Refused::Malformed(format!("scheme {} or host missing", url.scheme())));
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Refused::Credentials);
    }
    if !allow_private {
        for ip in addresses(&url).await? {
            refuse_private(url.host_str().unwrap_or_default(), ip)?;
        }
    }
    Ok(url)
}

/// The addresses `url`'s host names: itself if an IP literal, else what it resolves to.
async fn addresses(url: &Url) -> Result<Vec<IpAddr>, Refused> {
    let host = url.host_str().unwrap_or_default().to_owned();
    if let Some(ip) = literal_ip(url) {
        return Ok(vec![ip]);
    }
    let port = url.port_or_known_default().unwrap_or(443);
    let lookup = tokio::net::lookup_host((host.clone(), port));
    let found = tokio::time::timeout(RESOLVE_TIMEOUT, lookup)
        .await
        .map_err(|_| Refused::Unresolved(host.clone()))?
        .map_err(|_| Refused::Unresolved(host.clone()))?;
    let ips: Vec<IpAddr> = found.map(|address| address.ip()).collect();
    if ips.is_empty() { Err(Refused::Unresolved(host)) } else { Ok(ips) }
}

/// The URL's host when it is an IP address (which no resolver is asked about).
pub fn literal_ip(url: &Url) -> Option<IpAddr> {
    url.host_str()?.trim_start_matches('[').trim_end_matches(']').parse().ok()
}

/// `Err` if `ip` is not public.
pub fn refuse_private(host: &str, ip: IpAddr) -> Result<(), Refused> {
    if is_public(ip) { Ok(()) } else { Err(Refused::NotPublic { host: host.to_owned(), ip }) }
}

/// The deliverer's resolver: the system's, keeping only public addresses, so a name that now
/// resolves to a private address (DNS rebinding) is never connected to.
pub struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        let host = name.as_str().to_owned();
        Box::pin(async move {
            let found = tokio::net::lookup_host((host.as_str(), 0)).await?;
            let public: Vec<SocketAddr> = found.filter(|address| is_public(address.ip())).collect();
            if public.is_empty() {
                return Err(Box::new(Refused::Unresolved(format!("{host} (no public address)")))
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_ranges_are_refused_and_public_addresses_are_not() {
        let refused = [
            "127.0.0.1",
            "127.9.9.9",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fe80::1",
            "fc00::1",
            "fd12:3456::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::7f00:1",
            "64:ff9b::a9fe:a9fe",
            "64:ff9b:1::808:808",
            "::127.0.0.1",
            "::10.0.0.1",
            "2002:7f00:1::1",
            "2002:a00:1::",
            "fec0::1",
            "2001::1",
            "2001:db8::1",
            "100::1",
            "::ffff:0:7f00:1",
            "192.0.0.8",
            "198.18.0.1",
            "198.19.255.255",
            "240.0.0.1",
            "203.0.113.9",
        ];
        let public = [
            "8.8.8.8",
            "172.32.0.1",
            "192.169.0.1",
            "100.128.0.1",
            "2606:4700::1111",
            "::ffff:1.1.1.1",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "::8.8.8.8",
            "198.20.0.1",
            "192.0.3.1",
            "223.255.255.255",
            "2a00:1450::1",
        ];
        for text in refused {
            assert!(!is_public(text.parse().unwrap()), "{text} must be refused");
        }
        for text in public {
            assert!(is_public(text.parse().unwrap()), "{text} must be allowed");
        }
    }

    #[tokio::test]
    async fn urls_are_checked_for_scheme_credentials_length_and_destination() {
        let long = format!("https://example.com/{}", "a".repeat(MAX_URL_LEN));
        assert_eq!(check_url(&long, true).await, Err(Refused::TooLong));
        assert!(matches!(check_url("ftp://example.com/x", true).await, Err(Refused::Malformed(_))));
        assert!(matches!(check_url("not a url", true).await, Err(Refused::Malformed(_))));
        assert_eq!(check_url("https://u:p@example.com/", true).await, Err(Refused::Credentials));
        let loopback = check_url("http://127.0.0.1:9/hook", false).await;
        assert!(matches!(loopback, Err(Refused::NotPublic { .. })), "{loopback:?}");
        assert!(check_url("http://127.0.0.1:9/hook", true).await.is_ok());
        assert!(matches!(check_url("http://[::1]/", false).await, Err(Refused::NotPublic { .. })));
        assert!(check_url("https://93.184.215.14/hook", false).await.is_ok());
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused_at_creation_and_by_the_send_time_resolver() {
        let created = check_url("http://localhost:9/hook", false).await;
        let resolved = PublicOnly.resolve("localhost".parse().unwrap()).await;

        assert!(matches!(created, Err(Refused::NotPublic { .. })), "{created:?}");
        assert!(resolved.is_err(), "no public address for localhost: nothing to connect to");
        assert!(check_url("http://localhost:9/hook", true).await.is_ok(), "allowed when self-hosting");
    }
}

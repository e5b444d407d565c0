//! Which destinations a webhook may reach. Refused unless self-hosting is allowed
//! (`SKIRMISH_WEBHOOKS_ALLOW_PRIVATE`): loopback (127/8, ::1), private (10/8, 172.16/12,
//! 192.168/16), shared address space (100.64/10), link-local (169.254/16, fe80::/10),
//! unique-local (fc00::/7), unspecified (0.0.0.0, ::), broadcast and multicast — and IPv4 written
//! as IPv6 (::ffff:a.b.c.d) by the IPv4 rule. Checked on the URL at creation and on every
//! resolved address at send time (a name that later resolves elsewhere is refused then).

use reqwest::Url;
use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// Longest URL accepted.
pub const MAX_URL_LEN: usize = 2048;

/// How long resolving a name may take at creation.
const RESOLVE_TIMEOUT: Duration = Duration::from_secs(5);

/// Whether `ip` may be reached when private destinations are not allowed.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public_v4(v4),
            None => is_public_v6(v6),
        },
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    let shared = a == 100 && (64..128).contains(&b);
    !(ip.is_loopback()
        || ip.is_private()
        || ip.is_link_local()
        || ip.is_unspecified()
        || ip.is_broadcast()
        || ip.is_multicast()
        || shared
        || a == 0)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    let first = ip.segments()[0];
    let unique_local = first & 0xfe00 == 0xfc00;
    let link_local = first & 0xffc0 == 0xfe80;
    !(ip.is_loopback() || ip.is_unspecified() || ip.is_multicast() || unique_local || link_local)
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
        ];
        let public =
            ["8.8.8.8", "172.32.0.1", "192.169.0.1", "100.128.0.1", "2606:4700::1111", "::ffff:1.1.1.1"];
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

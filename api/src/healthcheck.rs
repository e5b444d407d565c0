//! `skirmish healthcheck`: asks the server this configuration describes for `/healthz` and
//! succeeds only on 200. Plain HTTP/1.1 over a socket, so a slim container image needs no curl.

use std::io::{Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::time::Duration;

/// Connect, read and write timeout.
const TIMEOUT: Duration = Duration::from_secs(3);

/// Where to reach a server listening on `bind`: a wildcard address (`0.0.0.0`, `[::]`) is
/// reached on loopback.
pub fn probe_address(bind: &str) -> Result<SocketAddr, String> {
    let mut address = bind
        .to_socket_addrs()
        .map_err(|e| format!("--bind {bind}: {e}"))?
        .next()
        .ok_or_else(|| format!("--bind {bind}: the address resolves to nothing"))?;
    if address.ip().is_unspecified() {
        let loopback = match address.ip() {
            IpAddr::V4(_) => IpAddr::V4(Ipv4Addr::LOCALHOST),
            IpAddr::V6(_) => IpAddr::V6(Ipv6Addr::LOCALHOST),
        };
        address.set_ip(loopback);
    }
    Ok(address)
}

/// `Ok` when `GET /healthz` answers 200; otherwise what went wrong.
pub fn check(bind: &str) -> Result<(), String> {
    let address = probe_address(bind)?;
    let failed = |e: std::io::Error| format!("http://{address}/healthz: {e}");
    let mut stream = TcpStream::connect_timeout(&address, TIMEOUT).map_err(failed)?;
    stream.set_read_timeout(Some(TIMEOUT)).map_err(failed)?;
    stream.set_write_timeout(Some(TIMEOUT)).map_err(failed)?;
    let request = format!("GET /healthz HTTP/1.1\r\nHost: {address}\r\nConnection: close\r\n\r\n");
    stream.write_all(request.as_bytes()).map_err(failed)?;
    let mut head = [0_u8; 12];
    stream.read_exact(&mut head).map_err(failed)?;
    match &head {
        b"HTTP/1.1 200" => Ok(()),
        other => Err(format!("http://{address}/healthz answered {}", String::from_utf8_lossy(other))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wildcard_bind_is_probed_on_loopback() {
        assert_eq!(probe_address("0.0.0.0:8080"), Ok("127.0.0.1:8080".parse().expect("address")));
        assert_eq!(probe_address("[::]:9000"), Ok("[::1]:9000".parse().expect("address")));
        assert_eq!(probe_address("127.0.0.1:9000"), Ok("127.0.0.1:9000".parse().expect("address")));
    }
}

//! What clients can hold open: connections are counted from accept to close, whatever they are
//! doing (sending a request, waiting for a body, being answered, idle between requests, following
//! a stream), per peer and in all.
//!
//! - **Per peer**: at most `per_peer` connections from one IPv4 address, or from one IPv6 /64
//!   (where a single host may hold a whole /64 of addresses).
//! - **In all**: at most `total` connections. Once half of them are taken, a peer may take
//!   one more only while it holds less than its fair share of that half (the half divided by
//!   the peers holding connections), so that a few greedy peers cannot fill the server and a
//!   peer holding little still gets in.
//!
//! A connection over a cap is answered 429 at its first request and closed, before
//! authentication or any other work; one past the caps by more than [`REFUSING_ROOM`] is closed
//! at once, unanswered, so refused connections cannot hold the server's files either. (The time
//! a request body may take is bounded in [`crate::extract`], the time an answer may wait for
//! its reader in [`crate::write_timeout`].)

use crate::error::ApiError;
use actix_web::body::BoxBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use std::collections::HashMap;
use std::net::IpAddr;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

/// Connections over the caps that may wait for their 429 at once; past them, closed unanswered.
pub const REFUSING_ROOM: usize = 64;

/// Who a connection counts against: an IPv4 address, or an IPv6 address's /64.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Peer {
    V4(u32),
    V6Prefix(u64),
}

impl From<IpAddr> for Peer {
    fn from(ip: IpAddr) -> Self {
        match ip {
            IpAddr::V4(v4) => Peer::V4(u32::from(v4)),
            IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
                Some(v4) => Peer::V4(u32::from(v4)),
                None => Peer::V6Prefix((u128::from(v6) >> 64) as u64),
            },
        }
    }
}

#[derive(Default)]
struct Open {
    total: usize,
    by_peer: HashMap<Peer, usize>,
    /// Connections over a cap, waiting for their 429.
    refusing: usize,
}

/// The caps and the open connections, shared by every worker.
#[derive(Clone)]
pub struct PeerConnections {
    /// Connections one peer may hold; 0 turns the cap off.
    per_peer: usize,
    /// Connections in all; 0 turns the cap (and fair sharing) off.
    total: usize,
    open: Arc<Mutex<Open>>,
}

/// What a new connection may do.
pub enum Admission {
    /// Served; its place is given back when the slot is dropped.
    Admitted(PeerSlot),
    /// Answered 429 at its first request, then closed.
    Refused(PeerSlot),
    /// Closed at once.
    Dropped,
}

/// Kept for as long as its connection is open: gives its place back when dropped.
pub struct PeerSlot {
    place: Option<(Peer, Arc<Mutex<Open>>)>,
    /// Why the connection is refused, if it is.
    refused: Option<(Arc<str>, Arc<Mutex<Open>>)>,
}

/// Left in a refused connection's data: the 429's detail.
#[derive(Clone)]
pub struct OverLimit(pub Arc<str>);

impl PeerConnections {
    pub fn new(per_peer: usize, total: usize) -> Self {
        Self { per_peer, total, open: Arc::default() }
    }

    fn lock(&self) -> MutexGuard<'_, Open> {
        self.open.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Counts a new connection from `ip`, or refuses it.
    pub fn admit(&self, ip: IpAddr) -> Admission {
        if self.per_peer == 0 && self.total == 0 {
            return Admission::Admitted(PeerSlot { place: None, refused: None });
        }
        let peer = Peer::from(ip);
        let mut open = self.lock();
        let held = open.by_peer.get(&peer).copied().unwrap_or(0);
        let Some(detail) = self.refusal(&open, held) else {
            open.total += 1;
            *open.by_peer.entry(peer).or_default() += 1;
            return Admission::Admitted(PeerSlot { place: Some((peer, self.open.clone())), refused: None });
        };
        if open.refusing >= REFUSING_ROOM {
            return Admission::Dropped;
        }
        open.refusing += 1;
        Admission::Refused(PeerSlot { place: None, refused: Some((detail.into(), self.open.clone())) })
    }

    /// Why a peer holding `held` connections may not open one more, if it may not.
    fn refusal(&self, open: &Open, held: usize) -> Option<String> {
        if self.per_peer > 0 && held >= self.per_peer {
            return Some(format!(
                "this address already holds {} open connections; reuse one or close some",
                self.per_peer
            ));
        }
        if self.total == 0 {
            return None;
        }
        if open.total >= self.total {
            return Some(format!("the server already holds {} open connections; retry later", self.total));
        }
        let half = self.total / 2;
        let holders = open.by_peer.len() + usize::from(held == 0);
        let fair_share = (half / holders.max(1)).max(1);
        if open.total >= half && held >= fair_share {
            return Some(format!(
                "the server is busy and this address already holds its share ({fair_share}) of the \
                 connections; reuse one or close some"
            ));
        }
        None
    }

    /// Connections `ip`'s peer holds now.
    pub fn open_from(&self, ip: IpAddr) -> usize {
        self.lock().by_peer.get(&Peer::from(ip)).copied().unwrap_or(0)
    }

    /// Connections held now (refused ones not counted).
    pub fn open_total(&self) -> usize {
        self.lock().total
    }
}

impl PeerSlot {
    /// Why the connection is refused, if it is.
    pub fn over_limit(&self) -> Option<OverLimit> {
        self.refused.as_ref().map(|(detail, _)| OverLimit(detail.clone()))
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        if let Some((_, open)) = self.refused.take() {
            let mut open = open.lock().unwrap_or_else(PoisonError::into_inner);
            open.refusing = open.refusing.saturating_sub(1);
        }
        let Some((peer, open)) = self.place.take() else { return };
        let mut open = open.lock().unwrap_or_else(PoisonError::into_inner);
        open.total = open.total.saturating_sub(1);
        if let Some(count) = open.by_peer.get_mut(&peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.by_peer.remove(&peer);
            }
        }
    }
}

/// The request back when its connection is within the caps, else the 429 to send.
pub fn over_limit(request: ServiceRequest) -> ControlFlow<ServiceResponse<BoxBody>, ServiceRequest> {
    match request.conn_data::<OverLimit>().cloned() {
        Some(OverLimit(detail)) => ControlFlow::Break(
            request.error_response(ApiError::TooManyConnections(detail.to_string())).map_into_boxed_body(),
        ),
        None => ControlFlow::Continue(request),
    }
}

/// The open-file limit of this process, when the system tells it.
pub fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rustix::process::getrlimit(rustix::process::Resource::Nofile).current
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// Files kept free of connections: the database, its WAL, webhook deliveries, the log.
const FILES_KEPT: u64 = 64;

/// The connection cap when none is set: the open-file limit less [`FILES_KEPT`] and the refusing
/// room, so that connections can never take the files the server needs (1024 where the limit
/// is unknown, at most 65,536).
pub fn default_total(limit: Option<u64>) -> usize {
    let room = FILES_KEPT + REFUSING_ROOM as u64;
    let usable = limit.map_or(1024, |limit| limit.saturating_sub(room).clamp(16, 65_536));
    usize::try_from(usable).unwrap_or(65_536)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::{Ipv4Addr, Ipv6Addr};

    fn v4(last: u8) -> IpAddr {
        IpAddr::V4(Ipv4Addr::new(10, 0, 0, last))
    }

    fn place(admission: Admission) -> Option<PeerSlot> {
        match admission {
            Admission::Admitted(slot) => Some(slot),
            Admission::Refused(_) | Admission::Dropped => None,
        }
    }

    #[test]
    fn a_peer_gets_its_places_back_as_its_connections_close() {
        let peers = PeerConnections::new(2, 0);

        let first = place(peers.admit(v4(1)));
        let second = place(peers.admit(v4(1)));
        let third = peers.admit(v4(1));
        let elsewhere = place(peers.admit(v4(2)));

        assert!(first.is_some() && second.is_some() && elsewhere.is_some(), "the cap is per address");
        assert!(matches!(&third, Admission::Refused(slot) if slot.over_limit().is_some()));
        assert_eq!(peers.open_from(v4(1)), 2, "a refused connection holds no place");
        drop((first, third));
        assert_eq!(peers.open_from(v4(1)), 1);
        assert!(place(peers.admit(v4(1))).is_some(), "a freed place is free again");
        drop(second);
        assert_eq!(peers.open_from(v4(1)), 0);
    }

    #[test]
    fn an_ipv6_host_counts_as_its_slash_64() {
        let peers = PeerConnections::new(2, 0);
        let address = |low: u16| IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 7, 0, 0, 0, low));

        let held: Vec<_> = (1..=2).filter_map(|low| place(peers.admit(address(low)))).collect();
        let third = peers.admit(address(3));
        let other_prefix = place(peers.admit(IpAddr::V6(Ipv6Addr::new(0x2001, 0xdb8, 0, 8, 0, 0, 0, 1))));

        assert_eq!(held.len(), 2);
        assert!(matches!(third, Admission::Refused(_)), "a third address of the same /64");
        assert!(other_prefix.is_some());
        let mapped = IpAddr::V6(Ipv4Addr::new(10, 0, 0, 9).to_ipv6_mapped());
        assert_eq!(Peer::from(mapped), Peer::from(v4(9)), "IPv4-mapped is the IPv4 address");
    }

    #[test]
    fn past_half_the_total_a_peer_gets_only_its_fair_share_and_a_newcomer_still_gets_in() {
        let peers = PeerConnections::new(64, 40);

        // Four greedy peers: past 20 connections in all, each stops at its share (20 / 4 = 5).
        let greedy: Vec<_> = (0..60).filter_map(|n| place(peers.admit(v4(1 + (n % 4) as u8)))).collect();
        let newcomer = place(peers.admit(v4(200)));

        assert!(greedy.len() <= 24, "greedy peers held {}", greedy.len());
        assert!(newcomer.is_some(), "a peer holding nothing gets in");
        assert!(peers.open_total() < 40, "room is left for others: {}", peers.open_total());
    }

    #[test]
    fn refused_connections_beyond_the_refusing_room_are_dropped_and_caps_of_zero_count_nothing() {
        let peers = PeerConnections::new(1, 0);
        let _held = place(peers.admit(v4(1)));
        let refused: Vec<_> = (0..REFUSING_ROOM + 3).map(|_| peers.admit(v4(1))).collect();
        let dropped = refused.iter().filter(|a| matches!(a, Admission::Dropped)).count();
        assert_eq!(dropped, 3);

        let open = PeerConnections::new(0, 0);
        let slots: Vec<_> = (0..100).filter_map(|_| place(open.admit(v4(1)))).collect();
        assert_eq!((slots.len(), open.open_from(v4(1))), (100, 0));
    }

    #[test]
    fn the_default_total_leaves_the_servers_files_free() {
        assert_eq!(default_total(Some(256)), 128);
        assert_eq!(default_total(Some(1024)), 896);
        assert_eq!(default_total(None), 1024);
        assert_eq!(default_total(Some(u64::MAX)), 65_536);
    }
}

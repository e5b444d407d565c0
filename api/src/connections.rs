//! What one client can hold open: a cap on the connections from one peer address. A connection
//! over the cap is answered 429 at its first request and closed, before authentication or any
//! other work. (The time a request body may take is bounded in [`crate::extract`].)

use crate::error::ApiError;
use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{Extensions, ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use std::any::Any;
use std::collections::HashMap;
use std::net::IpAddr;
use std::ops::ControlFlow;
use std::sync::{Arc, Mutex, PoisonError};

type OpenCounts = Arc<Mutex<HashMap<IpAddr, usize>>>;

/// Open connections per peer address, shared by every worker.
#[derive(Clone)]
pub struct PeerConnections {
    /// Connections one address may hold; 0 turns the cap off.
    limit: usize,
    open: OpenCounts,
}

/// Kept in a connection's data for as long as it is open: gives its place back when dropped.
pub struct PeerSlot {
    place: Option<(IpAddr, OpenCounts)>,
    /// The cap the connection went over, if it did.
    over_limit: Option<usize>,
}

impl PeerConnections {
    pub fn new(limit: usize) -> Self {
        Self { limit, open: Arc::default() }
    }

    /// Counts a new connection from `peer`, or marks it as over the cap.
    pub fn admit(&self, peer: IpAddr) -> PeerSlot {
        if self.limit == 0 {
            return PeerSlot { place: None, over_limit: None };
        }
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(peer).or_default();
        if *count >= self.limit {
            return PeerSlot { place: None, over_limit: Some(self.limit) };
        }
        *count += 1;
        PeerSlot { place: Some((peer, Arc::clone(&self.open))), over_limit: None }
    }

    /// Connections `peer` holds now.
    pub fn open_from(&self, peer: IpAddr) -> usize {
        self.open.lock().unwrap_or_else(PoisonError::into_inner).get(&peer).copied().unwrap_or(0)
    }

    /// The `HttpServer::on_connect` hook: leaves a [`PeerSlot`] in each TCP connection's data.
    pub fn on_connect(&self) -> impl Fn(&dyn Any, &mut Extensions) + Send + Sync + Clone + 'static {
        let peers = self.clone();
        move |connection, data| {
            let peer =
                connection.downcast_ref::<actix_web::rt::net::TcpStream>().and_then(|s| s.peer_addr().ok());
            if let Some(peer) = peer {
                data.insert(peers.admit(peer.ip()));
            }
        }
    }
}

impl Drop for PeerSlot {
    fn drop(&mut self) {
        let Some((peer, open)) = self.place.take() else { return };
        let mut open = open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&peer) {
            *count = count.saturating_sub(1);
            if *count == 0 {
                open.remove(&peer);
            }
        }
    }
}

/// Middleware: a request on a connection over its peer's cap gets 429 and the connection closes.
pub async fn refuse_over_limit(
    request: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    match over_limit(request) {
        ControlFlow::Continue(request) => next.call(request).await.map(ServiceResponse::map_into_boxed_body),
        ControlFlow::Break(refused) => Ok(refused),
    }
}

/// The request back when its connection is within its peer's cap, else the 429 to send.
pub fn over_limit(request: ServiceRequest) -> ControlFlow<ServiceResponse<BoxBody>, ServiceRequest> {
    match request.conn_data::<PeerSlot>().and_then(|slot| slot.over_limit) {
        Some(limit) => ControlFlow::Break(
            request.error_response(ApiError::TooManyConnections { limit }).map_into_boxed_body(),
        ),
        None => ControlFlow::Continue(request),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::Ipv4Addr;

    #[test]
    fn a_peer_gets_its_places_back_as_its_connections_close() {
        let peers = PeerConnections::new(2);
        let (one, other) = (IpAddr::V4(Ipv4Addr::new(10, 0, 0, 1)), IpAddr::V4(Ipv4Addr::new(10, 0, 0, 2)));

        let first = peers.admit(one);
        let second = peers.admit(one);
        let third = peers.admit(one);
        let elsewhere = peers.admit(other);

        assert_eq!((first.over_limit, second.over_limit, third.over_limit), (None, None, Some(2)));
        assert_eq!(elsewhere.over_limit, None, "the cap is per address");
        assert_eq!(peers.open_from(one), 2, "a refused connection holds no place");
        drop((first, third));
        assert_eq!(peers.open_from(one), 1);
        assert_eq!(peers.admit(one).over_limit, None, "a freed place is free again");
        drop(second);
        assert_eq!(peers.open_from(one), 0);
    }

    #[test]
    fn a_cap_of_zero_counts_nothing() {
        let peers = PeerConnections::new(0);
        let slots: Vec<_> = (0..100).map(|_| peers.admit(IpAddr::V4(Ipv4Addr::LOCALHOST))).collect();
        assert!(slots.iter().all(|slot| slot.over_limit.is_none()));
        assert_eq!(peers.open_from(IpAddr::V4(Ipv4Addr::LOCALHOST)), 0);
    }
}

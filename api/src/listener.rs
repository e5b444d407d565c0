//! The accept loop and the HTTP/1 service, as actix-web's `HttpServer` assembles them (same
//! timeouts: 5 s for request headers, 5 s keep-alive, 1 s to close; graceful stop in 30 s on
//! SIGTERM), with one difference: each accepted socket is first judged by the connection caps
//! ([`crate::connections`]) and wrapped in a [`Connection`] that carries its place under them and
//! the write timeout ([`crate::write_timeout`]). A connection past the caps by more than their
//! refusing room is closed at once.

use crate::connections::{Admission, PeerConnections};
use crate::write_timeout::Connection;
use actix_http::{HttpService, KeepAlive, Request, Response};
use actix_server::Server;
use actix_service::{IntoServiceFactory, Service, ServiceFactory, ServiceFactoryExt, fn_service, map_config};
use actix_web::body::MessageBody;
use actix_web::dev::{AppConfig, Extensions};
use actix_web::rt::net::TcpStream;
use std::fmt;
use std::net::TcpListener;
use std::time::Duration;

/// Whether a server stops on the process's signals (the main one) or only when told to (the
/// metrics listener, which the application stops after the main one).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signals {
    Handled,
    Ignored,
}

/// What every connection of the server is held to.
#[derive(Clone)]
pub struct ConnectionRules {
    pub peers: PeerConnections,
    pub write_timeout: Duration,
    pub workers: Option<usize>,
}

/// A running server on `listener`, serving the apps `factory` makes (one per worker). Every
/// listener of the process is served here, so each is held to the same caps and write timeout.
pub fn serve<F, I, S, B>(
    listener: TcpListener,
    factory: F,
    rules: ConnectionRules,
    signals: Signals,
) -> std::io::Result<Server>
where
    F: Fn() -> I + Send + Clone + 'static,
    I: IntoServiceFactory<S, Request>,
    S: ServiceFactory<Request, Config = AppConfig> + 'static,
    S::Error: Into<actix_web::Error> + 'static,
    S::InitError: fmt::Debug,
    S::Response: Into<Response<B>> + 'static,
    <S::Service as Service<Request>>::Future: 'static,
    S::Service: 'static,
    B: MessageBody + 'static,
{
    let local = listener.local_addr()?;
    let mut builder = Server::build();
    if let Some(workers) = rules.workers {
        builder = builder.workers(workers.clamp(1, 512));
    }
    if signals == Signals::Ignored {
        builder = builder.disable_signals();
    }
    let stopping = builder.graceful_shutdown_signal();
    builder
        .listen("skirmish", listener, move || {
            let stopping = stopping.clone();
            let app = map_config(factory().into_factory(), |()| AppConfig::default());
            let http = HttpService::build()
                .keep_alive(KeepAlive::Timeout(Duration::from_secs(5)))
                .client_request_timeout(Duration::from_secs(5))
                .client_disconnect_timeout(Duration::from_secs(1))
                .h1_allow_half_closed(true)
                .local_addr(local)
                .graceful_shutdown_signal(move || {
                    let stopping = stopping.clone();
                    async move { stopping.notified().await }
                })
                .on_connect_ext(|connection: &Connection, data: &mut Extensions| {
                    if let Some(over) = connection.slot().over_limit() {
                        data.insert(over);
                    }
                })
                .h1(app.map_err(|error| error.into().error_response()));
            let rules = rules.clone();
            fn_service(move |socket: TcpStream| {
                let peer = socket.peer_addr().ok();
                let admission = match peer {
                    Some(peer) => rules.peers.admit(peer.ip()),
                    None => Admission::Dropped,
                };
                let accepted = match admission {
                    Admission::Admitted(slot) | Admission::Refused(slot) => {
                        Ok((Connection::new(socket, slot, rules.write_timeout), peer))
                    }
                    Admission::Dropped => Err(actix_http::error::DispatchError::Io(std::io::Error::other(
                        "over the connection caps",
                    ))),
                };
                std::future::ready(accepted)
            })
            .and_then(http)
        })
        .map(|builder| builder.run())
}

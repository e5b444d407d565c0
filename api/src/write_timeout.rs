//! An answer must be read. A client connection is this wrapper around its socket: when a write
//! (or flush) has made no progress for the write timeout — the client reads nothing, its
//! receive window and the server's send buffer are full — the write fails with `TimedOut`, and
//! actix's dispatcher drops the connection with everything it held (the response, a stream's
//! pump, its place under the connection caps). A client that reads, however slowly, resets the
//! clock with every write the kernel accepts.
//!
//! The connection's place under the caps ([`PeerSlot`]) lives here too, so it is given back
//! when the socket closes, whatever state the connection was in.

use crate::connections::PeerSlot;
use actix_web::rt::net::TcpStream;
use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

pub struct Connection {
    socket: TcpStream,
    write_timeout: Duration,
    /// Armed when a write first waits, disarmed by any progress.
    stalled: Option<Pin<Box<Sleep>>>,
    slot: PeerSlot,
}

impl Connection {
    pub fn new(socket: TcpStream, slot: PeerSlot, write_timeout: Duration) -> Self {
        Self { socket, write_timeout, stalled: None, slot }
    }

    /// The connection's place under the caps.
    pub fn slot(&self) -> &PeerSlot {
        &self.slot
    }

    /// `poll` as the socket answered it, or `TimedOut` once writes have waited for the timeout.
    fn judge<T>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<T>>) -> Poll<io::Result<T>> {
        if poll.is_ready() {
            self.stalled = None;
            return poll;
        }
        let timeout = self.write_timeout;
        let stalled = self.stalled.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match stalled.as_mut().poll(cx) {
            Poll::Pending => Poll::Pending,
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("the client read nothing for {} ms", timeout.as_millis()),
            ))),
        }
    }
}

impl AsyncRead for Connection {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.socket).poll_read(cx, buf)
    }
}

impl AsyncWrite for Connection {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.socket).poll_write(cx, buf);
        self.judge(cx, written)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let written = Pin::new(&mut self.socket).poll_write_vectored(cx, bufs);
        self.judge(cx, written)
    }

    fn is_write_vectored(&self) -> bool {
        self.socket.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let flushed = Pin::new(&mut self.socket).poll_flush(cx);
        self.judge(cx, flushed)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let shut = Pin::new(&mut self.socket).poll_shutdown(cx);
        self.judge(cx, shut)
    }
}

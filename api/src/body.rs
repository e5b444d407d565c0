//! Reads a whole request body straight from the payload. actix's `Bytes` extractor allocates an
//! 8 KiB buffer for every body and copies it in; a body that arrives as one chunk (nearly every
//! one: it comes in the same read as its headers) is handed on here as that chunk, with no copy.
//! The time limit's timer is armed only when the body has not arrived by the second poll, so a
//! body that came with its headers costs no timer either.

use actix_web::HttpRequest;
use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::web::{Bytes, BytesMut};
use futures_core::Stream;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::time::Sleep;

/// Why a body could not be read.
#[derive(Debug)]
pub enum BodyError {
    /// As actix reports it: `Overflow` past the limit, `UnknownLength` for a bad
    /// `Content-Length`, or the connection's own failure.
    Payload(PayloadError),
    /// The body was still incomplete when the time limit ran out.
    TimedOut,
}

/// The whole body of `request`, at most `limit` bytes (a larger `Content-Length` is refused
/// before anything is read), arriving within `timeout`.
pub fn read_whole(
    request: &HttpRequest,
    payload: &mut Payload,
    limit: usize,
    timeout: Duration,
) -> impl Future<Output = Result<Bytes, BodyError>> + use<> {
    let declared = declared_length(request, limit);
    let mut reading = Reading {
        payload: payload.take(),
        body: Collected::Empty,
        capacity: declared.as_ref().map_or(0, |length| length.unwrap_or(0)),
        limit,
        timeout,
        polled_pending: false,
        deadline: None,
    };
    async move {
        declared.map_err(BodyError::Payload)?;
        poll_fn(|cx| reading.poll(cx)).await
    }
}

/// `Content-Length` as actix's extractor reads it: over `limit` is `Overflow`, unparsable is
/// `UnknownLength`, absent is `None`.
fn declared_length(request: &HttpRequest, limit: usize) -> Result<Option<usize>, PayloadError> {
    let Some(value) = request.headers().get(header::CONTENT_LENGTH) else { return Ok(None) };
    let length =
        value.to_str().ok().and_then(|text| text.parse::<usize>().ok()).ok_or(PayloadError::UnknownLength)?;
    if length > limit {
        return Err(PayloadError::Overflow);
    }
    Ok(Some(length))
}

struct Reading {
    payload: Payload,
    body: Collected,
    /// The declared length: the buffer's size should a second chunk come.
    capacity: usize,
    limit: usize,
    timeout: Duration,
    /// The payload has answered `Pending` once already.
    polled_pending: bool,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl Reading {
    fn poll(&mut self, cx: &mut Context<'_>) -> Poll<Result<Bytes, BodyError>> {
        loop {
            match Pin::new(&mut self.payload).poll_next(cx) {
                Poll::Ready(Some(Ok(chunk))) => {
                    if self.body.len() + chunk.len() > self.limit {
                        return Poll::Ready(Err(BodyError::Payload(PayloadError::Overflow)));
                    }
                    self.body.push(chunk, self.capacity);
                }
                Poll::Ready(Some(Err(error))) => return Poll::Ready(Err(BodyError::Payload(error))),
                Poll::Ready(None) => return Poll::Ready(Ok(std::mem::take(&mut self.body).finish())),
                Poll::Pending => return self.wait(cx),
            }
        }
    }

    /// The payload is not complete yet. The first time, actix has usually polled the handler
    /// before decoding the body that came with the headers: ask to be polled again at once
    /// rather than arm a timer. From then on, wait under the time limit.
    fn wait(&mut self, cx: &mut Context<'_>) -> Poll<Result<Bytes, BodyError>> {
        if !self.polled_pending {
            self.polled_pending = true;
            cx.waker().wake_by_ref();
            return Poll::Pending;
        }
        let timeout = self.timeout;
        let deadline = self.deadline.get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(BodyError::TimedOut)),
            Poll::Pending => Poll::Pending,
        }
    }
}

/// The chunks read so far: none, one (kept as it came), or several (copied together).
#[derive(Default)]
enum Collected {
    #[default]
    Empty,
    One(Bytes),
    Many(BytesMut),
}

impl Collected {
    fn len(&self) -> usize {
        match self {
            Self::Empty => 0,
            Self::One(chunk) => chunk.len(),
            Self::Many(buffer) => buffer.len(),
        }
    }

    fn push(&mut self, chunk: Bytes, capacity: usize) {
        *self = match std::mem::take(self) {
            Self::Empty => Self::One(chunk),
            Self::One(first) => {
                let mut buffer = BytesMut::with_capacity(capacity.max(first.len() + chunk.len()));
                buffer.extend_from_slice(&first);
                buffer.extend_from_slice(&chunk);
                Self::Many(buffer)
            }
            Self::Many(mut buffer) => {
                buffer.extend_from_slice(&chunk);
                Self::Many(buffer)
            }
        }
    }

    fn finish(self) -> Bytes {
        match self {
            Self::Empty => Bytes::new(),
            Self::One(chunk) => chunk,
            Self::Many(buffer) => buffer.freeze(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;
    use std::collections::VecDeque;

    /// The given chunks, then the end, or (`stalls`) nothing more ever.
    struct Chunks {
        chunks: VecDeque<Bytes>,
        stalls: bool,
    }

    impl Stream for Chunks {
        type Item = Result<Bytes, PayloadError>;

        fn poll_next(mut self: Pin<&mut Self>, _: &mut Context<'_>) -> Poll<Option<Self::Item>> {
            match self.chunks.pop_front() {
                Some(chunk) => Poll::Ready(Some(Ok(chunk))),
                None if self.stalls => Poll::Pending,
                None => Poll::Ready(None),
            }
        }
    }

    fn payload(chunks: &[&'static [u8]], stalls: bool) -> Payload {
        let chunks = chunks.iter().map(|chunk| Bytes::from_static(chunk)).collect();
        Payload::Stream { payload: Box::pin(Chunks { chunks, stalls }) }
    }

    async fn read(chunks: &[&'static [u8]], length: Option<&str>, limit: usize) -> Result<Bytes, String> {
        let mut request = TestRequest::post();
        if let Some(length) = length {
            request = request.insert_header((header::CONTENT_LENGTH, length));
        }
        let request = request.to_http_request();
        let read = read_whole(&request, &mut payload(chunks, false), limit, Duration::from_secs(1)).await;
        read.map_err(|error| format!("{error:?}"))
    }

    #[actix_web::test]
    async fn one_chunk_or_several_come_back_whole() {
        assert_eq!(read(&[b"{\"a\":1}"], Some("7"), 64).await, Ok(Bytes::from_static(b"{\"a\":1}")));
        assert_eq!(read(&[b"{\"a\"", b":1", b"}"], None, 64).await, Ok(Bytes::from_static(b"{\"a\":1}")));
        assert_eq!(read(&[], None, 64).await, Ok(Bytes::new()));
    }

    #[actix_web::test]
    async fn too_long_a_body_or_declared_length_and_a_bad_length_are_refused() {
        assert_eq!(read(&[b"12345", b"6"], None, 5).await, Err("Payload(Overflow)".to_owned()));
        assert_eq!(read(&[b"1"], Some("6"), 5).await, Err("Payload(Overflow)".to_owned()));
        assert_eq!(read(&[b"1"], Some("one"), 5).await, Err("Payload(UnknownLength)".to_owned()));
    }

    #[actix_web::test]
    async fn a_body_that_stops_arriving_times_out() {
        let request = TestRequest::post().to_http_request();

        let read = read_whole(&request, &mut payload(&[b"{"], true), 64, Duration::from_millis(20)).await;

        assert!(matches!(read, Err(BodyError::TimedOut)), "{read:?}");
    }
}

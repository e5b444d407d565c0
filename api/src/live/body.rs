//! The response body of a stream: the frames its pump sends, as they come. When the client goes
//! away actix drops the body, and with it the receiver, which tells the pump to stop.

use actix_web::body::{BodySize, MessageBody};
use actix_web::web::Bytes;
use std::convert::Infallible;
use std::pin::Pin;
use std::task::{Context, Poll};
use tokio::sync::mpsc;

pub struct FrameBody(pub mpsc::Receiver<Bytes>);

impl MessageBody for FrameBody {
    type Error = Infallible;

    fn size(&self) -> BodySize {
        BodySize::Stream
    }

    fn poll_next(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<Result<Bytes, Infallible>>> {
        self.get_mut().0.poll_recv(cx).map(|frame| frame.map(Ok))
    }
}

/// The answer that opens a stream: `text/event-stream`, never cached nor buffered by a proxy, its
/// body `frames` (a [`FrameBody`], or a viewer's stream).
pub fn event_stream(frames: impl MessageBody + 'static) -> actix_web::HttpResponse {
    use actix_web::http::header::{CACHE_CONTROL, HeaderValue};
    actix_web::HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((CACHE_CONTROL, HeaderValue::from_static("no-cache")))
        .insert_header(("X-Accel-Buffering", HeaderValue::from_static("no")))
        .body(frames)
}

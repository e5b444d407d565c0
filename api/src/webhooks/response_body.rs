//! The one place a receiver's answer body is read: at most [`MAX_RESPONSE_BODY`] bytes, chunk by
//! chunk, and the rest left unread (the connection is then dropped, not drained). A receiver
//! that answers with an endless or huge body costs the server this much memory, no more.

use reqwest::Response;

/// Most bytes of an answer body the deliverer reads (Discord's rate-limit JSON is ~100 bytes).
pub const MAX_RESPONSE_BODY: usize = 16 * 1024;

/// The first `cap` bytes of `response`'s body at most (fewer if it ends or fails first).
pub async fn read_capped(mut response: Response, cap: usize) -> Vec<u8> {
    let mut body = Vec::new();
    while body.len() < cap {
        match response.chunk().await {
            Ok(Some(chunk)) => {
                let room = cap - body.len();
                body.extend_from_slice(&chunk[..chunk.len().min(room)]);
            }
            Ok(None) | Err(_) => break,
        }
    }
    body
}

//! One path per request. actix routes on the percent-decoded path (its `Url` decodes every
//! `%XX` but `%2F`, `%25` and `%2B`), while `request.path()` is the path as it came: checked on
//! the raw text, `/%76%31/dice/roll` was no `/v1/` path for authentication but the dice route
//! for the router. The front door rewrites a request whose path holds percent-encoded text to
//! the routed form before anything reads it, so authentication, the rate limit, the access log,
//! the metrics, the scopes' guards and the handlers all read the one path the router matched.

use crate::error::ApiError;
use actix_web::dev::ServiceRequest;
use actix_web::http::Uri;
use std::fmt::Write as _;

/// Rewrites the request's path to the one actix routes on. A path without `%` is left alone
/// (one byte search); so is one that decodes to itself. Bytes a URI path cannot carry raw
/// (spaces, `?`, `#`, non-ASCII …) are encoded again, and decode back to the routed path.
pub fn normalise(request: &mut ServiceRequest) -> Result<(), ApiError> {
    if !request.path().as_bytes().contains(&b'%') {
        return Ok(());
    }
    let routed = request.match_info().as_str();
    if routed == request.path() {
        return Ok(());
    }
    let mut text = encode_unsafe(routed);
    if let Some(query) = request.uri().query() {
        text.push('?');
        text.push_str(query);
    }
    let uri: Uri =
        text.parse().map_err(|_| ApiError::bad_request("path", "the path is not a valid URI path"))?;
    request.match_info_mut().get_mut().update(&uri);
    request.head_mut().uri = uri;
    Ok(())
}

/// `path` with every byte a URI path may not carry raw written as `%XX` (as the `http` crate's
/// parser allows: visible ASCII but `#`, `?`, `<`, `>`, `\`, `^` and `` ` ``; `%` stays, as the
/// routed path keeps `%25` encoded).
fn encode_unsafe(path: &str) -> String {
    let mut out = String::with_capacity(path.len() + 8);
    for &byte in path.as_bytes() {
        let raw = matches!(byte, 0x21 | 0x24..=0x3B | 0x3D | 0x40..=0x5F | 0x61..=0x7A | 0x7C | 0x7E)
            || matches!(byte, b'"' | b'{' | b'}');
        let kept = raw && !matches!(byte, b'\\' | b'^');
        if kept {
            out.push(char::from(byte));
        } else {
            let _ = write!(out, "%{byte:02X}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use actix_web::test::TestRequest;

    fn normalised(uri: &str) -> (String, String, Option<String>) {
        let mut request = TestRequest::with_uri(uri).to_srv_request();
        normalise(&mut request).unwrap();
        let query = request.uri().query().map(str::to_owned);
        (request.path().to_owned(), request.match_info().as_str().to_owned(), query)
    }

    #[test]
    fn an_encoded_path_becomes_the_routed_one_and_everything_else_is_left_alone() {
        let cases = [
            ("/%76%31/dice/roll", "/v1/dice/roll", "/v1/dice/roll"),
            ("/%76iew/vwr_abc", "/view/vwr_abc", "/view/vwr_abc"),
            ("/v1/encounters", "/v1/encounters", "/v1/encounters"),
            ("/v1/a%2Fb", "/v1/a%2Fb", "/v1/a%2Fb"),
            ("/v1/a%20b", "/v1/a%20b", "/v1/a b"),
            ("/v1/%3F%23", "/v1/%3F%23", "/v1/?#"),
            ("/v1/%C3%A9", "/v1/%C3%A9", "/v1/é"),
        ];
        for (sent, path, routed) in cases {
            let (seen, matched, _) = normalised(sent);
            assert_eq!((seen.as_str(), matched.as_str()), (path, routed), "{sent}");
        }
        assert_eq!(normalised("/%76%31/encounters?limit=%31").2.as_deref(), Some("limit=%31"), "query kept");
    }
}

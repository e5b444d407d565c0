//! Signatures as the Standard Webhooks spec describes them: `webhook-signature` is `v1,` and the
//! base64 HMAC-SHA256 of `{webhook-id}.{webhook-timestamp}.{body}`, keyed with the bytes the
//! secret's base64 (after `whsec_`) encodes.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use rand::RngExt;
use sha2::Sha256;

/// What every secret starts with.
pub const SECRET_PREFIX: &str = "whsec_";

/// A fresh secret: `whsec_` and the base64 of 32 random bytes.
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    format!("{SECRET_PREFIX}{}", STANDARD.encode(bytes))
}

/// Why a stored secret cannot sign (a corrupt row).
#[derive(Debug, thiserror::Error)]
#[error("the webhook secret is not `whsec_` and base64")]
pub struct BadSecret;

/// The `webhook-signature` header value for one attempt.
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Result<String, BadSecret> {
    let key = secret.strip_prefix(SECRET_PREFIX).ok_or(BadSecret)?;
    let key = STANDARD.decode(key).map_err(|_| BadSecret)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).map_err(|_| BadSecret)?;
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Ok(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Worked out independently with Python's hmac module:
    /// `python3 -c 'import hmac,hashlib,base64; k=base64.b64decode("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw");
    /// m=b"msg_p5jXN8AQM9LWM0D4loKWxJek.1614265330.{\"test\": 2432232314}";
    /// print("v1,"+base64.b64encode(hmac.new(k,m,hashlib.sha256).digest()).decode())'`
    /// (the same vector as the Standard Webhooks spec's example).
    #[test]
    fn a_known_vector_signs_as_python_computes_it() {
        let signed = signature(
            "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
            "msg_p5jXN8AQM9LWM0D4loKWxJek",
            1_614_265_330,
            br#"{"test": 2432232314}"#,
        );

        assert_eq!(signed.unwrap(), "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=");
    }

    #[test]
    fn a_fresh_secret_is_whsec_and_32_random_bytes() {
        let (one, two) = (new_secret(), new_secret());

        let bytes = STANDARD.decode(one.strip_prefix(SECRET_PREFIX).unwrap()).unwrap();
        assert_eq!(bytes.len(), 32);
        assert_ne!(one, two);
        assert!(signature(&one, "msg_x", 1, b"{}").is_ok());
    }

    #[test]
    fn a_secret_without_its_prefix_or_base64_cannot_sign() {
        assert!(signature("MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", "msg_x", 1, b"{}").is_err());
        assert!(signature("whsec_not base64!", "msg_x", 1, b"{}").is_err());
    }
}

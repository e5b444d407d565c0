//! Webhook subscriptions and their deliveries on the wire.

use serde::{Deserialize, Serialize};
use skirmish_db::{Attempt, DeliveryInfo, Webhook, utc_text};
use utoipa::ToSchema;

/// Most event kinds one subscription may name.
pub const MAX_KINDS: usize = 64;
/// Longest event kind or encounter id accepted.
pub const MAX_KIND_LEN: usize = 64;

/// How deliveries are posted.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WebhookFormat {
    /// `{type, timestamp, data: {encounter_id, seq, kind, summary, data}}`, signed.
    #[default]
    Standard,
    /// Discord's execute-webhook body (`content` or an embed) from the event's summary.
    Discord,
}

impl WebhookFormat {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Standard => "standard",
            Self::Discord => "discord",
        }
    }
}

/// A new subscription.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"url": "https://discord.com/api/webhooks/123/abc", "kinds": ["turn_started", "attack_resolved"], "format": "discord"}))]
pub struct CreateWebhookRequest {
    /// Where deliveries are posted: http or https, at most 2048 characters, a public address
    /// unless the server allows private ones.
    #[schema(max_length = 2048)]
    pub url: String,
    /// Event kinds to deliver (`turn_started`, `effect_expired`, …); empty or absent = every
    /// kind.
    #[serde(default)]
    #[schema(max_items = 64)]
    pub kinds: Vec<String>,
    /// Only this encounter's events (default: every encounter of the tenant).
    #[schema(max_length = 64)]
    pub encounter_id: Option<String>,
    /// Default `standard`.
    #[serde(default)]
    pub format: WebhookFormat,
}

/// A subscription (its secret is shown only when it is created).
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "wh_3f9a0c1d2e3f4a5b", "url": "https://discord.com/api/webhooks/123/abc", "kinds": ["turn_started"],
    "encounter_id": "enc_9c1f00aa11bb22cc", "format": "discord", "created_at": "2026-11-25T10:00:00.000Z"}))]
pub struct WebhookResponse {
    /// `wh_…`
    pub id: String,
    pub url: String,
    /// Empty = every kind.
    pub kinds: Vec<String>,
    pub encounter_id: Option<String>,
    pub format: WebhookFormat,
    pub created_at: String,
}

impl From<Webhook> for WebhookResponse {
    fn from(hook: Webhook) -> Self {
        let format = if hook.format == "discord" { WebhookFormat::Discord } else { WebhookFormat::Standard };
        let Webhook { id, url, kinds, encounter_id, created_at, .. } = hook;
        Self { id, url, kinds, encounter_id, format, created_at }
    }
}

/// A subscription just created, with its signing secret: shown this once, never again.
#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"id": "wh_3f9a0c1d2e3f4a5b", "url": "https://example.com/hooks/skirmish", "kinds": [], "encounter_id": null,
    "format": "standard", "created_at": "2026-11-25T10:00:00.000Z", "secret": "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSwK1x3cXyZa0E="}))]
pub struct CreatedWebhookResponse {
    #[serde(flatten)]
    pub webhook: WebhookResponse,
    /// `whsec_` + base64 of 32 random bytes. Verify each delivery's `webhook-signature` with it.
    pub secret: String,
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"webhooks": [{"id": "wh_3f9a0c1d2e3f4a5b", "url": "https://example.com/hooks/skirmish", "kinds": [],
    "encounter_id": null, "format": "standard", "created_at": "2026-11-25T10:00:00.000Z"}]}))]
pub struct WebhookListResponse {
    pub webhooks: Vec<WebhookResponse>,
}

#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct DeliveriesQuery {
    /// Only deliveries after this cursor (`next_after` of the previous page; default 0).
    #[param(minimum = 0, maximum = 9007199254740991_i64)]
    pub after: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<i64>,
}

/// One try at posting a delivery.
#[derive(Debug, Serialize, ToSchema)]
pub struct AttemptResponse {
    /// When it was made (RFC 3339).
    pub at: String,
    /// The answer's status, if one came.
    #[schema(minimum = 100, maximum = 599)]
    pub status_code: Option<i32>,
    /// Why it failed without an answer (timeout, refused destination, …), or the rate-limit wait.
    pub error: Option<String>,
}

/// One event announced to one subscription.
#[derive(Debug, Serialize, ToSchema)]
pub struct DeliveryResponse {
    /// `msg_…`: the `webhook-id` of every attempt, for de-duplication.
    pub id: String,
    pub encounter_id: String,
    pub seq: i64,
    pub kind: String,
    /// `pending`, `delivered` or `failed`.
    pub status: String,
    /// When the next attempt is due (pending deliveries only).
    pub next_attempt_at: Option<String>,
    pub created_at: String,
    pub attempts: Vec<AttemptResponse>,
}

impl From<DeliveryInfo> for DeliveryResponse {
    fn from(info: DeliveryInfo) -> Self {
        let attempts = info.attempts.into_iter().map(AttemptResponse::from).collect();
        Self {
            id: info.id,
            encounter_id: info.encounter_id,
            seq: info.seq,
            kind: info.kind,
            status: info.status,
            next_attempt_at: info.next_attempt_ms.map(utc_text),
            created_at: info.created_at,
            attempts,
        }
    }
}

impl From<Attempt> for AttemptResponse {
    fn from(attempt: Attempt) -> Self {
        Self { at: utc_text(attempt.at_ms), status_code: attempt.status_code, error: attempt.error }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[schema(example = json!({"deliveries": [{"id": "msg_5e0b7d1c2a3f4e5d6c7b8a9f0e1d2c3b", "encounter_id": "enc_9c1f00aa11bb22cc",
    "seq": 9, "kind": "turn_started", "status": "pending", "next_attempt_at": "2026-11-25T10:00:35.120Z",
    "created_at": "2026-11-25T10:00:00.000Z",
    "attempts": [{"at": "2026-11-25T10:00:00.004Z", "status_code": 500, "error": null},
                 {"at": "2026-11-25T10:00:05.210Z", "status_code": null, "error": "error sending request: operation timed out"}]}],
    "next_after": 1}))]
pub struct DeliveryListResponse {
    pub deliveries: Vec<DeliveryResponse>,
    /// Pass as `after` to continue from here.
    pub next_after: i64,
}

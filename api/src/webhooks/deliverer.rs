//! The deliverer: one background task that picks due deliveries from the outbox (woken after
//! every commit that wrote some, and at least every [`POLL`]), sends them — one at a time per
//! subscription, subscriptions in parallel — and records each attempt. Pending rows live in the
//! database, so a restarted server resumes them.

use super::destination::{PublicOnly, literal_ip, refuse_private};
use super::discord::discord_body;
use super::payload::Announced;
use super::response_body::{MAX_RESPONSE_BODY, read_capped};
use super::schedule::{MAX_RECORDED_ATTEMPTS, backoff, jittered, rate_limit_wait};
use super::signing::signature;
use crate::config::WebhookSettings;
use crate::metrics::{Metrics, WebhookOutcome};
use reqwest::header::{CONTENT_TYPE, RETRY_AFTER};
use reqwest::{Client, StatusCode, Url};
use skirmish_db::{AfterAttempt, Attempt, DbError, DueDelivery, Store, now_ms};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, PoisonError, Weak};
use std::time::Duration;
use tokio::sync::Notify;

/// Longest the deliverer sleeps without looking for due deliveries.
pub const POLL: Duration = Duration::from_secs(1);

/// Shortest time between two looks at the outbox.
const MIN_GAP: Duration = Duration::from_millis(20);

/// Due deliveries picked at once.
const BATCH: i64 = 64;

/// Longest error text kept per attempt.
const MAX_ERROR_LEN: usize = 300;

/// How one attempt went.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// A 2xx answer.
    Delivered { status: u16 },
    /// A 429: wait this long; not a failure.
    RateLimited { status: u16, wait: Duration },
    /// Any other answer, or none (timeout, refused destination, connection error).
    Failed { status: Option<u16>, error: Option<String> },
}

impl Outcome {
    fn label(&self) -> &'static str {
        match self {
            Self::Delivered { .. } => "delivered",
            Self::RateLimited { .. } => "rate_limited",
            Self::Failed { .. } => "failed",
        }
    }
}

pub(crate) struct Deliverer {
    store: Store,
    /// Built on the first delivery: its TLS roots take a few MB that a server without
    /// subscriptions never needs.
    client: OnceLock<Client>,
    timeout: Duration,
    allow_private: bool,
    retry_base: Duration,
    max_failures: i32,
    /// How long the deliveries taken from the outbox are this replica's (PostgreSQL).
    lease_ms: i64,
    pub(crate) wake: Arc<Notify>,
    /// Subscriptions being sent to now.
    busy: Mutex<HashSet<String>>,
    /// Subscriptions a rate-limit answer holds back, until when (unix ms): deliveries written
    /// meanwhile wait too.
    held: Mutex<HashMap<String, i64>>,
    /// Where outcomes and the outbox depth are counted (`/metrics`), when it is on.
    metrics: Option<Arc<Metrics>>,
}

impl Deliverer {
    pub(crate) fn new(
        store: Store,
        settings: &WebhookSettings,
        metrics: Option<Arc<Metrics>>,
    ) -> Result<Self, reqwest::Error> {
        // One process-wide TLS provider (cheap: the client and its roots come later); a second
        // install (a second app in tests) is a no-op.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let timeout = Duration::from_millis(settings.webhooks_timeout_ms.max(1));
        Ok(Self {
            store,
            client: OnceLock::new(),
            timeout,
            allow_private: settings.webhooks_allow_private,
            retry_base: Duration::from_millis(settings.webhooks_retry_base_ms.max(1)),
            max_failures: i32::try_from(settings.webhooks_max_attempts.max(1)).unwrap_or(i32::MAX),
            lease_ms: settings.webhooks_lease_ms,
            wake: Arc::new(Notify::new()),
            busy: Mutex::default(),
            held: Mutex::default(),
            metrics,
        })
    }

    fn busy(&self) -> MutexGuard<'_, HashSet<String>> {
        self.busy.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The subscriptions not to send to now (busy or held back), and when the first hold ends.
    fn skipped(&self, now: i64) -> (Vec<String>, Option<i64>) {
        let mut held = self.held.lock().unwrap_or_else(PoisonError::into_inner);
        held.retain(|_, until| *until > now);
        let mut skipped: Vec<String> = self.busy().iter().cloned().collect();
        skipped.extend(held.keys().cloned());
        (skipped, held.values().min().copied())
    }

    fn hold(&self, webhook: &str, wait: Duration) {
        let until = now_ms().saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
        self.held.lock().unwrap_or_else(PoisonError::into_inner).insert(webhook.to_owned(), until);
    }

    /// Runs until `alive` is gone (the app that owns it stopped).
    pub(crate) async fn run(self: Arc<Self>, alive: Weak<()>) {
        while alive.strong_count() > 0 {
            let wait = self.dispatch_due().await.unwrap_or_else(|error| {
                log::error!("webhook deliverer: cannot read the outbox: {error}");
                POLL
            });
            // Commits may wake the loop thousands of times a second: look at the outbox at most
            // every MIN_GAP, so a busy server pays for one outbox query per gap, not per commit.
            tokio::time::sleep(MIN_GAP).await;
            tokio::select! {
                () = self.wake.notified() => {}
                () = tokio::time::sleep(wait.saturating_sub(MIN_GAP)) => {}
            }
        }
    }

    /// Starts sending every due delivery of the subscriptions not busy; returns how long to
    /// wait before looking again.
    async fn dispatch_due(self: &Arc<Self>) -> Result<Duration, DbError> {
        if !self.store.has_webhooks() {
            // Nothing can be due, and an idle server reads nothing every POLL.
            if let Some(metrics) = &self.metrics {
                metrics.set_outbox_depth(0);
            }
            return Ok(POLL);
        }
        self.count_outbox().await?;
        let store = self.store.clone();
        let now = now_ms();
        let (skipped, hold_ends) = self.skipped(now);
        let lease = self.lease_ms;
        let due = blocking(move || store.due_deliveries_leased_for(now, BATCH, &skipped, lease)).await?;
        if !due.is_empty() {
            for (webhook, group) in by_webhook(due) {
                if self.busy().insert(webhook.clone()) {
                    tokio::spawn(self.clone().send_group(webhook, group));
                }
            }
            // Each group wakes the loop when it ends.
            return Ok(POLL);
        }
        // Nothing due now: sleep until the next due delivery or the end of a hold, whichever
        // comes first (and at most POLL).
        let store = self.store.clone();
        let next = blocking(move || store.next_due_ms()).await?;
        let future = |at: Option<i64>| {
            at.filter(|at| *at > now).map(|at| Duration::from_millis((at - now).unsigned_abs()))
        };
        Ok([future(next), future(hold_ends)].into_iter().flatten().fold(POLL, Duration::min))
    }

    /// Sends one subscription's due deliveries in order, stopping at a rate-limit answer.
    async fn send_group(self: Arc<Self>, webhook: String, group: Vec<DueDelivery>) {
        for (sent, delivery) in group.iter().enumerate() {
            let outcome = self.attempt(delivery).await;
            let held_for = match outcome {
                Outcome::RateLimited { wait, .. } => Some(wait),
                _ => None,
            };
            if let Some(wait) = held_for {
                self.hold(&webhook, wait);
            }
            if let Err(error) = self.record_outcome(delivery, outcome).await {
                log::error!("webhook deliverer: cannot record an attempt at {}: {error}", delivery.id);
            }
            if let Some(wait) = held_for {
                // The rest of the group was leased to this replica (PostgreSQL): give it back,
                // due when the hold ends.
                let rest: Vec<i64> = group[sent + 1..].iter().map(|later| later.n).collect();
                let at = now_ms().saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
                let store = self.store.clone();
                if let Err(error) = blocking(move || store.release_deliveries(&rest, at)).await {
                    log::error!("webhook deliverer: cannot give deliveries back: {error}");
                }
                break;
            }
        }
        self.busy().remove(&webhook);
        self.wake.notify_one();
    }

    /// One POST of `delivery`, signed with a fresh timestamp.
    pub(crate) async fn attempt(&self, delivery: &DueDelivery) -> Outcome {
        let failed = |error: String| Outcome::Failed { status: None, error: Some(bounded(error)) };
        let url = match self.destination(&delivery.url) {
            Ok(url) => url,
            Err(error) => return failed(error),
        };
        let event = Announced::from_delivery(delivery);
        let body = if delivery.format == "discord" { discord_body(&event) } else { event.standard_body() };
        let body = body.to_string().into_bytes();
        let timestamp = now_ms() / 1000;
        let signed = match signature(&delivery.secret, &delivery.id, timestamp, &body) {
            Ok(signed) => signed,
            Err(error) => return failed(error.to_string()),
        };
        let client = match self.client() {
            Ok(client) => client,
            Err(error) => return failed(error_chain(&error)),
        };
        let request = client
            .post(url)
            .header(CONTENT_TYPE, "application/json")
            .header("webhook-id", &delivery.id)
            .header("webhook-timestamp", timestamp.to_string())
            .header("webhook-signature", signed)
            .body(body);
        match request.send().await {
            Err(error) => failed(error_chain(&error)),
            Ok(response) => self.judge(response).await,
        }
    }

    /// The HTTP client, built on first use: no proxy, no redirects, timeouts, Mozilla's roots
    /// (compiled in) with whatever the system's store adds, and (unless private destinations
    /// are allowed) a resolver that keeps only public addresses.
    fn client(&self) -> Result<&Client, reqwest::Error> {
        if let Some(client) = self.client.get() {
            return Ok(client);
        }
        let mut builder = Client::builder()
            .no_proxy()
            .redirect(reqwest::redirect::Policy::none())
            .connect_timeout(self.timeout.min(Duration::from_secs(5)))
            .timeout(self.timeout)
            .user_agent(concat!("Skirmish-Webhooks/", env!("CARGO_PKG_VERSION")))
            .tls_certs_merge(compiled_in_roots());
        if !self.allow_private {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        let built = builder.build()?;
        Ok(self.client.get_or_init(|| built))
    }

    /// The URL to post to, or why not (an IP literal is checked here: no resolver sees it).
    fn destination(&self, text: &str) -> Result<Url, String> {
        let url = Url::parse(text).map_err(|e| format!("bad URL: {e}"))?;
        if let (false, Some(ip)) = (self.allow_private, literal_ip(&url)) {
            refuse_private(url.host_str().unwrap_or_default(), ip).map_err(|e| e.to_string())?;
        }
        Ok(url)
    }

    async fn judge(&self, response: reqwest::Response) -> Outcome {
        let status = response.status();
        if status.is_success() {
            return Outcome::Delivered { status: status.as_u16() };
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            let header = response.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()).map(str::to_owned);
            let body = read_capped(response, MAX_RESPONSE_BODY).await;
            let wait = rate_limit_wait(header.as_deref(), &body, self.retry_base);
            return Outcome::RateLimited { status: status.as_u16(), wait };
        }
        Outcome::Failed { status: Some(status.as_u16()), error: None }
    }

    /// Records how an attempt went and what follows it: delivered, retried later (backoff with
    /// jitter, or what a rate limit asked), or given up. Every attempt's outcome passes here.
    pub(crate) async fn record_outcome(
        &self,
        delivery: &DueDelivery,
        outcome: Outcome,
    ) -> Result<(), DbError> {
        let now = now_ms();
        let attempts = delivery.attempts.saturating_add(1);
        let ms = |wait: Duration| now.saturating_add(i64::try_from(wait.as_millis()).unwrap_or(i64::MAX));
        let (after, hold, attempt) = match &outcome {
            Outcome::Delivered { status } => (AfterAttempt::Delivered, None, code(*status, None)),
            Outcome::RateLimited { status, wait } => {
                let after = if attempts >= MAX_RECORDED_ATTEMPTS {
                    AfterAttempt::Failed
                } else {
                    AfterAttempt::RetryAt { at_ms: ms(*wait), counted: false }
                };
                (
                    after,
                    Some(ms(*wait)),
                    code(*status, Some(format!("rate limited for {:.3} s", wait.as_secs_f64()))),
                )
            }
            Outcome::Failed { status, error } => {
                let failures = delivery.failures.saturating_add(1);
                let after = if failures >= self.max_failures || attempts >= MAX_RECORDED_ATTEMPTS {
                    AfterAttempt::Failed
                } else {
                    let wait =
                        jittered(backoff(self.retry_base, u32::try_from(failures).unwrap_or(u32::MAX)));
                    AfterAttempt::RetryAt { at_ms: ms(wait), counted: true }
                };
                (after, None, Attempt { at_ms: 0, status_code: status.map(i32::from), error: error.clone() })
            }
        };
        if let Some(metrics) = &self.metrics {
            metrics.webhook_delivery(counted_as(&outcome, &after));
        }
        log::info!(
            "webhook {} delivery {} attempt {attempts}: {} → {after:?}",
            delivery.webhook_id,
            delivery.id,
            outcome.label()
        );
        let attempt = Attempt { at_ms: now, ..attempt };
        let (store, delivery) = (self.store.clone(), delivery.clone());
        blocking(move || store.record_attempt(&delivery, &attempt, after, hold)).await
    }
}

impl Deliverer {
    /// Sets the outbox-depth gauge (one indexed count), when metrics are on.
    async fn count_outbox(&self) -> Result<(), DbError> {
        let Some(metrics) = self.metrics.clone() else { return Ok(()) };
        let store = self.store.clone();
        let pending = blocking(move || store.pending_deliveries()).await?;
        metrics.set_outbox_depth(usize::try_from(pending).unwrap_or_default());
        Ok(())
    }
}

/// Mozilla's root certificates, as shipped in the binary: with them the client builds and
/// verifies public HTTPS destinations where the system has no CA store.
fn compiled_in_roots() -> Vec<reqwest::Certificate> {
    webpki_root_certs::TLS_SERVER_ROOT_CERTS
        .iter()
        .filter_map(|der| reqwest::Certificate::from_der(der).ok())
        .collect()
}

/// How `/metrics` counts an attempt: by what follows it.
fn counted_as(outcome: &Outcome, after: &AfterAttempt) -> WebhookOutcome {
    match (outcome, after) {
        (Outcome::Delivered { .. }, _) => WebhookOutcome::Delivered,
        (_, AfterAttempt::Failed) => WebhookOutcome::Failed,
        (Outcome::RateLimited { .. }, _) => WebhookOutcome::RateLimited,
        _ => WebhookOutcome::Retrying,
    }
}

fn code(status: u16, error: Option<String>) -> Attempt {
    Attempt { at_ms: 0, status_code: Some(i32::from(status)), error }
}

/// Due deliveries grouped by subscription, each group in due order.
fn by_webhook(due: Vec<DueDelivery>) -> Vec<(String, Vec<DueDelivery>)> {
    let mut groups: Vec<(String, Vec<DueDelivery>)> = Vec::new();
    for delivery in due {
        match groups.iter_mut().find(|(webhook, _)| *webhook == delivery.webhook_id) {
            Some((_, group)) => group.push(delivery),
            None => groups.push((delivery.webhook_id.clone(), vec![delivery])),
        }
    }
    groups
}

/// An error with its causes, e.g. "error sending request: connection refused".
fn error_chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

fn bounded(mut text: String) -> String {
    if text.len() > MAX_ERROR_LEN {
        let mut end = MAX_ERROR_LEN;
        while !text.is_char_boundary(end) {
            end -= 1;
        }
        text.truncate(end);
        text.push('…');
    }
    text
}

/// Runs a store call on the blocking pool.
async fn blocking<T: Send + 'static>(
    work: impl FnOnce() -> Result<T, DbError> + Send + 'static,
) -> Result<T, DbError> {
    tokio::task::spawn_blocking(work).await.map_err(|e| DbError::Panicked(e.to_string()))?
}

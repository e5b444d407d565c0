//! Discord's execute-webhook body, built from an event's summary and kept inside Discord's
//! documented limits (resources/webhook#execute-webhook, resources/message#embed-limits):
//! `content` ≤ 2000 characters; ≤ 10 embeds; embed title ≤ 256, description ≤ 4096, ≤ 25 fields,
//! field name ≤ 256, value ≤ 1024, footer text ≤ 2048, author name ≤ 256, and all embed texts
//! together ≤ 6000. Lengths are counted in UTF-16 units (what JavaScript counts; never fewer than
//! characters), so the body fits however Discord counts. Mentions are never parsed, so a summary
//! cannot ping `@everyone`.
//!
//! A summary that fits in `content` is posted as it is (one chat line); a longer one becomes an
//! embed whose description holds it (truncated with "…" past 4096).

use super::payload::Announced;
use serde_json::{Value, json};

pub const MAX_CONTENT: usize = 2000;
pub const MAX_TITLE: usize = 256;
pub const MAX_DESCRIPTION: usize = 4096;
pub const MAX_FOOTER: usize = 2048;
pub const MAX_EMBED_TOTAL: usize = 6000;

/// The body to post for `event`.
pub fn discord_body(event: &Announced) -> Value {
    let summary =
        if event.summary.trim().is_empty() { event.kind.replace('_', " ") } else { event.summary.clone() };
    if units(&summary) <= MAX_CONTENT {
        return json!({ "content": summary, "allowed_mentions": { "parse": [] } });
    }
    let title = truncate(&title_of(&event.kind), MAX_TITLE);
    let footer = truncate(&format!("{} · event {}", event.encounter_id, event.seq), MAX_FOOTER);
    let room = MAX_EMBED_TOTAL.saturating_sub(units(&title) + units(&footer));
    let description = truncate(&summary, MAX_DESCRIPTION.min(room));
    json!({
        "embeds": [{
            "title": title,
            "description": description,
            "footer": { "text": footer },
            "timestamp": event.at,
        }],
        "allowed_mentions": { "parse": [] },
    })
}

/// `turn_started` → `Turn started`.
fn title_of(kind: &str) -> String {
    let spaced = kind.replace('_', " ");
    let mut chars = spaced.chars();
    chars.next().map(|first| first.to_uppercase().chain(chars).collect()).unwrap_or_default()
}

/// Length in UTF-16 units.
pub fn units(text: &str) -> usize {
    text.encode_utf16().count()
}

/// `text` cut to at most `max` UTF-16 units on a character boundary, ending in "…" when cut.
pub fn truncate(text: &str, max: usize) -> String {
    if units(text) <= max {
        return text.to_owned();
    }
    let mut kept = String::new();
    let mut used = 0;
    for c in text.chars() {
        if used + c.len_utf16() + 1 > max {
            break;
        }
        used += c.len_utf16();
        kept.push(c);
    }
    kept.push('…');
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    fn event(summary: String) -> Announced {
        Announced {
            kind: "initiative_rolled".into(),
            at: "2026-11-25T10:00:00.000Z".into(),
            encounter_id: "enc_1".into(),
            seq: 7,
            summary,
            data: Value::Null,
        }
    }

    #[test]
    fn a_short_summary_is_the_content_and_pings_nobody() {
        let body = discord_body(&event("@everyone Vasquez hits".into()));

        assert_eq!(body, json!({"content": "@everyone Vasquez hits", "allowed_mentions": {"parse": []}}));
    }

    #[test]
    fn a_summary_of_exactly_2000_units_stays_content_and_2001_becomes_an_embed() {
        let exact = discord_body(&event("x".repeat(2000)));
        let over = discord_body(&event("x".repeat(2001)));

        assert_eq!(exact["content"].as_str().map(units), Some(2000));
        assert_eq!(over["embeds"][0]["description"].as_str().map(units), Some(2001));
        assert_eq!(over["embeds"][0]["title"], json!("Initiative rolled"));
        assert_eq!(over["embeds"][0]["footer"]["text"], json!("enc_1 · event 7"));
        assert!(over.get("content").is_none());
    }

    #[test]
    fn a_summary_past_4096_is_cut_to_4096_units_ending_in_an_ellipsis() {
        let body = discord_body(&event("é".repeat(5000)));

        let description = body["embeds"][0]["description"].as_str().unwrap();
        assert_eq!(units(description), 4096);
        assert!(description.ends_with("é…"));
    }

    #[test]
    fn truncation_never_splits_a_surrogate_pair() {
        let cut = truncate(&"😀".repeat(10), 6);

        assert_eq!(cut, "😀😀…");
        assert_eq!(units(&cut), 5);
        assert_eq!(truncate("short", 10), "short");
    }
}

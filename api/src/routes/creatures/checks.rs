//! The creature routes' checks of what a client sends, the list's cursor, and a stored
//! creature turned into its answer.

use crate::error::ApiError;
use crate::wire::{
    CreatureListQuery, CreatureListResponse, CreatureResponse, MAX_CREATURE_CURSOR_LEN,
    MAX_CREATURE_NOTES_LEN,
};
use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use skirmish_db::{Creature, CreatureFilter, CreaturePage, CreaturePosition};
use skirmish_domain::encounter::{MAX_NAME_LEN, validate_name};
use skirmish_domain::rulesets::{RulesetId, StatBlock};

/// Default and largest page of the creature list.
const DEFAULT_PAGE: i64 = 20;
const MAX_PAGE: i64 = 100;

/// A name, side or group: the domain's bounds for a display name (422 naming `field`).
pub fn name(field: &str, text: &str) -> Result<(), ApiError> {
    Ok(validate_name(field, text)?)
}

/// Notes: at most 2000 characters.
pub fn notes(notes: Option<&str>) -> Result<(), ApiError> {
    if notes.is_some_and(|notes| notes.chars().count() > MAX_CREATURE_NOTES_LEN) {
        return Err(ApiError::invalid("notes", format!("at most {MAX_CREATURE_NOTES_LEN} characters")));
    }
    Ok(())
}

/// A checked stat block as the store keeps it.
pub fn stats_text(stats: &StatBlock) -> Result<String, ApiError> {
    serde_json::to_string(stats).map_err(|error| ApiError::Internal(Box::new(error)))
}

/// The ruleset a stored creature follows.
pub fn ruleset_of(creature: &Creature) -> Result<RulesetId, ApiError> {
    creature.ruleset.parse().map_err(|_| corrupt(creature, "ruleset"))
}

/// The stored creature's stat block, read back as its ruleset's.
pub fn stats_of(creature: &Creature) -> Result<StatBlock, ApiError> {
    let ruleset = ruleset_of(creature)?;
    ruleset
        .deserialize_stats(&mut serde_json::Deserializer::from_str(&creature.stats))
        .map_err(|_| corrupt(creature, "stat block"))
}

fn corrupt(creature: &Creature, what: &str) -> ApiError {
    ApiError::Internal(format!("creature {}: stored {what} unreadable", creature.id).into())
}

/// The answer for a stored creature.
pub fn creature_response(creature: Creature) -> Result<CreatureResponse, ApiError> {
    let (ruleset, stats) = (ruleset_of(&creature)?, stats_of(&creature)?);
    Ok(CreatureResponse {
        id: creature.id,
        ruleset,
        name: creature.name,
        stats,
        side: creature.side,
        notes: creature.notes,
        hidden: creature.hidden,
        public: creature.public,
        created_at: creature.created_at,
        updated_at: creature.updated_at,
    })
}

/// A list request, checked.
pub struct Listing {
    pub filter: CreatureFilter,
    pub after: Option<CreaturePosition>,
    pub limit: i64,
}

impl TryFrom<CreatureListQuery> for Listing {
    type Error = ApiError;

    fn try_from(query: CreatureListQuery) -> Result<Self, ApiError> {
        let limit = query.limit.unwrap_or(DEFAULT_PAGE);
        if !(1..=MAX_PAGE).contains(&limit) {
            return Err(ApiError::bad_request("limit", format!("must be 1 to {MAX_PAGE}")));
        }
        if let Some(prefix) = &query.name_prefix {
            let length = prefix.chars().count();
            if length == 0 || length > MAX_NAME_LEN {
                return Err(ApiError::bad_request(
                    "name_prefix",
                    format!("must be 1 to {MAX_NAME_LEN} characters"),
                ));
            }
        }
        let after = query.cursor.as_deref().map(position).transpose()?;
        let filter = CreatureFilter {
            ruleset: query.ruleset.map(|ruleset| ruleset.to_string()),
            name_prefix: query.name_prefix,
        };
        Ok(Self { filter, after, limit })
    }
}

impl Listing {
    /// The answer holding `page`.
    pub fn answer(&self, page: CreaturePage) -> Result<CreatureListResponse, ApiError> {
        let items = page.creatures.into_iter().map(creature_response).collect::<Result<_, _>>()?;
        let next_cursor = page.next.as_ref().map(cursor);
        Ok(CreatureListResponse { items, total: page.total, limit: self.limit, next_cursor })
    }
}

/// The cursor of the page after `position`: the position as JSON, in URL-safe base64.
fn cursor(position: &CreaturePosition) -> String {
    let json = serde_json::json!([position.name_key, position.id]).to_string();
    URL_SAFE_NO_PAD.encode(json)
}

/// The position a cursor names: 400 naming `cursor` when it breaks the published pattern (1 to
/// 2048 URL-safe base64 characters), 422 when it keeps it but decodes to nothing a list hands out.
fn position(cursor: &str) -> Result<CreaturePosition, ApiError> {
    let on_pattern = (1..=MAX_CREATURE_CURSOR_LEN).contains(&cursor.len())
        && cursor.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !on_pattern {
        let detail = format!(
            "must be 1 to {MAX_CREATURE_CURSOR_LEN} URL-safe base64 characters, as `next_cursor` gives"
        );
        return Err(ApiError::bad_request("cursor", detail));
    }
    let never_handed_out = || ApiError::invalid("cursor", "not a cursor this list handed out");
    let bytes = URL_SAFE_NO_PAD.decode(cursor).map_err(|_| never_handed_out())?;
    let (name_key, id): (String, String) = serde_json::from_slice(&bytes).map_err(|_| never_handed_out())?;
    Ok(CreaturePosition { name_key, id })
}

#[cfg(test)]
mod tests {
    use super::{CreaturePosition, cursor, position};

    fn status(error: crate::error::ApiError) -> u16 {
        actix_web::ResponseError::status_code(&error).as_u16()
    }

    #[test]
    fn a_cursor_names_the_position_it_was_made_from() {
        for (name_key, id) in [("goblin", "crt_1"), ("\"odd\" ☃ name\n", "crt_2"), ("", "")] {
            let at = CreaturePosition { name_key: name_key.into(), id: id.into() };
            assert_eq!(position(&cursor(&at)).ok(), Some(at));
        }
    }

    #[test]
    fn anything_else_is_not_a_cursor() {
        // Off the published pattern: 400.
        for text in ["not base64!", "", "a+b/", &"A".repeat(2049)] {
            assert_eq!(position(text).map_err(status), Err(400), "{text:?}");
        }
        // On the pattern, but never handed out (not base64 of a position): 422.
        for text in ["0", "e30", "AAAA"] {
            assert_eq!(position(text).map_err(status), Err(422), "{text:?}");
        }
    }
}

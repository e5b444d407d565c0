//! `GET /v1/encounters`'s query read into the store's filter and page start, and the page
//! turned into its answer. A cursor is the position after which the next page starts, written
//! as an opaque token (`p` and hexadecimal digits).

use crate::error::ApiError;
use crate::wire::{EncounterListQuery, EncounterListResponse, EncounterResponse, MAX_SEED};
use skirmish_db::{EncounterFilter, EncounterPage, PageStart};
use skirmish_domain::encounter::MAX_NAME_LEN;

/// Default and largest page of the encounter list.
pub const DEFAULT_PAGE: i64 = 20;
pub const MAX_PAGE: i64 = 100;

/// A list request, checked.
pub struct Asked {
    pub filter: EncounterFilter,
    pub start: PageStart,
    pub limit: i64,
}

impl TryFrom<EncounterListQuery> for Asked {
    type Error = ApiError;

    fn try_from(query: EncounterListQuery) -> Result<Self, ApiError> {
        let limit = query.limit.unwrap_or(DEFAULT_PAGE);
        if !(1..=MAX_PAGE).contains(&limit) {
            return Err(ApiError::bad_request("limit", format!("must be 1 to {MAX_PAGE}")));
        }
        let start = match (query.cursor, query.offset) {
            // Two well-formed parameters that contradict each other: 422, not 400.
            (Some(_), Some(_)) => return Err(ApiError::invalid("offset", "not with cursor")),
            (Some(cursor), None) => PageStart::After(position(&cursor)?),
            (None, offset) => {
                let offset = offset.unwrap_or(0);
                if !(0..=MAX_SEED as i64).contains(&offset) {
                    return Err(ApiError::bad_request("offset", "must be 0 to 2^53 − 1"));
                }
                PageStart::Offset(offset)
            }
        };
        if let Some(name) = &query.name {
            let length = name.chars().count();
            if length == 0 || length > MAX_NAME_LEN {
                return Err(ApiError::bad_request("name", format!("must be 1 to {MAX_NAME_LEN} characters")));
            }
        }
        let filter = EncounterFilter {
            status: query.status.map(|status| status.as_str()),
            ruleset: query.ruleset.map(|ruleset| ruleset.to_string()),
            name: query.name,
            archived: query.archived.unwrap_or(false),
        };
        Ok(Self { filter, start, limit })
    }
}

impl Asked {
    /// The answer holding `page`.
    pub fn answer(&self, page: EncounterPage) -> EncounterListResponse {
        let items = page.encounters.iter().map(EncounterResponse::from).collect();
        let next_cursor = page.next.map(cursor);
        let (offset, next_offset) = match self.start {
            PageStart::After(_) => (0, None),
            PageStart::Offset(offset) => (offset, page.next.map(|_| offset + self.limit)),
        };
        EncounterListResponse {
            items,
            total: page.total,
            limit: self.limit,
            offset,
            next_offset,
            next_cursor,
        }
    }
}

/// The cursor of the page after `position`.
fn cursor(position: i64) -> String {
    format!("p{position:x}")
}

/// The position a cursor names: 400 naming `cursor` when it breaks the published pattern
/// (`p` and 1 to 16 hex digits), 422 when it keeps it but no list hands it out (`p0`, or past
/// the largest position).
fn position(cursor: &str) -> Result<i64, ApiError> {
    let digits = cursor
        .strip_prefix('p')
        .filter(|digits| (1..=16).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_hexdigit()))
        .ok_or_else(|| {
            ApiError::bad_request("cursor", "must be `p` and 1 to 16 hex digits, as `next_cursor` gives")
        })?;
    i64::from_str_radix(digits, 16)
        .ok()
        .filter(|position| *position > 0)
        .ok_or_else(|| ApiError::invalid("cursor", "not a cursor this list handed out"))
}

#[cfg(test)]
mod tests {
    use super::{cursor, position};

    #[test]
    fn a_cursor_names_the_position_it_was_made_from() {
        for at in [1, 15, 16, 4096, i64::MAX] {
            assert_eq!(position(&cursor(at)).ok(), Some(at), "{at}");
        }
    }

    #[test]
    fn anything_else_is_not_a_cursor() {
        // Off the published pattern: 400.
        for text in ["", "p", "q1", "p-1", "pxyz", "p10000000000000000", "1"] {
            assert_eq!(
                position(text).map_err(|error| actix_web::ResponseError::status_code(&error).as_u16()),
                Err(400),
                "{text:?}"
            );
        }
        // On the pattern, but never handed out: 422.
        for text in ["p0", "p8000000000000000", "pffffffffffffffff"] {
            assert_eq!(
                position(text).map_err(|error| actix_web::ResponseError::status_code(&error).as_u16()),
                Err(422),
                "{text:?}"
            );
        }
    }
}

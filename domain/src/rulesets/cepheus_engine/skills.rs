//! A character's skill levels, as the attack checks use them (cepheus-engine.txt, "Attack": the
//! checks add "the appropriate ... skill"; "Fighting in Zero Gravity" for unskilled attackers). The
//! unskilled DM itself is the SRD's (`skill::UNSKILLED_DM`).
//!
//! Decisions:
//! - Names are matched ignoring case, and any run of spaces, underscores or hyphens counts as a
//!   single underscore; separators at either end are dropped. So "Gun Combat", "gun_combat" and
//!   "GUN-COMBAT" are one skill, and "Zero-G" is `zero_g`. Names are stored and sent back in this
//!   normalised form.
//! - Two names that normalise alike in one stat block are refused, rather than one silently
//!   replacing the other.
//! - A stat block holds at most 64 skills. A name may be at most 64 characters as sent, must have
//!   at least one letter or digit, and may not contain control characters.
//! - Levels run from 0 to 15. Level 0 is trained at the basic level and gives DM +0; a skill that
//!   is not listed is unskilled (−3).

use crate::score::Score;
use serde::de::{self, DeserializeSeed, Deserializer, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;

/// The most skills one stat block may list.
pub const MAX_SKILLS: usize = 64;

/// The longest skill name accepted, in characters as sent.
pub const MAX_SKILL_NAME_CHARS: usize = 64;

/// A skill level (0–15).
pub type SkillLevel = Score<0, 15>;

/// Skill levels by normalised name (see the module's decisions).
// Read from an object of levels by name as a `BTreeMap<String, SkillLevel>` and then
// `Skills::try_from` would read it, without that map in between (see its `Deserialize`). Kept as
// a list sorted by name, each name once: it reads, looks up and writes as that map does, without
// a tree node to allocate for the one or two skills a stat block usually lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(
    feature = "schema",
    derive(utoipa::ToSchema),
    schema(as = CepheusEngineSkills, value_type = BTreeMap<String, SkillLevel>)
)]
pub struct Skills(Vec<(String, SkillLevel)>);

impl Serialize for Skills {
    /// As the `BTreeMap<String, SkillLevel>` it stands for: an object, names in order.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().map(|(name, level)| (name, level)))
    }
}

/// Why a list of skills was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SkillsError {
    #[error("{count} skills listed; at most {MAX_SKILLS} are allowed")]
    TooMany { count: usize },
    #[error("the skill name '{name}' needs at least one letter or digit")]
    BlankName { name: String },
    #[error("the skill name '{name}' is longer than {MAX_SKILL_NAME_CHARS} characters")]
    NameTooLong { name: String },
    #[error("the skill name {name:?} contains a control character")]
    ControlCharacter { name: String },
    #[error("'{first}' and '{second}' name the same skill; list it once")]
    Duplicate { first: String, second: String },
}

/// The form a skill name is stored and looked up in: lowercase, with each run of spaces,
/// underscores and hyphens turned into one underscore.
pub fn normalise_skill_name(name: &str) -> String {
    normalised(name).into_owned()
}

/// [`normalise_skill_name`], borrowing `name` when it is already in that form (as clients and
/// the engine nearly always send it), so looking a skill up allocates nothing.
fn normalised(name: &str) -> Cow<'_, str> {
    if is_normal(name) { Cow::Borrowed(name) } else { Cow::Owned(normalise_any(name)) }
}

/// Whether `name` is its own normal form: lowercase ASCII letters, digits and other ASCII
/// punctuation, with single underscores between parts and none at either end.
fn is_normal(name: &str) -> bool {
    // One pass; starting as if after an underscore refuses one at the start.
    let mut previous = b'_';
    for &byte in name.as_bytes() {
        if !PLAIN[usize::from(byte)] || (byte == b'_' && previous == b'_') {
            return false;
        }
        previous = byte;
    }
    previous != b'_' || name.is_empty()
}

/// The bytes a normal name is made of: printable ASCII, not uppercase, not `-` (one table
/// look-up per byte instead of three comparisons).
static PLAIN: [bool; 256] = plain_bytes();

const fn plain_bytes() -> [bool; 256] {
    let mut table = [false; 256];
    let mut byte: u8 = 0;
    loop {
        table[byte as usize] = byte.is_ascii_graphic() && !byte.is_ascii_uppercase() && byte != b'-';
        if byte == u8::MAX {
            return table;
        }
        byte += 1;
    }
}

fn normalise_any(name: &str) -> String {
    if name.is_ascii() {
        return normalise_ascii(name);
    }
    name.split(|c: char| c.is_whitespace() || c == '_' || c == '-')
        .filter(|part| !part.is_empty())
        .map(str::to_lowercase)
        .collect::<Vec<_>>()
        .join("_")
}

/// [`normalise_skill_name`] for ASCII names, in one pass with one allocation (lowercasing ASCII
/// needs no context, unlike a final Greek sigma).
fn normalise_ascii(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    let mut separated = false;
    for byte in name.bytes() {
        if char::from(byte).is_whitespace() || byte == b'_' || byte == b'-' {
            separated = !out.is_empty();
        } else {
            if separated {
                out.push('_');
                separated = false;
            }
            out.push(char::from(byte.to_ascii_lowercase()));
        }
    }
    out
}

impl Skills {
    /// The level of a skill, looked up by any spelling of its name; `None` when unskilled.
    pub fn level(&self, name: &str) -> Option<i32> {
        if self.0.is_empty() {
            return None;
        }
        // Every stored name is normal, so a name stored as asked for is its own normal form:
        // found as is, it needs no check (the engine asks by normal names).
        if let Some(level) = self.get(name) {
            return Some(level);
        }
        match normalised(name) {
            Cow::Borrowed(_) => None,
            Cow::Owned(key) => self.get(&key),
        }
    }

    /// The level stored under exactly `name`.
    fn get(&self, name: &str) -> Option<i32> {
        let at = self.position(name).ok()?;
        Some(self.0[at].1.get())
    }

    /// Where `name` is in the list (`Ok`), or where it would go to keep the list in order (`Err`).
    fn position(&self, name: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(stored, _)| stored.as_str().cmp(name))
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    /// Each skill's normalised name and level, in name order.
    pub fn iter(&self) -> impl Iterator<Item = (&str, i32)> {
        self.0.iter().map(|(name, level)| (name.as_str(), level.get()))
    }
}

impl TryFrom<BTreeMap<String, SkillLevel>> for Skills {
    type Error = SkillsError;

    fn try_from(listed: BTreeMap<String, SkillLevel>) -> Result<Self, SkillsError> {
        Self::from_sorted(listed.into_iter().map(|(name, level)| (Cow::Owned(name), level)))
    }
}

impl Skills {
    /// The skills of `listed`: names as sent, each once, in name order (a `BTreeMap`'s order).
    fn from_sorted<'a>(
        listed: impl ExactSizeIterator<Item = (Cow<'a, str>, SkillLevel)>,
    ) -> Result<Self, SkillsError> {
        if listed.len() > MAX_SKILLS {
            return Err(SkillsError::TooMany { count: listed.len() });
        }
        // Names are taken in the order listed (by name as sent): the first to claim a normal
        // form keeps it. A name already normal is its own key; the others are remembered as
        // sent, only to name them if a later name claims the same key.
        let mut skills = Skills(Vec::with_capacity(listed.len()));
        let mut renamed: Vec<(String, String)> = Vec::new();
        for (name, level) in listed {
            let key = match checked_key(&name)? {
                Cow::Borrowed(_) => None,
                Cow::Owned(key) => Some(key),
            };
            let claimed = key.as_deref().unwrap_or(&name);
            let Err(at) = skills.position(claimed) else {
                let first = renamed.iter().find(|(key, _)| key == claimed).map_or(claimed, |(_, sent)| sent);
                return Err(SkillsError::Duplicate { first: first.to_owned(), second: name.into_owned() });
            };
            let key = match key {
                Some(key) => {
                    renamed.push((key.clone(), name.into_owned()));
                    key
                }
                None => name.into_owned(),
            };
            skills.0.insert(at, (key, level));
        }
        Ok(skills)
    }
}

/// Reads the levels by name exactly as serde reads the `BTreeMap<String, SkillLevel>` it stands
/// for (every level checked as it comes; a name sent twice keeps its last level), then checks the
/// names in that map's order, so a body is refused with the same error as through the map. Names
/// stay borrowed from the body until kept, so a name already normal is copied once.
impl<'de> Deserialize<'de> for Skills {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let listed = match deserializer.deserialize_map(ListedSkills)? {
            // One skill (or none), as most stat blocks send: already in order, and no list to
            // allocate for it.
            Listed::AtMostOne(one) => return Skills::from_sorted(one.into_iter()).map_err(de::Error::custom),
            Listed::Several(listed) => listed,
        };
        Skills::from_sorted(in_map_order(listed).into_iter()).map_err(de::Error::custom)
    }
}

/// The map's order: reversed first, the stable sort puts a name's last level before its earlier
/// ones, and `dedup_by` keeps the first of each run.
fn in_map_order(mut listed: Vec<(Cow<'_, str>, SkillLevel)>) -> Vec<(Cow<'_, str>, SkillLevel)> {
    listed.reverse();
    listed.sort_by(|(one, _), (other, _)| one.cmp(other));
    listed.dedup_by(|(later, _), (kept, _)| later == kept);
    listed
}

/// The levels by name as sent, in the order sent.
struct ListedSkills;

/// What [`ListedSkills`] read: a single entry is kept without a `Vec`.
enum Listed<'de> {
    AtMostOne(Option<(Cow<'de, str>, SkillLevel)>),
    Several(Vec<(Cow<'de, str>, SkillLevel)>),
}

impl<'de> Visitor<'de> for ListedSkills {
    type Value = Listed<'de>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a map")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let Some(name) = map.next_key_seed(SentName)? else { return Ok(Listed::AtMostOne(None)) };
        let first = (name, map.next_value()?);
        let Some(name) = map.next_key_seed(SentName)? else { return Ok(Listed::AtMostOne(Some(first))) };
        let second = (name, map.next_value()?);
        let mut listed = vec![first, second];
        while let Some(name) = map.next_key_seed(SentName)? {
            listed.push((name, map.next_value()?));
        }
        Ok(Listed::Several(listed))
    }
}

/// A skill name as sent: borrowed from the body unless it had escapes.
struct SentName;

impl<'de> DeserializeSeed<'de> for SentName {
    type Value = Cow<'de, str>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Cow<'de, str>, D::Error> {
        deserializer.deserialize_string(self)
    }
}

impl<'de> Visitor<'de> for SentName {
    type Value = Cow<'de, str>;

    fn expecting(&self, formatter: &mut fmt::Formatter) -> fmt::Result {
        formatter.write_str("a string")
    }

    fn visit_borrowed_str<E: de::Error>(self, name: &'de str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Borrowed(name))
    }

    fn visit_str<E: de::Error>(self, name: &str) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(name.to_owned()))
    }

    fn visit_string<E: de::Error>(self, name: String) -> Result<Cow<'de, str>, E> {
        Ok(Cow::Owned(name))
    }
}

/// The name's normal form; refuses a name too long, with a control character, or with no letter
/// or digit.
fn checked_key(name: &str) -> Result<Cow<'_, str>, SkillsError> {
    // The usual name, already normal: printable ASCII (so no control character, and as many
    // characters as bytes), checked in one pass.
    if name.len() <= MAX_SKILL_NAME_CHARS && is_normal(name) {
        if !name.bytes().any(|byte| byte.is_ascii_alphanumeric()) {
            return Err(SkillsError::BlankName { name: name.into() });
        }
        return Ok(Cow::Borrowed(name));
    }
    fully_checked_key(name).map(Cow::Owned)
}

/// [`checked_key`] for any name, without the quick path for a name already normal.
fn fully_checked_key(name: &str) -> Result<String, SkillsError> {
    if name.chars().count() > MAX_SKILL_NAME_CHARS {
        return Err(SkillsError::NameTooLong { name: name.into() });
    }
    if name.chars().any(char::is_control) {
        return Err(SkillsError::ControlCharacter { name: name.into() });
    }
    let key = normalise_any(name);
    if !key.chars().any(char::is_alphanumeric) {
        return Err(SkillsError::BlankName { name: name.into() });
    }
    Ok(key)
}

#[cfg(test)]
#[path = "skills_tests.rs"]
mod tests;

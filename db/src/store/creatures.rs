//! Each tenant's creature library: named stat blocks with defaults, kept to add combatants from.
//! Nothing of it is held in memory, so every replica reads what the last change wrote.
//! Lists are in name order, case aside: by `name_key`, the name lower-cased here, compared
//! byte by byte on both backends (PostgreSQL's column has the "C" collation).

use super::Store;
use super::clock::utc_now;
use super::idempotency::{IdempotencyKey, Reply, StoredResponse, forget_replies_about};
use super::library::like_literal;
use crate::backend::DbConnection;
use crate::error::{DbError, MutateError};
use crate::schema::creatures;
use diesel::dsl::count_star;
use diesel::prelude::*;

type Db = <DbConnection as diesel::Connection>::Backend;

/// Most creatures one tenant's library holds.
pub const MAX_CREATURES_PER_TENANT: i64 = 1000;

/// A library creature as stored: its stat block as the JSON text the server wrote.
#[derive(Debug, Clone, PartialEq, Eq, Queryable, Selectable)]
#[diesel(table_name = creatures)]
pub struct Creature {
    pub id: String,
    pub ruleset: String,
    pub name: String,
    pub stats: String,
    pub side: Option<String>,
    pub notes: Option<String>,
    pub hidden: bool,
    pub public: bool,
    pub created_at: String,
    pub updated_at: String,
}

/// A creature to store (checked by the caller: its stat block is one of its ruleset's).
#[derive(Debug, Clone)]
pub struct NewCreature {
    pub id: String,
    pub ruleset: String,
    pub name: String,
    pub stats: String,
    pub side: Option<String>,
    pub notes: Option<String>,
    pub hidden: bool,
    pub public: bool,
}

/// A change to a creature: `None` keeps a field; `Some(None)` clears an optional one.
#[derive(Debug, Clone, Default)]
pub struct CreaturePatch {
    pub name: Option<String>,
    pub stats: Option<String>,
    pub side: Option<Option<String>>,
    pub notes: Option<Option<String>>,
    pub hidden: Option<bool>,
    pub public: Option<bool>,
}

/// Which of a tenant's creatures a list shows.
#[derive(Debug, Clone, Default)]
pub struct CreatureFilter {
    /// A ruleset id as stored.
    pub ruleset: Option<String>,
    /// The start of the name, matched without regard to case.
    pub name_prefix: Option<String>,
}

/// Where a list of creatures stands: after the creature with this name key and id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CreaturePosition {
    pub name_key: String,
    pub id: String,
}

/// One page of a creature list.
#[derive(Debug, Clone)]
pub struct CreaturePage {
    pub creatures: Vec<Creature>,
    /// Creatures the filter matches in all.
    pub total: i64,
    /// Where the next page starts, when there is one.
    pub next: Option<CreaturePosition>,
}

/// The key a creature's name sorts and matches by.
pub fn creature_name_key(name: &str) -> String {
    name.to_lowercase()
}

impl Store {
    /// Stores a new creature in the tenant's library and answers what `render` makes of it,
    /// honouring `key` as every change does (a retry replays the first answer and stores
    /// nothing). A full library is refused with `full()`.
    pub fn create_creature<E>(
        &self,
        tenant: &str,
        new: &NewCreature,
        key: Option<&IdempotencyKey>,
        full: impl FnOnce() -> E,
        render: impl FnOnce(&Creature) -> Result<StoredResponse, E>,
    ) -> Result<Reply, MutateError<E>> {
        let now = utc_now();
        let make = |conn: &mut DbConnection| {
            let held: i64 = creatures::table
                .filter(creatures::tenant.eq(tenant))
                .select(count_star())
                .get_result(conn)?;
            if held >= MAX_CREATURES_PER_TENANT {
                return Err(MutateError::Domain(full()));
            }
            diesel::insert_into(creatures::table)
                .values((
                    creatures::tenant.eq(tenant),
                    creatures::id.eq(&new.id),
                    creatures::ruleset.eq(&new.ruleset),
                    creatures::name.eq(&new.name),
                    creatures::name_key.eq(creature_name_key(&new.name)),
                    creatures::stats.eq(&new.stats),
                    creatures::side.eq(&new.side),
                    creatures::notes.eq(&new.notes),
                    creatures::hidden.eq(new.hidden),
                    creatures::public.eq(new.public),
                    creatures::created_at.eq(&now),
                    creatures::updated_at.eq(&now),
                ))
                .execute(conn)?;
            let created = one(tenant, &new.id).select(Creature::as_select()).get_result(conn)?;
            Ok((new.id.clone(), created))
        };
        self.make_once(tenant, key, make, render)
    }

    /// The tenant's creature with this id, if there is one.
    pub fn creature(&self, tenant: &str, id: &str) -> Result<Option<Creature>, DbError> {
        let found =
            one(tenant, id).select(Creature::as_select()).get_result(&mut *self.read()?).optional()?;
        Ok(found)
    }

    /// The tenant's creatures matching `filter`, in name order (then id), at most `limit` after
    /// `after`, read in one snapshot.
    pub fn list_creatures(
        &self,
        tenant: &str,
        filter: &CreatureFilter,
        after: Option<&CreaturePosition>,
        limit: i64,
    ) -> Result<CreaturePage, DbError> {
        self.read()?.transaction(|conn| {
            let total = matching(tenant, filter).count().get_result(conn)?;
            let mut page = matching(tenant, filter)
                .order((creatures::name_key, creatures::id))
                .limit(limit.saturating_add(1));
            if let Some(after) = after {
                let (key, id) = (after.name_key.as_str(), after.id.as_str());
                page = page.filter(
                    creatures::name_key.gt(key).or(creatures::name_key.eq(key).and(creatures::id.gt(id))),
                );
            }
            let mut rows: Vec<(Creature, String)> =
                page.select((Creature::as_select(), creatures::name_key)).load(conn)?;
            let more = rows.len() as i64 > limit;
            rows.truncate(usize::try_from(limit).unwrap_or(0));
            let next = match rows.last() {
                Some((last, key)) if more => {
                    Some(CreaturePosition { name_key: key.clone(), id: last.id.clone() })
                }
                _ => None,
            };
            Ok(CreaturePage {
                creatures: rows.into_iter().map(|(creature, _)| creature).collect(),
                total,
                next,
            })
        })
    }

    /// Changes the tenant's creature; `None` if there is none. Combatants added from it keep
    /// the stat block they were added with.
    pub fn update_creature(
        &self,
        tenant: &str,
        id: &str,
        patch: &CreaturePatch,
    ) -> Result<Option<Creature>, DbError> {
        let now = utc_now();
        self.write(|conn| {
            let Some(mut creature) =
                one(tenant, id).select(Creature::as_select()).get_result(conn).optional()?
            else {
                return Ok(None);
            };
            let patch = patch.clone();
            if let Some(name) = patch.name {
                creature.name = name;
            }
            if let Some(stats) = patch.stats {
                creature.stats = stats;
            }
            if let Some(side) = patch.side {
                creature.side = side;
            }
            if let Some(notes) = patch.notes {
                creature.notes = notes;
            }
            creature.hidden = patch.hidden.unwrap_or(creature.hidden);
            creature.public = patch.public.unwrap_or(creature.public);
            creature.updated_at = now.clone();
            diesel::update(one(tenant, id))
                .set((
                    creatures::name.eq(&creature.name),
                    creatures::name_key.eq(creature_name_key(&creature.name)),
                    creatures::stats.eq(&creature.stats),
                    creatures::side.eq(&creature.side),
                    creatures::notes.eq(&creature.notes),
                    creatures::hidden.eq(creature.hidden),
                    creatures::public.eq(creature.public),
                    creatures::updated_at.eq(&creature.updated_at),
                ))
                .execute(conn)?;
            Ok(Some(creature))
        })
    }

    /// Deletes the tenant's creature; false if there is none. Combatants added from it stay,
    /// naming it still.
    /// A retried create of it (same `Idempotency-Key`) makes it anew.
    pub fn delete_creature(&self, tenant: &str, id: &str) -> Result<bool, DbError> {
        let deleted = self.write(|conn| {
            forget_replies_about(conn, tenant, id)?;
            Ok::<_, DbError>(diesel::delete(one(tenant, id)).execute(conn)?)
        })?;
        Ok(deleted > 0)
    }
}

/// The query of one tenant's creature by id.
type OneCreature<'a> = diesel::dsl::Filter<
    creatures::table,
    diesel::dsl::And<diesel::dsl::Eq<creatures::tenant, &'a str>, diesel::dsl::Eq<creatures::id, &'a str>>,
>;

/// The tenant's creature with this id.
fn one<'a>(tenant: &'a str, id: &'a str) -> OneCreature<'a> {
    creatures::table.filter(creatures::tenant.eq(tenant).and(creatures::id.eq(id)))
}

/// The tenant's creatures that `filter` matches.
fn matching<'a>(tenant: &'a str, filter: &'a CreatureFilter) -> creatures::BoxedQuery<'a, Db> {
    let mut query = creatures::table.filter(creatures::tenant.eq(tenant)).into_boxed();
    if let Some(ruleset) = &filter.ruleset {
        query = query.filter(creatures::ruleset.eq(ruleset));
    }
    if let Some(prefix) = &filter.name_prefix {
        query = query.filter(creatures::name_key.like(prefix_pattern(prefix)).escape('\\'));
    }
    query
}

/// `prefix%` of the lower-cased `prefix`, matching it literally.
fn prefix_pattern(prefix: &str) -> String {
    format!("{}%", like_literal(prefix))
}

#[cfg(test)]
mod tests {
    use super::prefix_pattern;

    #[test]
    fn a_prefix_matches_only_itself_at_the_start() {
        assert_eq!(prefix_pattern("Gob"), "gob%");
        assert_eq!(prefix_pattern("50%_\\"), "50\\%\\_\\\\%");
    }
}

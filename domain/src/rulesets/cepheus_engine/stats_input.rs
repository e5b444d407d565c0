//! Reading a stat block from client JSON: every field beyond the six characteristics is optional,
//! and damage is checked against the characteristics before the block is accepted.
//!
//! Decisions:
//! - The damage check needs the whole block, so its error is reported for the stat block as a
//!   whole; the message starts with the field path (e.g. "damage.end: ...") so the client can find
//!   it. Errors inside one field (a skill level of 16, a negative armour) keep their own path.

use super::character::{Armour, Damage, Physical, zero};
use super::skills::Skills;
use super::{Characteristic, Stats};
use crate::rulesets::RuleError;
use serde::Deserialize;

/// A stat block as read, before the cross-field checks (see `character.rs` for the defaults).
#[derive(Debug, Clone, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineStatsInput))]
#[serde(deny_unknown_fields)]
pub struct StatsInput {
    pub str: Characteristic,
    pub dex: Characteristic,
    pub end: Characteristic,
    pub int: Characteristic,
    pub edu: Characteristic,
    pub soc: Characteristic,
    #[serde(default)]
    pub skills: Skills,
    #[serde(default = "zero")]
    pub armour: Armour,
    #[serde(default)]
    pub damage: Damage,
    #[serde(default)]
    pub fatigued: bool,
    #[serde(default)]
    pub knocked_out: bool,
    #[serde(default)]
    pub vehicle: Option<super::vehicle_block::Vehicle>,
}

impl TryFrom<StatsInput> for Stats {
    type Error = RuleError;

    /// Refuses damage beyond a characteristic: current values cannot go below 0
    /// (cepheus-engine.txt, "Damage": once a characteristic reaches 0 the rest goes elsewhere).
    fn try_from(input: StatsInput) -> Result<Self, RuleError> {
        let stats = Stats {
            str: input.str,
            dex: input.dex,
            end: input.end,
            int: input.int,
            edu: input.edu,
            soc: input.soc,
            skills: input.skills,
            armour: input.armour,
            damage: input.damage,
            fatigued: input.fatigued,
            knocked_out: input.knocked_out,
            vehicle: input.vehicle,
        };
        if let Some(vehicle) = &stats.vehicle {
            vehicle.check()?;
        }
        Physical::ALL.iter().try_for_each(|physical| check_damage(&stats, *physical))?;
        Ok(stats)
    }
}

fn check_damage(stats: &Stats, physical: Physical) -> Result<(), RuleError> {
    let (taken, maximum) = (stats.damage.of(physical), stats.maximum(physical));
    if taken <= maximum {
        return Ok(());
    }
    Err(RuleError::invalid(
        format!("damage.{}", physical.field()),
        format!("{taken} points of damage is more than the character's {} of {maximum}", physical.name()),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rulesets::cepheus_engine::character::Physical;
    use serde::de::value::{Error, MapDeserializer};
    use serde::de::{Deserializer, IntoDeserializer, Visitor};
    use serde::forward_to_deserialize_any;

    /// A tiny JSON-like value, so the tests can read stat blocks without a JSON crate.
    #[derive(Clone)]
    enum V {
        I(i64),
        B(bool),
        M(Vec<(&'static str, V)>),
    }

    impl<'de> IntoDeserializer<'de, Error> for V {
        type Deserializer = V;
        fn into_deserializer(self) -> V {
            self
        }
    }

    impl<'de> Deserializer<'de> for V {
        type Error = Error;
        fn deserialize_any<W: Visitor<'de>>(self, visitor: W) -> Result<W::Value, Error> {
            match self {
                V::I(value) => visitor.visit_i64(value),
                V::B(value) => visitor.visit_bool(value),
                V::M(entries) => visitor.visit_map(MapDeserializer::new(entries.into_iter())),
            }
        }
        forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
            option unit unit_struct newtype_struct seq tuple tuple_struct map struct enum identifier
            ignored_any
        }
    }

    fn six(extra: Vec<(&'static str, V)>) -> V {
        let mut entries: Vec<(&'static str, V)> =
            ["str", "dex", "end", "int", "edu", "soc"].into_iter().map(|name| (name, V::I(7))).collect();
        entries.extend(extra);
        V::M(entries)
    }

    fn read(value: V) -> Result<Stats, String> {
        Stats::deserialize(value).map_err(|error| error.to_string())
    }

    #[test]
    fn six_characteristics_alone_still_read_with_defaults() {
        let stats = read(six(vec![])).unwrap();
        let c = |value| Characteristic::new(value).unwrap();
        assert_eq!(stats, Stats::with_characteristics(c(7), c(7), c(7), c(7), c(7), c(7)));
        assert_eq!(stats.armour.get(), 0);
        assert!(
            stats.skills.is_empty() && !stats.has_been_damaged() && !stats.fatigued && !stats.knocked_out
        );
    }

    #[test]
    fn every_optional_field_is_read() {
        let skills = V::M(vec![("Gun Combat", V::I(2))]);
        let damage = V::M(vec![("end", V::I(7)), ("dex", V::I(1))]);
        let extra =
            vec![("skills", skills), ("armour", V::I(5)), ("damage", damage), ("fatigued", V::B(true))];
        let stats = read(six(extra)).unwrap();
        assert_eq!(stats.skill_dm("gun_combat"), 2);
        assert_eq!(stats.armour.get(), 5);
        // END 7 − 7 = 0, DEX 7 − 1 = 6, STR untouched (missing damage parts are 0).
        assert_eq!(stats.current(Physical::End), 0);
        assert_eq!(stats.current(Physical::Dex), 6);
        assert_eq!(stats.current(Physical::Str), 7);
        assert!(stats.fatigued);
    }

    #[test]
    fn damage_beyond_a_characteristic_is_refused() {
        let damage = V::M(vec![("end", V::I(8))]);
        let error = read(six(vec![("damage", damage)])).unwrap_err();
        assert_eq!(error, "damage.end: 8 points of damage is more than the character's Endurance of 7");
    }

    #[test]
    fn bad_optional_fields_are_refused() {
        let out_of_range = |field: &'static str, value: V| read(six(vec![(field, value)])).unwrap_err();
        assert!(out_of_range("armour", V::I(51)).contains("51 is out of range"));
        assert!(out_of_range("damage", V::M(vec![("str", V::I(-1))])).contains("out of range"));
        assert!(out_of_range("skills", V::M(vec![("Gun Combat", V::I(16))])).contains("16 is out of range"));
        let twice = V::M(vec![("Gun Combat", V::I(1)), ("gun_combat", V::I(2))]);
        assert!(out_of_range("skills", twice).contains("name the same skill"));
        assert!(out_of_range("damage", V::M(vec![("int", V::I(1))])).contains("unknown field `int`"));
        assert!(out_of_range("luck", V::I(3)).contains("unknown field `luck`"));
    }
}

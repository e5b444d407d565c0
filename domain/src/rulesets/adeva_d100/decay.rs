//! Characteristic Decay: ailments and injuries that lower a characteristic for a while
//! (adeva-d100.txt, "Ailments", "Characteristic Decay").
//!
//! Decisions:
//! - A decay names the characteristic, the points it takes away (1 to 100) and its reason. It
//!   lasts until the end of the cycle (the text's only duration; what a cycle is, is the
//!   campaign's), recorded in `lasts_until` so the encounter layer can expire it.
//! - Several decays on the same characteristic add up; the effective value never drops below 0.
//! - Decays on other characteristics are ignored when working out one characteristic.
//! - At most 50 decays are accepted at once.

use super::{Characteristic, Stats};
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most decays accepted at once.
pub const MAX_DECAYS: usize = 50;

/// The nine characteristics, by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CharacteristicName))]
#[serde(rename_all = "snake_case")]
pub enum CharacteristicName {
    Ws,
    Bs,
    S,
    T,
    Ag,
    Int,
    Per,
    Wp,
    Fel,
}

impl CharacteristicName {
    /// This characteristic's score in a stat block, as a number.
    pub fn score(self, stats: &Stats) -> i32 {
        self.value(stats).get()
    }

    /// This characteristic's score in a stat block.
    pub fn value(self, stats: &Stats) -> Characteristic {
        match self {
            Self::Ws => stats.ws,
            Self::Bs => stats.bs,
            Self::S => stats.s,
            Self::T => stats.t,
            Self::Ag => stats.ag,
            Self::Int => stats.int,
            Self::Per => stats.per,
            Self::Wp => stats.wp,
            Self::Fel => stats.fel,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            Self::Ws => "WS",
            Self::Bs => "BS",
            Self::S => "Strength",
            Self::T => "Toughness",
            Self::Ag => "Agility",
            Self::Int => "Intelligence",
            Self::Per => "Perception",
            Self::Wp => "Willpower",
            Self::Fel => "Fellowship",
        }
    }
}

/// When a decay wears off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100DecayEnds))]
#[serde(rename_all = "snake_case")]
pub enum DecayEnds {
    /// At the end of the cycle (adeva-d100.txt, "Characteristic Decay").
    #[default]
    EndOfCycle,
}

/// One decay on one characteristic.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100CharacteristicDecay))]
#[serde(deny_unknown_fields)]
pub struct CharacteristicDecay {
    pub characteristic: CharacteristicName,
    #[serde(deserialize_with = "crate::rulesets::adeva_d100::bounds::read::rating")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 100))]
    pub amount: u32,
    pub reason: String,
    #[serde(default)]
    pub lasts_until: DecayEnds,
}

/// A characteristic after its decays.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EffectiveCharacteristic))]
pub struct EffectiveCharacteristic {
    pub characteristic: CharacteristicName,
    pub base: Characteristic,
    /// The decays on this characteristic.
    pub decays: Vec<CharacteristicDecay>,
    pub total_decay: u32,
    pub value: Characteristic,
}

/// Refuses more than 50 decays, an amount outside 1..=100 or a blank reason; `field` is the JSON
/// path of the list.
pub fn check_decays(field: &str, decays: &[CharacteristicDecay]) -> Result<(), RuleError> {
    if decays.len() > MAX_DECAYS {
        return Err(RuleError::invalid(field, "at most 50 decays may be sent"));
    }
    for (index, decay) in decays.iter().enumerate() {
        if !(1..=100).contains(&decay.amount) {
            return Err(RuleError::invalid(
                format!("{field}[{index}].amount"),
                "a decay takes 1 to 100 points",
            ));
        }
        if decay.reason.trim().is_empty() {
            return Err(RuleError::invalid(format!("{field}[{index}].reason"), "every decay needs a reason"));
        }
    }
    Ok(())
}

/// A characteristic lowered by every decay on it, not below 0 (adeva-d100.txt, "Characteristic
/// Decay").
pub fn effective_characteristic(
    base: Characteristic,
    characteristic: CharacteristicName,
    decays: &[CharacteristicDecay],
) -> Result<EffectiveCharacteristic, RuleError> {
    check_decays("decays", decays)?;
    let applying: Vec<_> =
        decays.iter().filter(|decay| decay.characteristic == characteristic).cloned().collect();
    let total_decay = applying.iter().map(|decay| decay.amount).sum::<u32>();
    let lowered = i64::from(base.get()) - i64::from(total_decay);
    let value = Characteristic::new(lowered.max(0))
        .map_err(|_| RuleError::invalid("decays", "a decayed characteristic fell outside 0..=100"))?;
    Ok(EffectiveCharacteristic { characteristic, base, decays: applying, total_decay, value })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decay(characteristic: CharacteristicName, amount: u32) -> CharacteristicDecay {
        CharacteristicDecay {
            characteristic,
            amount,
            reason: "toxin".into(),
            lasts_until: DecayEnds::EndOfCycle,
        }
    }

    fn c(value: i64) -> Characteristic {
        Characteristic::new(value).unwrap()
    }

    #[test]
    fn decays_on_the_characteristic_add_up() {
        // T 40 − 5 − 10 = 25; the Ag decay is ignored.
        let decays = [
            decay(CharacteristicName::T, 5),
            decay(CharacteristicName::Ag, 20),
            decay(CharacteristicName::T, 10),
        ];
        let effective = effective_characteristic(c(40), CharacteristicName::T, &decays).unwrap();
        assert_eq!((effective.total_decay, effective.value.get(), effective.decays.len()), (15, 25, 2));
    }

    #[test]
    fn a_characteristic_never_decays_below_zero() {
        // 12 − 30 → 0.
        let effective =
            effective_characteristic(c(12), CharacteristicName::S, &[decay(CharacteristicName::S, 30)]);
        assert_eq!(effective.unwrap().value.get(), 0);
    }

    #[test]
    fn a_decay_lasts_until_the_end_of_the_cycle_by_default() {
        let parsed: CharacteristicDecay =
            serde_json::from_str(r#"{"characteristic": "wp", "amount": 10, "reason": "fear"}"#).unwrap();
        assert_eq!(
            (parsed.characteristic, parsed.lasts_until),
            (CharacteristicName::Wp, DecayEnds::EndOfCycle)
        );
        let unknown = serde_json::from_str::<CharacteristicDecay>(
            r#"{"characteristic": "wp", "amount": 10, "reason": "fear", "rounds": 2}"#,
        );
        assert!(unknown.is_err());
    }

    #[test]
    fn bad_decays_are_refused_by_path() {
        let err = effective_characteristic(c(40), CharacteristicName::T, &[decay(CharacteristicName::T, 0)]);
        assert!(matches!(err, Err(RuleError::Invalid { field, .. }) if field == "decays[0].amount"));
        let mut blank = decay(CharacteristicName::T, 5);
        blank.reason = String::new();
        let err = effective_characteristic(c(40), CharacteristicName::T, &[blank]);
        assert!(matches!(err, Err(RuleError::Invalid { field, .. }) if field == "decays[0].reason"));
    }
}

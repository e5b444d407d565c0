//! The Adeva d100 stat block: the nine characteristics and what a fight changes (wounds, fatigue,
//! altitude, decays), as the client sends it (adeva-d100.txt, "Characteristics", "Combat Rules").

use super::altitude;
use super::bounds::{self, Unsigned};
use super::decay;
use crate::score::Score;
use serde::{Deserialize, Serialize};

/// A characteristic on the percentile scale.
pub type Characteristic = Score<0, 100>;

/// The nine characteristics.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Stats))]
#[serde(deny_unknown_fields, try_from = "StatsWire")]
pub struct Stats {
    pub ws: Characteristic,
    pub bs: Characteristic,
    pub s: Characteristic,
    pub t: Characteristic,
    pub ag: Characteristic,
    pub int: Characteristic,
    pub per: Characteristic,
    pub wp: Characteristic,
    pub fel: Characteristic,
    /// Maximum wounds; absent for a combatant whose wounds are not tracked (it cannot be damaged
    /// here until it has them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wounds: Option<bounds::Wounds>,
    /// Wounds lost so far (0 by default); current wounds = `wounds` − `wounds_taken`.
    #[serde(default = "bounds::zero", skip_serializing_if = "bounds::is_zero")]
    pub wounds_taken: bounds::Wounds,
    /// Levels of fatigue (0 by default).
    #[serde(default = "bounds::zero", skip_serializing_if = "bounds::is_zero")]
    pub fatigue: bounds::FatigueLevels,
    /// Fate Points (0 by default): with any, damage past 0 wounds is Lethal Damage, not death.
    #[serde(default = "bounds::zero", skip_serializing_if = "bounds::is_zero")]
    pub fate_points: bounds::Points,
    /// Armour Points (0 by default).
    #[serde(default = "bounds::zero", skip_serializing_if = "bounds::is_zero")]
    pub armour: bounds::Points,
    /// Size modifier to movement in squares (0 by default).
    #[serde(default = "zero_size", skip_serializing_if = "bounds::is_zero")]
    pub size: bounds::SizeModifier,
    /// Deflector strengths (none by default); only the strongest is used.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deflectors: Vec<bounds::DeflectorStrength>,
    /// Altitude band (Ground by default).
    #[serde(default, skip_serializing_if = "is_ground")]
    pub altitude: altitude::AltitudeBand,
    /// Falling: drops one band at the end of each round (false by default).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub falling: bool,
    /// The characteristic tested against Pinning, when not Willpower.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pinning_characteristic: Option<decay::CharacteristicName>,
    /// Characteristic decays in force.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub decays: Vec<decay::CharacteristicDecay>,
}

/// [`Stats`] as read, before the checks across fields.
#[derive(Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100StatsWire))]
#[serde(deny_unknown_fields)]
struct StatsWire {
    ws: Characteristic,
    bs: Characteristic,
    s: Characteristic,
    t: Characteristic,
    ag: Characteristic,
    int: Characteristic,
    per: Characteristic,
    wp: Characteristic,
    fel: Characteristic,
    /// Maximum wounds; absent for a combatant whose wounds are not tracked (it cannot be damaged
    /// here until it has them).
    #[serde(default)]
    wounds: Option<bounds::Wounds>,
    /// Wounds lost so far (0 by default); current wounds = `wounds` − `wounds_taken`.
    #[serde(default = "bounds::zero")]
    wounds_taken: bounds::Wounds,
    /// Levels of fatigue (0 by default).
    #[serde(default = "bounds::zero")]
    fatigue: bounds::FatigueLevels,
    /// Fate Points (0 by default): with any, damage past 0 wounds is Lethal Damage, not death.
    #[serde(default = "bounds::zero")]
    fate_points: bounds::Points,
    /// Armour Points (0 by default).
    #[serde(default = "bounds::zero")]
    armour: bounds::Points,
    /// Size modifier to movement in squares (0 by default).
    #[serde(default = "zero_size")]
    size: bounds::SizeModifier,
    /// Deflector strengths (none by default); only the strongest is used.
    #[serde(default)]
    deflectors: Vec<bounds::DeflectorStrength>,
    /// Altitude band (Ground by default).
    #[serde(default)]
    altitude: altitude::AltitudeBand,
    /// Falling: drops one band at the end of each round (false by default).
    #[serde(default)]
    falling: bool,
    /// The characteristic tested against Pinning, when not Willpower.
    #[serde(default)]
    pinning_characteristic: Option<decay::CharacteristicName>,
    /// Characteristic decays in force.
    #[serde(default)]
    decays: Vec<decay::CharacteristicDecay>,
}

impl TryFrom<StatsWire> for Stats {
    type Error = String;

    /// Refuses `wounds_taken` above `wounds` (or any without `wounds`) when a stat block is read
    /// (adeva-d100.txt, "Attacking", Step Seven: wounds run from the maximum down to 0).
    fn try_from(wire: StatsWire) -> Result<Self, Self::Error> {
        let max = wire.wounds.map_or(0, bounds::Unsigned::n);
        if wire.wounds_taken.n() > max {
            return Err(format!("wounds_taken ({}) may not exceed wounds ({max})", wire.wounds_taken.get()));
        }
        Ok(Self {
            ws: wire.ws,
            bs: wire.bs,
            s: wire.s,
            t: wire.t,
            ag: wire.ag,
            int: wire.int,
            per: wire.per,
            wp: wire.wp,
            fel: wire.fel,
            wounds: wire.wounds,
            wounds_taken: wire.wounds_taken,
            fatigue: wire.fatigue,
            fate_points: wire.fate_points,
            armour: wire.armour,
            size: wire.size,
            deflectors: wire.deflectors,
            altitude: wire.altitude,
            falling: wire.falling,
            pinning_characteristic: wire.pinning_characteristic,
            decays: wire.decays,
        })
    }
}

fn zero_size() -> bounds::SizeModifier {
    bounds::held(0)
}

fn is_ground(band: &altitude::AltitudeBand) -> bool {
    *band == altitude::AltitudeBand::Ground
}

impl Default for Stats {
    /// Every characteristic 0 and every optional field at its default (for builders).
    fn default() -> Self {
        let zero = Characteristic::new(0).unwrap_or_else(|_| unreachable!("0 is a characteristic"));
        Self {
            ws: zero,
            bs: zero,
            s: zero,
            t: zero,
            ag: zero,
            int: zero,
            per: zero,
            wp: zero,
            fel: zero,
            wounds: None,
            wounds_taken: bounds::zero(),
            fatigue: bounds::zero(),
            fate_points: bounds::zero(),
            armour: bounds::zero(),
            size: zero_size(),
            deflectors: Vec::new(),
            altitude: altitude::AltitudeBand::Ground,
            falling: false,
            pinning_characteristic: None,
            decays: Vec::new(),
        }
    }
}

impl Stats {
    /// Wounds left now (0 when untracked).
    pub fn current_wounds(&self) -> u32 {
        self.max_wounds().saturating_sub(self.wounds_taken.n())
    }

    /// The maximum wounds (0 when untracked).
    pub fn max_wounds(&self) -> u32 {
        self.wounds.map_or(0, Unsigned::n)
    }

    /// Records the wounds left after damage: `wounds_taken` becomes the maximum less `after`.
    pub fn set_wounds_left(&mut self, after: u32) {
        let max = self.max_wounds();
        self.wounds_taken = bounds::held(i64::from(max - after.min(max)));
    }

    /// Adds fatigue levels, the total held at 1,000.
    pub fn add_fatigue(&mut self, levels: u32) {
        self.fatigue = bounds::held(i64::from(self.fatigue.n()) + i64::from(levels));
    }
}

/// A characteristic's bonus is its tens digit (Agility 34 → Agility Bonus 3).
pub fn bonus(value: Characteristic) -> i32 {
    value.get() / 10
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Dice;
    use crate::rulesets::adeva_d100::roll_initiative;

    pub(crate) fn stats_with_agility(ag: i64) -> Stats {
        let c = |v| Characteristic::new(v).unwrap();
        Stats {
            ws: c(30),
            bs: c(30),
            s: c(30),
            t: c(30),
            ag: c(ag),
            int: c(30),
            per: c(30),
            wp: c(30),
            fel: c(30),
            ..Stats::default()
        }
    }

    #[test]
    fn wounds_taken_above_wounds_is_refused_when_read() {
        let mut value = serde_json::to_value(stats_with_agility(30)).unwrap();
        value["wounds"] = 10.into();
        value["wounds_taken"] = 10.into();
        assert!(serde_json::from_value::<Stats>(value.clone()).is_ok());
        value["wounds_taken"] = 11.into();
        let error = serde_json::from_value::<Stats>(value.clone()).unwrap_err().to_string();
        assert!(error.contains("wounds_taken (11) may not exceed wounds (10)"), "{error}");
        value.as_object_mut().unwrap().remove("wounds");
        value["wounds_taken"] = 1.into();
        assert!(serde_json::from_value::<Stats>(value).is_err());
    }

    #[test]
    fn initiative_is_1d10_plus_agility_bonus() {
        // Ag 34 → AB 3; die 7 → 10.
        let mut dice = Dice::scripted(vec![7], 0).unwrap();
        let roll = roll_initiative(&stats_with_agility(34), &mut dice, "initiative").unwrap();
        assert_eq!(roll.score, 10);
        assert_eq!(roll.explanation, "1d10 (7) + AB 3 = 10");
    }
}

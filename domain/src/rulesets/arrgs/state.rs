//! What the engine tracks per ARRGS combatant during a fight: Vitality lost, the conditions, and
//! what the combatant has used this round (arrgs.txt, "Vitality", "Conditions", "A Turn").

use super::modifier::{Modifier, ModifierCode};
use super::bonuses::{Ability, Bonuses, CheckKind};
use super::weapon::{SpellDuration, Weapon};
use serde::{Deserialize, Serialize};

/// The bounds of [`CombatState::vitality_lost`], stored or sent inline (`Fighter::lose_vitality`
/// keeps the stored loss within them).
pub const VITALITY_LOST: (i32, i32) = (-10_000, 20_000);

/// Per-combatant combat state. Starts empty: nothing lost, no conditions, nothing used.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsCombatState))]
#[serde(default)]
pub struct CombatState {
    /// Vitality lost since the combatant joined (Current = starting Vitality − this).
    #[cfg_attr(feature = "schema", schema(minimum = -10000, maximum = 20000))]
    pub vitality_lost: i32,
    /// Applications of the Dying condition (0: not Dying).
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub dying: u32,
    /// Disabled although Current Vitality is above 0: Dying reached 0 ("Dying [n]"). Disabled at
    /// 0 Vitality or less is read from Vitality itself.
    pub disabled_after_dying: bool,
    pub unconscious: bool,
    pub prone: bool,
    /// Applications of the Staggered condition.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub staggered: u32,
    /// Threat Range shift from Change Reach (until the end of combat).
    #[cfg_attr(feature = "schema", schema(minimum = -20, maximum = 20))]
    pub reach_shift: i32,
    /// The Movement Increment reached last round (for the acceleration rule).
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 10000))]
    pub last_increment: i32,
    /// The last round whose End of Round checks were made by the `end-of-round` operation.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000000))]
    pub end_of_round_done: u32,
    /// What the combatant has used this round; cleared at the End of Round.
    pub round: RoundUse,
    /// The items tracked (held, carried, dropped; their damage): copied from the stat block's
    /// `items` when the combatant is first touched.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub items: Option<Vec<TrackedItem>>,
    /// Spells in effect under this combatant's control.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spells: Vec<SpellInEffect>,
}

/// Points, actions and one-round modifiers of the current round.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsRoundUse))]
#[serde(default)]
pub struct RoundUse {
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub action_points_spent: i32,
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub additional_points_spent: i32,
    /// Action Points swapped for Additional Action Points by Ready.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub readied: i32,
    /// The trigger chosen with Ready.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ready_trigger: Option<String>,
    /// Actions performed (not reactions, not complementary actions).
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub actions: u32,
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 100))]
    pub complementary: u32,
    /// Squares moved this round.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 10000))]
    pub squares_moved: i32,
    /// Penalties lasting until the End of Round.
    pub penalties: Vec<RoundPenalty>,
    /// Assisted modifiers from Aid Another, each for the next check of its kind.
    pub assists: Vec<Assist>,
    /// An area attack that missed and waits for its scatter to be resolved.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_area: Option<PendingArea>,
}

impl RoundUse {
    /// Points used this round, AP and AAP together.
    pub fn points_used(&self) -> i32 {
        self.action_points_spent.saturating_add(self.additional_points_spent)
    }
}

/// A penalty until the End of Round, on every check or on Reflex Defence only.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsRoundPenalty))]
pub struct RoundPenalty {
    pub modifier: Modifier,
    /// Only on this kind of check; every check when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub only: Option<CheckKind>,
}

impl RoundPenalty {
    pub fn applies_to(&self, kind: CheckKind) -> bool {
        self.only.is_none_or(|only| only == kind)
    }

    pub fn is(&self, code: ModifierCode) -> bool {
        self.modifier.code == code
    }
}

/// An Assisted modifier for the next check of one kind (arrgs.txt, "Aid Another Manoeuvre").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAssist))]
pub struct Assist {
    pub kind: CheckKind,
    #[cfg_attr(feature = "schema", schema(minimum = -50, maximum = 50))]
    pub value: i32,
    pub from: String,
}

/// A number a client sent in an inline combat state, within the bounds the schema publishes.
fn within(field: String, value: i64, min: i64, max: i64) -> Result<(), crate::rulesets::RuleError> {
    if (min..=max).contains(&value) {
        return Ok(());
    }
    Err(crate::rulesets::RuleError::invalid(field, format!("{value} is out of range (expected {min}..={max})")))
}

impl CombatState {
    /// Checks a state sent inline (the stateless twins) against the published bounds, so rule
    /// arithmetic on it stays in range.
    pub fn check_bounds(&self, field: &str) -> Result<(), crate::rulesets::RuleError> {
        let at = |name: &str| format!("{field}.{name}");
        within(at("vitality_lost"), self.vitality_lost.into(), VITALITY_LOST.0.into(), VITALITY_LOST.1.into())?;
        within(at("dying"), self.dying.into(), 0, 100)?;
        within(at("staggered"), self.staggered.into(), 0, 100)?;
        within(at("reach_shift"), self.reach_shift.into(), -20, 20)?;
        within(at("last_increment"), self.last_increment.into(), 0, 10_000)?;
        within(at("end_of_round_done"), self.end_of_round_done.into(), 0, 1_000_000)?;
        let round = &self.round;
        within(at("round.action_points_spent"), round.action_points_spent.into(), 0, 100)?;
        within(at("round.additional_points_spent"), round.additional_points_spent.into(), 0, 100)?;
        within(at("round.readied"), round.readied.into(), 0, 100)?;
        within(at("round.actions"), round.actions.into(), 0, 100)?;
        within(at("round.complementary"), round.complementary.into(), 0, 100)?;
        within(at("round.squares_moved"), round.squares_moved.into(), 0, 10_000)?;
        for (index, assist) in round.assists.iter().enumerate() {
            within(at(&format!("round.assists[{index}].value")), assist.value.into(), -50, 50)?;
        }
        for (index, penalty) in round.penalties.iter().enumerate() {
            let value = penalty.modifier.value.into();
            within(at(&format!("round.penalties[{index}].modifier.value")), value, -100, 100)?;
        }
        self.check_item_bounds(field)?;
        self.check_spell_bounds(field)
    }

    fn check_spell_bounds(&self, field: &str) -> Result<(), crate::rulesets::RuleError> {
        let count = i64::try_from(self.spells.len()).unwrap_or(i64::MAX);
        within(format!("{field}.spells"), count, 0, MAX_SPELLS as i64)?;
        for (index, spell) in self.spells.iter().enumerate() {
            within(format!("{field}.spells[{index}].level"), spell.level.into(), 0, 9)?;
            within(format!("{field}.spells[{index}].controlled_round"), spell.controlled_round.into(), 0, 1_000_000)?;
        }
        Ok(())
    }

    fn check_item_bounds(&self, field: &str) -> Result<(), crate::rulesets::RuleError> {
        let items = self.items.as_deref().unwrap_or_default();
        let at = |name: String| format!("{field}.items{name}");
        within(at(String::new()), i64::try_from(items.len()).unwrap_or(i64::MAX), 0, MAX_ITEMS as i64)?;
        for (index, item) in items.iter().enumerate() {
            if item.name.trim().is_empty() || item.name.chars().count() > 100 {
                let message = "must be 1 to 100 characters and not blank";
                return Err(crate::rulesets::RuleError::invalid(at(format!("[{index}].name")), message));
            }
            within(at(format!("[{index}].damage_taken")), item.damage_taken.into(), 0, 20_000)?;
            if let Some(vitality) = item.vitality {
                within(at(format!("[{index}].vitality")), vitality.into(), 1, 10_000)?;
            }
        }
        Ok(())
    }
}

/// An area attack waiting for its scatter to be resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsPendingArea))]
pub struct PendingArea {
    pub weapon: Weapon,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Ability>,
    #[serde(default)]
    pub bonuses: Bonuses,
    /// The Multiple Actions penalty the attack was made with.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub penalty: Option<Modifier>,
    /// The Range modifier for the distance to the target square.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range: Option<Modifier>,
}

/// Most spells one combatant may control at once.
pub const MAX_SPELLS: usize = 20;

/// A spell in effect, kept on its controller.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsSpellInEffect))]
pub struct SpellInEffect {
    pub name: String,
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 9))]
    pub level: i32,
    pub duration: SpellDuration,
    /// The last round it was cast or controlled.
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 1000000))]
    pub controlled_round: u32,
}

/// Where an item is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemPlace))]
#[serde(rename_all = "snake_case")]
pub enum Place {
    Held,
    /// Carried or worn, not in the hands.
    Carried,
    /// On the floor.
    Dropped,
}

impl Place {
    pub fn label(self) -> &'static str {
        match self {
            Self::Held => "held",
            Self::Carried => "carried",
            Self::Dropped => "on the floor",
        }
    }
}

/// Item condition after Sunder.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsItemState))]
#[serde(rename_all = "snake_case")]
pub enum ItemState {
    #[default]
    Intact,
    Broken,
    Destroyed,
}

impl ItemState {
    /// Broken at 50% damage, destroyed at 100% (arrgs.txt, "Sunder Manoeuvre").
    pub fn of(damage_taken: i32, vitality: i32) -> Self {
        if damage_taken >= vitality {
            Self::Destroyed
        } else if damage_taken.saturating_mul(2) >= vitality {
            Self::Broken
        } else {
            Self::Intact
        }
    }
}

/// An item the engine tracks.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsTrackedItem))]
pub struct TrackedItem {
    pub name: String,
    pub place: Place,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "schema", schema(minimum = 1, maximum = 10000))]
    pub vitality: Option<i32>,
    #[serde(default)]
    #[cfg_attr(feature = "schema", schema(minimum = 0, maximum = 20000))]
    pub damage_taken: i32,
    #[serde(default)]
    pub condition: ItemState,
}

/// Most items one combatant may list.
pub const MAX_ITEMS: usize = 20;

#[cfg(test)]
mod bounds_tests {
    use super::*;

    #[test]
    fn an_inline_state_outside_its_published_bounds_is_refused_naming_the_field() {
        assert!(CombatState::default().check_bounds("attacker.state").is_ok());
        let dying = CombatState { dying: u32::MAX, ..CombatState::default() };
        let error = dying.check_bounds("attacker.state").unwrap_err();
        assert!(matches!(error, crate::rulesets::RuleError::Invalid { field, .. } if field == "attacker.state.dying"));
        let mut points = CombatState::default();
        points.round.action_points_spent = i32::MIN;
        let error = points.check_bounds("target.state").unwrap_err();
        let expected = "target.state.round.action_points_spent";
        assert!(matches!(error, crate::rulesets::RuleError::Invalid { field, .. } if field == expected));
    }
}

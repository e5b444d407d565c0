//! What the engine tracks per Spycraft 2.0 combatant during a fight (not sent by clients).

use super::fluid::{Condition, FluidCode, FluidEntry, MAX_ENTRIES_PER_ROUND};
use super::Spycraft2;
use crate::encounter::{CombatantId, Encounter, EncounterError};
use crate::rulesets::{Registered, RulesetState};
use serde::{Deserialize, Serialize};

/// A combatant's place in the surprise round (spycraft2.txt, "Step 4: Surprise Round").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2SurpriseRole))]
#[serde(rename_all = "snake_case")]
pub enum SurpriseRole {
    /// Surprise has not been decided.
    #[default]
    None,
    /// Surprise was decided and there is no surprise round (all aware, a tie, a failed ambush).
    NoSurpriseRound,
    /// Takes 1 free, 1 half or 1 full action in the surprise round (round 1).
    Acts,
    /// May not act in the surprise round.
    Waits,
}

/// A half action granted by another source (an ability such as Surge of Speed).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2ExtraHalf))]
pub struct ExtraHalf {
    pub source: String,
    /// The source forbids using it for an attack (and so any full action it is part of).
    pub forbids_attack: bool,
}

/// What the character has spent this round (spycraft2.txt, "Step 5: Combat Round").
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2Budget))]
#[serde(default)]
pub struct Budget {
    /// Of the round's 2 half actions (a full action uses both).
    pub halves_used: u32,
    /// Half actions from other sources, not yet used.
    pub extra_halves: Vec<ExtraHalf>,
    /// Actions taken on the character's own Count (free ones included).
    pub actions: u32,
    pub free_actions: u32,
    /// Took a move action this round (no bonus 5-ft. step afterwards).
    pub moved: bool,
    /// Took the bonus 5-ft. step (no other move action afterwards).
    pub bonus_step: bool,
    /// The kind of the first action, for the surprise round's messages.
    pub first: Option<super::economy::Cost>,
}

/// Engine-managed combat state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = Spycraft2CombatState))]
#[serde(default)]
pub struct CombatState {
    /// Everyone starts flat-footed (Step 1); it ends at the character's first action or when
    /// it is successfully attacked, and returns when its Count drops to 0 or less (Step 6).
    pub flat_footed: bool,
    /// Sent reeling by a Count of 0 or less; lasts until the end of the following round.
    pub reeling: bool,
    pub vitality_lost: i32,
    pub wounds_lost: i32,
    /// Conditions the character has now (each also recorded for the round it was declared in).
    pub conditions: Vec<Condition>,
    pub surprise: SurpriseRole,
    /// The Count reached 50+: the first action this round must be a Press.
    pub press_required: bool,
    pub budget: Budget,
    /// The first half of a split full-action skill check, to be finished as this round's first
    /// action (its name).
    pub split_check: Option<String>,
    /// The split check's bonus, DC and modifiers, rolled when its second half resolves it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pending_check: Option<super::skill::PendingCheck>,
    /// This round's fluid-initiative entries, settled at the end of the round.
    pub fluid: Vec<FluidEntry>,
    /// Weapons already charged the non-proficiency row this round.
    pub non_proficient_weapons: Vec<String>,
    /// Reeling was set at the end of this round; it clears at the end of the next one.
    pub reeling_since_round: Option<u32>,
    /// Action Dice spent in this fight, of the stat block's `action_dice`.
    pub action_dice_spent: u32,
}

impl Default for CombatState {
    fn default() -> Self {
        Self {
            flat_footed: true,
            reeling: false,
            vitality_lost: 0,
            wounds_lost: 0,
            conditions: Vec::new(),
            surprise: SurpriseRole::None,
            press_required: false,
            budget: Budget::default(),
            split_check: None,
            pending_check: None,
            fluid: Vec::new(),
            non_proficient_weapons: Vec::new(),
            reeling_since_round: None,
            action_dice_spent: 0,
        }
    }
}

impl CombatState {
    /// Records a row of the table for this round. Condition rows count once per round; the
    /// non-proficiency row once per weapon per round (the table's * and † notes). Returns
    /// whether the entry was recorded.
    pub fn record(&mut self, entry: FluidEntry, weapon: Option<&str>) -> Result<bool, EncounterError> {
        if entry.code.once_per_round() && self.fluid.iter().any(|e| e.code == entry.code) {
            return Ok(false);
        }
        if entry.code == FluidCode::NonProficientWeapon {
            let weapon = weapon.unwrap_or_default().to_lowercase();
            if self.non_proficient_weapons.contains(&weapon) {
                return Ok(false);
            }
            self.non_proficient_weapons.push(weapon);
        }
        if self.fluid.len() >= MAX_ENTRIES_PER_ROUND {
            let message = format!("at most {MAX_ENTRIES_PER_ROUND} fluid-initiative events per round");
            return Err(EncounterError::invalid("action", message));
        }
        self.fluid.push(entry);
        Ok(true)
    }

    /// Records each condition the character still has (once per round) before settling.
    pub fn record_conditions(&mut self) -> Result<(), EncounterError> {
        for condition in self.conditions.clone() {
            self.record(condition.entry(), None)?;
        }
        Ok(())
    }

    /// Starts a condition (recording its row this round) or ends it (its row, if recorded this
    /// round, still applies).
    pub fn set_condition(&mut self, condition: Condition, active: bool) -> Result<bool, EncounterError> {
        self.conditions.retain(|c| *c != condition);
        if active {
            self.conditions.push(condition);
            return self.record(condition.entry(), None);
        }
        Ok(false)
    }

    /// Clears what lasts one round, ready for the next.
    pub fn new_round(&mut self) {
        self.budget = Budget::default();
        self.fluid.clear();
        self.non_proficient_weapons.clear();
    }
}

/// Writes a combatant's combat state back.
pub(crate) fn store(encounter: &mut Encounter, id: &CombatantId, state: CombatState) {
    if let Some(combatant) = encounter.combatant_mut(id) {
        combatant.state = RulesetState::Spycraft2(state);
    }
}

/// The combat state of a stored combatant, if it has one.
pub(crate) fn state_of<'a>(encounter: &'a Encounter, id: &CombatantId) -> Option<&'a CombatState> {
    encounter.combatant(id).and_then(|c| <Spycraft2 as Registered>::state(&c.state))
}

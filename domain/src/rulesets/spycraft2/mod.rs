//! Spycraft 2.0 combat (shared/rules/spycraft2.txt): the seven steps of combat, fluid
//! initiative, and the attack, damage and saving-throw model its table reacts to.
//!
//! Layout: `stats.rs` (stat block), `state.rs` (what the engine tracks per combatant),
//! `distance.rs` (Step 2), `surprise.rs` (Step 4), `economy.rs` (Steps 4–5, actions per round),
//! `fluid.rs` (Step 6), `attack.rs` / `damage.rs` / `saves.rs` (the events of Step 6's table),
//! `skill.rs` (skill checks rolled when they resolve, Step 5),
//! `round.rs` (the end-of-round hook: Steps 6–7), `commands/` (one operation per file),
//! `outcome.rs` (the report union) and `plugin.rs` (the `Ruleset` and `Command` impls).

pub mod action_dice;
pub mod attack;
pub mod commands;
pub mod damage;
pub mod distance;
pub mod economy;
pub mod fluid;
pub mod modifier;
pub mod outcome;
mod plugin;
pub mod round;
pub mod saves;
pub mod skill;
pub mod state;
pub mod stats;
pub mod status;
pub mod surprise;

pub use outcome::Report;
pub use plugin::{
    Actions, Attacks, Damage, Distance, Enter, GroupInitiative, Saves, Spycraft2, Surprise, TIE_POLICY, roll_initiative,
    tie_keys,
};
pub use state::CombatState;
pub use stats::Stats;

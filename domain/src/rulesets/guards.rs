//! Checks every ruleset operation makes before touching an encounter.

use super::RulesetId;
use crate::encounter::{Encounter, EncounterError, EncounterStatus};

/// Refuses a command meant for `ruleset` on an encounter of another ruleset.
pub(crate) fn ensure_ruleset(encounter: &Encounter, ruleset: RulesetId) -> Result<(), EncounterError> {
    if encounter.ruleset != ruleset {
        return Err(EncounterError::Conflict(format!(
            "this is a {} encounter; these commands follow {ruleset} rules",
            encounter.ruleset
        )));
    }
    Ok(())
}

/// Refuses a command unless the encounter follows `ruleset` and its rounds are running.
pub(crate) fn ensure_active(encounter: &Encounter, ruleset: RulesetId) -> Result<(), EncounterError> {
    ensure_ruleset(encounter, ruleset)?;
    match encounter.status {
        EncounterStatus::Active => Ok(()),
        status => Err(EncounterError::Conflict(format!(
            "the encounter is {}: start it before attacking or acting",
            status.as_str()
        ))),
    }
}

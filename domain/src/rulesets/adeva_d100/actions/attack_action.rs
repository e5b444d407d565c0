//! The actions the attack operation resolves (adeva-d100.txt, "Action List": the rows that make
//! one attack test against a target). A request offers only what it accepts
//! (docs/api-conventions.md): the other declared actions are `…/adeva-d100/actions`, so the attack
//! request's `action` publishes, and reads, these eight alone.

use super::attack_actions::{AttackOfOpportunity, CalledShot, CounterAttack, MultiHitAttack, SingleAttack};
use super::charge::Charge;
use super::declared::DeclaredAction;
use serde::{Deserialize, Deserializer};

/// An attack action, e.g. `{"action": "burst", "weapon": {...}, "declared_hits": 3}`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100AttackAction))]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum AttackAction {
    StandardAttack(SingleAttack),
    Burst(MultiHitAttack),
    Flurry(MultiHitAttack),
    CalledShot(CalledShot),
    /// A Charge ending in an attack (`strike.kind: attack`); one ending in a Grapple or a Knock
    /// Down is an `actions` request.
    Charge(Charge),
    HeavyAttack(SingleAttack),
    AttackOfOpportunity(AttackOfOpportunity),
    CounterAttack(CounterAttack),
}

impl From<AttackAction> for DeclaredAction {
    fn from(action: AttackAction) -> Self {
        match action {
            AttackAction::StandardAttack(input) => Self::StandardAttack(input),
            AttackAction::Burst(input) => Self::Burst(input),
            AttackAction::Flurry(input) => Self::Flurry(input),
            AttackAction::CalledShot(input) => Self::CalledShot(input),
            AttackAction::Charge(input) => Self::Charge(input),
            AttackAction::HeavyAttack(input) => Self::HeavyAttack(input),
            AttackAction::AttackOfOpportunity(input) => Self::AttackOfOpportunity(input),
            AttackAction::CounterAttack(input) => Self::CounterAttack(input),
        }
    }
}

/// Reads an attack request's `action`: one of the attack actions, as the declared action it is.
pub fn read<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DeclaredAction, D::Error> {
    AttackAction::deserialize(deserializer).map(DeclaredAction::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct Holder {
        #[serde(deserialize_with = "read")]
        action: DeclaredAction,
    }

    #[test]
    fn an_attack_action_reads_as_its_declared_action_and_others_are_refused() {
        let text = r#"{"action": {"action": "heavy_attack", "weapon": {"name": "Maul", "class": "melee"}}}"#;
        let holder: Result<Holder, _> = serde_json::from_str(text);
        assert!(matches!(holder.map(|h| h.action), Ok(DeclaredAction::HeavyAttack(_))));
        let feint: Result<Holder, _> = serde_json::from_str(r#"{"action": {"action": "feint"}}"#);
        let error = feint.expect_err("feint is an actions request").to_string();
        assert!(error.contains("unknown variant `feint`"), "{error}");
    }
}

//! Adeva d100 as a plug-in: the ruleset and its operations (adeva-d100.txt, "Combat Rules").

use super::operations::{self as ops, ActionReport, AttackReport, DamageReport};
use super::options::AdevaOptions;
use super::wounds::WoundsLoss;
use super::{Stats, dynamic::CombatState};
use crate::dice::Dice;
use crate::encounter::{Encounter, EncounterError, Event};
use crate::rulesets::{
    Command, CommandVisitor, Delivery, InitiativeContext, InitiativeRoll, InlineDelivery, Receipt, Refusal,
    RuleError, Ruleset, RulesetId, RulesetInfo, Stateless, Summary, TiePolicy,
};
use std::borrow::Cow;
use serde::{Deserialize, Serialize};

/// The Adeva d100 ruleset.
pub struct AdevaD100;

impl Ruleset for AdevaD100 {
    const ID: RulesetId = RulesetId::AdevaD100;
    const SCHEMA_PREFIX: &'static str = "AdevaD100";
    const INFO: RulesetInfo = RulesetInfo {
        name: "Adeva d100 (roll-under, degrees of success)",
        source: "Adeva d100 rules, \"Combat Rules\" chapter (Creative Commons Attribution-ShareAlike 3.0)",
        initiative: "1d10 + Agility Bonus (tens digit of Ag)",
        tie_break: "higher Agility, then a 1d10 roll-off (re-rolling ties)",
    };
    const TIE_POLICY: TiePolicy = super::TIE_POLICY;
    const STATS_EXAMPLE: &'static str = r#"{"ws": 35, "bs": 40, "s": 30, "t": 35, "ag": 34, "int": 30,
        "per": 32, "wp": 30, "fel": 28, "wounds": 12, "armour": 4}"#;
    type Stats = Stats;
    type State = CombatState;
    type Options = AdevaOptions;
    type Report = Report;

    fn initiative(
        stats: &Stats,
        _context: InitiativeContext,
        dice: &mut Dice,
        purpose: &str,
    ) -> Result<InitiativeRoll, RuleError> {
        super::roll_initiative(stats, dice, purpose)
    }

    fn tie_keys(stats: &Stats) -> Vec<i32> {
        super::tie_keys(stats)
    }

    fn validate_options(options: &AdevaOptions) -> Result<(), RuleError> {
        options.validate()
    }

    fn end_of_round(encounter: &mut Encounter, events: &mut Vec<Event>) {
        super::dynamic::end_of_round(encounter, events);
        crate::rulesets::hooks::forfeit_delayed_actions(encounter, events);
    }

    /// "Most characters perish if they are dropped to 0 wounds; characters with Fate Points
    /// instead take Lethal Damage" (adeva-d100.txt, "Attacking", Step Seven): a character whose
    /// wounds are tracked, at 0 and without Fate Points, is dead and receives nothing more; one
    /// with Fate Points at 0 still receives everything (docs/rulesets/adeva-d100.md).
    fn may_receive(stats: &Stats, _state: &CombatState, _receipt: Receipt) -> Result<(), Refusal> {
        if stats.wounds.is_some() && stats.current_wounds() == 0 && stats.fate_points.get() == 0 {
            return Err(Refusal(
                "dead at 0 wounds without Fate Points (adeva-d100.txt, \"Attacking\", Step Seven)".into(),
            ));
        }
        Ok(())
    }

    fn commands<V: CommandVisitor>(visitor: &mut V) {
        visitor.stateless::<Attacks>();
        visitor.stateless::<Damage>();
        visitor.command::<Actions>();
    }
}

/// Every Adeva d100 report, as the attack, damage and action events carry it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100Report))]
pub enum Report {
    Attack(Box<AttackReport>),
    Damage(Box<DamageReport>),
    Action(Box<ActionReport>),
}

impl Summary for Report {
    fn summary(&self) -> String {
        match self {
            Self::Attack(report) => report.summary(),
            Self::Damage(report) => report.summary(),
            Self::Action(report) => report.summary(),
        }
    }
}

impl Summary for AttackReport {
    /// e.g. "Ana makes a standard attack with Gun (d100 45 vs 80, 4 DoS, 1 hit): Bo loses 4 wounds
    /// (10 → 6)".
    fn summary(&self) -> String {
        let test = &self.attack_test.test;
        let verdict = if test.passed {
            format!("{} DoS", test.degrees_of_success())
        } else {
            format!("misses by {} DoF", test.degrees_of_failure())
        };
        let jammed = if self.jammed { ", jammed" } else { "" };
        let hits = match self.hits_scored {
            1 => "1 hit".to_string(),
            n => format!("{n} hits"),
        };
        let head = format!(
            "{} makes a {} with {} (d100 {} vs {}, {verdict}{jammed}, {hits})",
            self.attacker_name, self.action, self.weapon, test.roll, test.target
        );
        let targets: Vec<String> = self.targets.iter().map(target_line).collect();
        if targets.is_empty() { head } else { format!("{head}: {}", targets.join("; ")) }
    }
}

fn target_line(target: &ops::TargetReport) -> String {
    let outcome = &target.outcome;
    let name = &target.target_name;
    if outcome.hits_allocated > 0 && outcome.hits_landed == 0 {
        return format!("{name} evades");
    }
    if outcome.hits_landed == 0 {
        return format!("{name} is not hit");
    }
    format!("{name} {}", wounds_line(&outcome.wounds))
}

fn wounds_line(wounds: &WoundsLoss) -> String {
    let mut line = format!("loses {} wounds ({} → {})", wounds.lost, wounds.before, wounds.after);
    if wounds.dead {
        line.push_str(" and is dead");
    } else if wounds.lethal_damage {
        line.push_str(&format!(", {} past 0: Lethal Damage", wounds.past_zero));
    }
    line
}

impl Summary for DamageReport {
    /// e.g. "Bo takes 9 damage, soak 5: loses 4 wounds (10 → 6)".
    fn summary(&self) -> String {
        let soak = self.soak.as_ref().map(|soak| format!(", soak {}", soak.value)).unwrap_or_default();
        format!("{} takes {} damage{soak}: {}", self.name, self.amount, wounds_line(&self.wounds))
    }
}

impl Summary for ActionReport {
    /// e.g. "Ana: aim" followed by the first note, if any.
    fn summary(&self) -> String {
        match self.notes.first() {
            Some(note) => format!("{}: {} ({note})", self.name, self.action),
            None => format!("{}: {}", self.name, self.action),
        }
    }
}

/// Damage delivered to a stat block sent inline (its wounds are on the stat block).
fn inline_delivery<'a>(name: &'a str, field: &str, stats: &'a Stats) -> InlineDelivery<'a, AdevaD100> {
    let state = Cow::Owned(CombatState::default());
    InlineDelivery { name, field: field.to_owned(), stats, state, receipt: Receipt::Damage }
}

/// An attack action (adeva-d100.txt, "Attacking").
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack action (adeva-d100.txt, \"Attacking\"): the d100 \
        roll-under test with every modifier, degrees of success, hits, evasion, deflectors, damage, soak, \
        critical confirmation and Lethal Damage.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "action": {"action": "standard_attack", "weapon": {"name": "Stub pistol", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10, "bonus": 3}}"#;
    type Request = ops::EncounterAttack;
    type Report = AttackReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.target_id, "target_id", Receipt::Damage)]
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        ops::attack(encounter, request, dice)
    }
}

impl Stateless for Attacks {
    type InlineRequest = ops::InlineAttack;
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"ws": 35, "bs": 45, "s": 30, "t": 35, "ag": 34,
        "int": 30, "per": 32, "wp": 30, "fel": 28}, "target": {"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30,
        "int": 30, "per": 30, "wp": 30, "fel": 30, "wounds": 10},
        "action": {"action": "standard_attack", "weapon": {"name": "Lasgun", "class": "ranged"}},
        "damage": {"count": 1, "sides": 10, "bonus": 3}}"#;

    fn inline_deliveries(request: &ops::InlineAttack) -> Vec<InlineDelivery<'_, AdevaD100>> {
        let name = request.target_name.as_deref().unwrap_or("target");
        vec![inline_delivery(name, "target", &request.target)]
    }

    fn run_inline(request: ops::InlineAttack, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        ops::attack_inline(request, dice)
    }
}

/// Damage outside an attack (adeva-d100.txt, "Damage").
pub struct Damage;

impl Command for Damage {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "damage";
    const DESCRIPTION: &'static str = "Applies damage to a combatant (adeva-d100.txt, \"Damage\"): soak \
        (Toughness Bonus + armour less penetration) when asked, then the wounds lost.";
    const EXAMPLE: &'static str = r#"{"combatant_id": "cmb_target", "amount": 9, "apply_soak": true}"#;
    type Request = ops::EncounterDamage;
    type Report = DamageReport;

    fn deliveries(request: &Self::Request) -> Vec<Delivery<'_>> {
        vec![Delivery::new(&request.combatant_id, "combatant_id", Receipt::Damage)]
    }

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, DamageReport), EncounterError> {
        ops::damage(encounter, request, dice)
    }
}

impl Stateless for Damage {
    type InlineRequest = ops::InlineDamage;
    const INLINE_EXAMPLE: &'static str = r#"{"target": {"ws": 30, "bs": 30, "s": 30, "t": 30, "ag": 30,
        "int": 30, "per": 30, "wp": 30, "fel": 30, "wounds": 10}, "amount": 9, "apply_soak": true}"#;

    fn inline_deliveries(request: &ops::InlineDamage) -> Vec<InlineDelivery<'_, AdevaD100>> {
        let name = request.name.as_deref().unwrap_or("target");
        vec![inline_delivery(name, "target", &request.target)]
    }

    fn run_inline(request: ops::InlineDamage, dice: &mut Dice) -> Result<DamageReport, RuleError> {
        ops::damage_inline(request, dice)
    }
}

/// Every other action of the Action List (adeva-d100.txt, "Actions").
pub struct Actions;

impl Command for Actions {
    type Ruleset = AdevaD100;
    const NAME: &'static str = "actions";
    const DESCRIPTION: &'static str = "Takes an action from the Action List (adeva-d100.txt, \"Actions\"): \
        movement, aim, guard, grapples, overwatch, suppressive fire, falls, decay and the rest.";
    const EXAMPLE: &'static str = r#"{"action": "aim", "actor_id": "cmb_attacker", "action_type": "half"}"#;
    type Request = ops::Action;
    type Report = ActionReport;

    fn run(
        encounter: &mut Encounter,
        request: Self::Request,
        dice: &mut Dice,
    ) -> Result<(Vec<Event>, ActionReport), EncounterError> {
        ops::act(encounter, request, dice)
    }
}

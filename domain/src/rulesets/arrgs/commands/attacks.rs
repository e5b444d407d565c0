//! `attacks`: the Attack, Charge and Repeated Attack manoeuvres with their effects, on stored
//! combatants or inline stat blocks (arrgs.txt, "Attack Manoeuvre" and following).

use super::super::attack_resolution::resolve;
use super::super::attacking::{AttackReport, Cast, Counter, Manoeuvre, Order, Outcome};
use super::super::opportunity::Opportunity;
use super::super::spells::CounterspellAction;
use super::super::economy::Pace;
use super::super::fighter::{Fighter, Scene};
use super::super::state::CombatState;
use super::super::bonuses::{Ability, Bonuses};
use super::super::stats::{Squares, Stats};
use super::super::defence::{DefenceAction, DefenceKind};
use super::super::strike::{Collision, Effect, StrikeResult};
use super::super::table::{ensure_distinct, fighter, scene, store};
use super::super::weapon::Weapon;
use super::super::{Arrgs, Report};
use super::event_report;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::ensure_active;
use crate::rulesets::{Command, Delivery, InlineDelivery, Receipt, RuleError, Stateless, Summary};
use crate::score::Score;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;

/// Most Opportunity attacks one manoeuvre may draw.
pub const MAX_OPPORTUNITIES: usize = 10;

/// An attack manoeuvre on stored combatants.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAttackRequest))]
#[serde(deny_unknown_fields)]
pub struct AttackRequest {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub attacker_id: CombatantId,
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub target_id: CombatantId,
    /// Attack (default), Charge or Repeated Attack; `"attack"` is `{"type": "attack"}`.
    #[serde(default, deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Manoeuvre>))]
    pub manoeuvre: Manoeuvre,
    /// Damage (default), Disarm, Sunder, Trip or Reposition; `"trip"` is `{"type": "trip"}`.
    #[serde(default, deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Effect>))]
    pub effect: Effect,
    pub weapon: Weapon,
    /// Standard (AP, default), Swift (AAP) or Immediate (AAP, after Ready).
    #[serde(default)]
    pub pace: Pace,
    /// The target's Reaction Defence used as the DC (default Reflex).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<DefenceKind>,
    /// The target offers no defence (DC 0; a natural 1 still fails).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_defence: bool,
    /// Squares to the target (Range Increments; Threat Range for melee).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<Squares>,
    /// The ability used instead of the usual one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Ability>,
    /// The attacker's situational modifiers.
    #[serde(default)]
    pub bonuses: Bonuses,
    /// The target's situational modifiers to its Defence.
    #[serde(default)]
    pub target_bonuses: Bonuses,
    /// The target answers a successful attack with the Defence manoeuvre (2 AAP).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence_action: Option<DefenceAction>,
    /// Vitality the attack drains beyond the usual (conditions, special actions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_vitality: Option<Score<0, 50>>,
    /// Opportunity attacks the manoeuvre provokes, made before it resolves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub opportunities: Vec<Opportunity>,
    /// An Immediate Counterspell against this spell attack, made before its check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub counterspell: Option<CounterspellAction>,
}

/// A combatant sent inline.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsInlineCombatant))]
#[serde(deny_unknown_fields)]
pub struct InlineCombatant {
    /// 1 to 100 characters (default "attacker" / "target").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    pub stats: Stats,
    /// Combat state to start from (Vitality lost, conditions, points used); default none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub state: Option<CombatState>,
}

impl InlineCombatant {
    /// What `field` delivers to this combatant, as `rulesets::receiving` asks about it.
    pub fn delivery(&self, field: &'static str, receipt: Receipt) -> InlineDelivery<'_, Arrgs> {
        let state = self.state.as_ref().map_or_else(|| Cow::Owned(CombatState::default()), Cow::Borrowed);
        let name = self.name.as_deref().unwrap_or(field);
        InlineDelivery { name, field: field.to_owned(), stats: &self.stats, state, receipt }
    }

    pub fn fighter(self, default_name: &str, field: &str) -> Result<Fighter, RuleError> {
        let name = self.name.unwrap_or_else(|| default_name.to_owned());
        if name.trim().is_empty() || name.chars().count() > 100 {
            return Err(RuleError::invalid(format!("{field}.name"), "must be 1 to 100 characters and not blank"));
        }
        let state = self.state.unwrap_or_default();
        state.check_bounds(&format!("{field}.state"))?;
        let mut fighter = Fighter::new(CombatantId(default_name.to_owned()), name, self.stats, field);
        fighter.state = state;
        super::super::items::adopt_sheet(&mut fighter);
        Ok(fighter)
    }
}

/// An attack manoeuvre between inline stat blocks: nothing is stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsInlineAttackRequest))]
#[serde(deny_unknown_fields)]
pub struct InlineAttackRequest {
    pub attacker: InlineCombatant,
    pub target: InlineCombatant,
    /// Attack (default), Charge or Repeated Attack; `"attack"` is `{"type": "attack"}`.
    #[serde(default, deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Manoeuvre>))]
    pub manoeuvre: Manoeuvre,
    /// Damage (default), Disarm, Sunder, Trip or Reposition; `"trip"` is `{"type": "trip"}`.
    #[serde(default, deserialize_with = "crate::bare_or_tagged::deserialize")]
    #[cfg_attr(feature = "schema", schema(schema_with = crate::bare_or_tagged::schema::<Effect>))]
    pub effect: Effect,
    pub weapon: Weapon,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence: Option<DefenceKind>,
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub no_defence: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub distance: Option<Squares>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ability: Option<Ability>,
    #[serde(default)]
    pub bonuses: Bonuses,
    #[serde(default)]
    pub target_bonuses: Bonuses,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub defence_action: Option<DefenceAction>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub extra_vitality: Option<Score<0, 50>>,
}

impl Summary for AttackReport {
    fn summary(&self) -> String {
        let head = format!("{} → {}, {} with {}", self.attacker, self.target, label(self), self.weapon);
        let body = match &self.outcome {
            Outcome::Wasted { reason } => format!("wasted: {reason}"),
            Outcome::Resolved { strikes } => strikes
                .iter()
                .map(|strike| {
                    let check = strike.roll.checks.first().map_or(String::new(), |c| c.check.describe());
                    let crit = if strike.roll.critical_hit { " critical" } else { "" };
                    let what = match &strike.result {
                        StrikeResult::Miss => "fails".to_owned(),
                        StrikeResult::Foiled => "is foiled by the Defence".to_owned(),
                        StrikeResult::Damage { steps, dying_inflicted } => {
                            let dying = if *dying_inflicted { ", Dying" } else { "" };
                            format!("hits{crit} for {} damage{dying}", steps.damage)
                        }
                        StrikeResult::Disarm { squares, item } => {
                            format!("disarms, the {} flies {squares} squares", item.as_deref().unwrap_or("item"))
                        }
                        StrikeResult::Sunder { item, damage, state, .. } => format!("deals {damage} to the {item} ({state:?})"),
                        StrikeResult::Trip { .. } => "trips: Prone".to_owned(),
                        StrikeResult::Reposition { squares, .. } => format!("moves the target {squares} squares"),
                    };
                    format!("check {check} vs DC {}: {what}", strike.roll.dc)
                })
                .collect::<Vec<_>>()
                .join("; "),
        };
        let after: Vec<String> =
            self.standings.iter().take(2).map(|s| format!("{}: {}", s.name, s.describe())).collect();
        format!("{head}: {body} ({})", after.join("; "))
    }
}

fn label(report: &AttackReport) -> String {
    match (&report.manoeuvre, &report.effect) {
        (Manoeuvre::RepeatedAttack { attacks }, _) => format!("Repeated Attack ({} attacks)", attacks.get()),
        (manoeuvre, Effect::Damage) => manoeuvre.name().to_owned(),
        (_, effect) => effect.name().to_owned(),
    }
}

/// `POST …/arrgs/attacks`.
pub struct Attacks;

impl Command for Attacks {
    type Ruleset = Arrgs;
    const NAME: &'static str = "attacks";
    const DESCRIPTION: &'static str = "Resolves an attack manoeuvre (arrgs.txt, \"Attack Manoeuvre\", \"Charge \
        Manoeuvre\", \"Repeated Attack Manoeuvre\", \"Disarm\", \"Sunder\", \"Trip\", \"Reposition\"): the points and \
        Vitality it costs, Opportunity attacks it provokes, d20 + skill + ability + every modifier family against the \
        target's Reaction Defence, the Success Value with criticals, the target's Defence manoeuvre, damage through \
        resistance and vulnerability, and the conditions that follow.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "target_id": "cmb_target",
        "weapon": {"name": "Longsword", "kind": "melee", "damage": 6, "types": ["slashing"], "critical_range": 19}}"#;
    type Request = AttackRequest;
    type Report = AttackReport;

    /// The target receives the attack; the attacker, each opportunist and a counterspeller act.
    fn deliveries(request: &AttackRequest) -> Vec<Delivery<'_>> {
        let mut deliveries = vec![
            Delivery::new(&request.attacker_id, "attacker_id", Receipt::Action),
            Delivery::new(&request.target_id, "target_id", Receipt::Damage),
        ];
        deliveries.extend(opportunists(&request.opportunities));
        if let Some(counter) = &request.counterspell {
            deliveries.push(Delivery::new(&counter.combatant_id, "counterspell.combatant_id", Receipt::Action));
        }
        deliveries
    }

    fn run(encounter: &mut Encounter, request: AttackRequest, dice: &mut Dice) -> Result<(Vec<Event>, AttackReport), EncounterError> {
        ensure_active::<Arrgs>(encounter)?;
        ensure_distinct(&request.attacker_id, &request.target_id, "target_id")?;
        if request.opportunities.len() > MAX_OPPORTUNITIES {
            return Err(EncounterError::invalid("opportunities", format!("at most {MAX_OPPORTUNITIES}")));
        }
        let mut cast = Cast {
            attacker: fighter(encounter, &request.attacker_id, "attacker_id")?,
            target: fighter(encounter, &request.target_id, "target_id")?,
            opportunists: Vec::new(),
            bystander: None,
            counter: None,
        };
        for (index, opportunity) in request.opportunities.iter().enumerate() {
            let field = format!("opportunities[{index}].combatant_id");
            ensure_distinct(&opportunity.combatant_id, &request.attacker_id, &field)?;
            let same = |o: &Opportunity| o.combatant_id == opportunity.combatant_id && o.before_attack() == opportunity.before_attack();
            if request.opportunities[..index].iter().any(same) {
                return Err(EncounterError::invalid(field, "listed twice for the same attack"));
            }
            cast.opportunists.push((fighter(encounter, &opportunity.combatant_id, &field)?, opportunity.clone()));
        }
        if let Some(id) = request.effect.bystander() {
            ensure_distinct(id, &request.target_id, "effect.collision.combatant_id")?;
            cast.bystander = Some(fighter(encounter, id, "effect.collision.combatant_id")?);
        }
        if let Some(action) = &request.counterspell {
            cast.counter = Some(counter(encounter, &request, action)?);
        }
        let order = Order {
            manoeuvre: request.manoeuvre,
            effect: request.effect,
            weapon: Some(request.weapon),
            pace: request.pace,
            defence: request.defence,
            no_defence: request.no_defence,
            distance: request.distance,
            ability: request.ability,
            bonuses: request.bonuses,
            target_bonuses: request.target_bonuses,
            defence_action: request.defence_action,
            extra_vitality: request.extra_vitality,
        };
        let report = resolve(&mut cast, &order, &scene(encounter), dice)?;
        // Opportunists first: a combatant also in another role carries their latest state.
        for (opportunist, _) in &cast.opportunists {
            store(encounter, opportunist)?;
        }
        store(encounter, &cast.attacker)?;
        store(encounter, &cast.target)?;
        if let Some(bystander) = &cast.bystander {
            store(encounter, bystander)?;
        }
        if let Some(by) = cast.counter.as_ref().and_then(|c| c.by.as_ref()) {
            store(encounter, by)?;
        }
        let event = Event::AttackResolved {
            attacker_id: request.attacker_id,
            target_id: request.target_id,
            report: event_report(Report::Attack(Box::new(report.clone()))),
            dice: dice.rolls().to_vec(),
        };
        Ok((vec![event], report))
    }
}

/// Each opportunist takes an action (an Opportunity attack), as `rulesets::receiving` asks about it.
pub(super) fn opportunists(opportunities: &[Opportunity]) -> impl Iterator<Item = Delivery<'_>> {
    opportunities.iter().enumerate().map(|(index, opportunity)| {
        Delivery::new(&opportunity.combatant_id, format!("opportunities[{index}].combatant_id"), Receipt::Action)
    })
}

/// The counterspeller: the target itself, or a combatant not otherwise in the attack.
fn counter(encounter: &Encounter, request: &AttackRequest, action: &CounterspellAction) -> Result<Counter, EncounterError> {
    let field = "counterspell.combatant_id";
    ensure_distinct(&action.combatant_id, &request.attacker_id, field)?;
    let busy = request.opportunities.iter().any(|o| o.combatant_id == action.combatant_id)
        || request.effect.bystander() == Some(&action.combatant_id);
    if busy {
        return Err(EncounterError::invalid(field, "already takes part in this attack another way"));
    }
    let by = (action.combatant_id != request.target_id).then(|| fighter(encounter, &action.combatant_id, field)).transpose()?;
    Ok(Counter { by, action: action.clone() })
}

impl Stateless for Attacks {
    type InlineRequest = InlineAttackRequest;
    const INLINE_EXAMPLE: &'static str = r#"{"attacker": {"name": "Brakka", "stats": {"agility": 12, "vitality": 20,
        "abilities": {"body": 2}, "checks": {"melee": {"skill": 4}}}},
        "target": {"name": "Goblin", "stats": {"agility": 14, "vitality": 12, "checks": {"reflex": {"skill": 1}}}},
        "weapon": {"name": "Axe", "damage": 7, "types": ["slashing"]}}"#;

    fn inline_deliveries(request: &InlineAttackRequest) -> Vec<InlineDelivery<'_, Arrgs>> {
        vec![request.attacker.delivery("attacker", Receipt::Action), request.target.delivery("target", Receipt::Damage)]
    }

    fn run_inline(request: InlineAttackRequest, dice: &mut Dice) -> Result<AttackReport, RuleError> {
        if matches!(request.effect, Effect::Reposition { collision: Some(Collision::Combatant { .. }), .. }) {
            return Err(RuleError::invalid("effect.collision", "inline attacks can collide only with an object"));
        }
        let attacker = request.attacker.fighter("attacker", "attacker")?;
        let target = request.target.fighter("target", "target")?;
        let scene = Scene { round: 1, surprise_round: false, current: Some(attacker.id.clone()), options: Default::default() };
        let mut cast = Cast { attacker, target, opportunists: Vec::new(), bystander: None, counter: None };
        let order = Order {
            manoeuvre: request.manoeuvre,
            effect: request.effect,
            weapon: Some(request.weapon),
            pace: Pace::Standard,
            defence: request.defence,
            no_defence: request.no_defence,
            distance: request.distance,
            ability: request.ability,
            bonuses: request.bonuses,
            target_bonuses: request.target_bonuses,
            defence_action: request.defence_action,
            extra_vitality: request.extra_vitality,
        };
        resolve(&mut cast, &order, &scene, dice)
    }
}

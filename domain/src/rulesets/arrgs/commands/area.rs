//! `area-attacks`: an Attack manoeuvre with an area (arrgs.txt, "Area Attacks").

use super::super::check::take_assist;
use super::super::area::{AreaHit, SQUARE_DC, Scatter, area_check, area_range, hit_occupants, scatter};
use super::super::state::PendingArea;
use super::super::attack::is_natural_one;
use super::super::check::Check;
use super::super::economy::{Pace, Spend, spend};
use super::super::fighter::{Fighter, Standing};
use super::super::bonuses::{Ability, Bonuses};
use super::super::stats::Squares;
use super::super::defence::DefenceKind;
use super::super::table::{ensure_distinct, fighter, scene, store};
use super::super::vitality::{Exertion, exert};
use super::super::weapon::Weapon;
use super::super::{Arrgs, Report};
use super::event_report;
use crate::dice::Dice;
use crate::encounter::{CombatantId, Encounter, EncounterError, Event};
use crate::rulesets::plugin::ensure_active;
use crate::rulesets::{Command, Delivery, Receipt, Summary};
use serde::{Deserialize, Serialize};

/// Most occupants one area may hold in a request.
pub const MAX_OCCUPANTS: usize = 50;

/// A combatant in the area and the Defence it uses.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsOccupant))]
#[serde(deny_unknown_fields)]
pub struct Occupant {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub combatant_id: CombatantId,
    #[serde(default)]
    pub defence: DefenceKind,
}

/// The attack, or the resolution of its scatter.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAreaStage))]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum Stage {
    /// The Attack manoeuvre (2 AP, or 2 AAP as a Swift action) against the target square.
    Attack {
        weapon: Weapon,
        /// Squares to the target square.
        distance: Squares,
        #[serde(default)]
        pace: Pace,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        ability: Option<Ability>,
        #[serde(default)]
        bonuses: Bonuses,
        occupants: Vec<Occupant>,
    },
    /// The scattered attack's second check against the occupants where it landed.
    Scatter { occupants: Vec<Occupant> },
}

/// An area attack by a stored combatant.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAreaRequest))]
#[serde(deny_unknown_fields)]
pub struct AreaRequest {
    #[cfg_attr(feature = "schema", schema(value_type = String))]
    pub attacker_id: CombatantId,
    pub stage: Stage,
}

/// An area attack as resolved.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = ArrgsAreaReport))]
pub struct AreaReport {
    pub attacker: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spend: Option<Spend>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub exertion: Option<Exertion>,
    pub check: Check,
    /// Against the target square (DC 10); absent for the scattered check.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub square_hit: Option<bool>,
    /// A spell under its base difficulty (10 + level): no effect at all.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub spell_failed: Option<i32>,
    /// Where a miss lands: resolve it with `stage: scatter`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scatter: Option<Scatter>,
    pub hits: Vec<AreaHit>,
    /// The attacker, then every occupant, afterwards (docs/api-conventions.md: always a list).
    pub standings: Vec<Standing>,
}

impl Summary for AreaReport {
    fn summary(&self) -> String {
        let what = match (&self.scatter, self.spell_failed) {
            (_, Some(difficulty)) => format!("the spell fails (under {difficulty})"),
            (Some(scatter), _) => format!("misses the square and scatters {} squares {}", scatter.squares, scatter.direction),
            _ => {
                let hits: Vec<String> = self
                    .hits
                    .iter()
                    .map(|hit| match &hit.damage {
                        Some(steps) => format!("{} takes {}", hit.target, steps.damage),
                        None => format!("{} is untouched", hit.target),
                    })
                    .collect();
                if hits.is_empty() { "hits an empty area".to_owned() } else { hits.join(", ") }
            }
        };
        format!("{}'s area attack (check {}): {what}", self.attacker, self.check.result)
    }
}

/// `POST …/arrgs/area-attacks`.
pub struct AreaAttacks;

impl Command for AreaAttacks {
    type Ruleset = Arrgs;
    const NAME: &'static str = "area-attacks";
    const DESCRIPTION: &'static str = "Resolves an area attack (arrgs.txt, \"Area Attacks\"): the Attack check against 10 \
        for the target square, then against each occupant's Defence; a miss scatters 1d8 compass points and 1d4 squares \
        per Range Increment, resolved by a second request (`stage: scatter`) naming the occupants where it landed.";
    const EXAMPLE: &'static str = r#"{"attacker_id": "cmb_attacker", "stage": {"type": "attack", "distance": 8,
        "weapon": {"name": "Fireball", "kind": "spell", "damage": 6, "types": ["fire"], "spell_level": 3, "range_increment": 5},
        "occupants": [{"combatant_id": "cmb_target"}]}}"#;
    type Request = AreaRequest;
    type Report = AreaReport;

    /// The attacker acts; each occupant receives the attack.
    fn deliveries(request: &AreaRequest) -> Vec<Delivery<'_>> {
        let (Stage::Attack { occupants, .. } | Stage::Scatter { occupants }) = &request.stage;
        let occupants = occupants.iter().enumerate().map(|(index, occupant)| {
            Delivery::new(&occupant.combatant_id, format!("stage.occupants[{index}].combatant_id"), Receipt::Damage)
        });
        std::iter::once(Delivery::new(&request.attacker_id, "attacker_id", Receipt::Action)).chain(occupants).collect()
    }

    fn run(encounter: &mut Encounter, request: AreaRequest, dice: &mut Dice) -> Result<(Vec<Event>, AreaReport), EncounterError> {
        ensure_active::<Arrgs>(encounter)?;
        let scene = scene(encounter);
        let mut attacker = fighter(encounter, &request.attacker_id, "attacker_id")?;
        let occupants_list = match &request.stage {
            Stage::Attack { occupants, .. } | Stage::Scatter { occupants } => occupants,
        };
        let mut occupants = occupants_of(encounter, &request.attacker_id, occupants_list)?;
        let mut report = match request.stage {
            Stage::Attack { weapon, distance, pace, ability, bonuses, .. } => {
                weapon.validate("stage.weapon")?;
                if weapon.range_increment.is_none() {
                    let message = "an area attack at a distance needs the weapon's Range Increment (range modifier, scatter)";
                    return Err(EncounterError::invalid("stage.weapon.range_increment", message));
                }
                let range = area_range(&weapon, distance.get()).map_err(|message| EncounterError::invalid("stage.distance", message))?;
                let spent = spend(&mut attacker, &scene, pace, 2, "stage.pace")?;
                let exertion = exert(&mut attacker, weapon.vitality_cost(), scene.options.disabled_dc(), spent.penalty.clone(), dice)?;
                let pending = PendingArea { weapon, ability, bonuses, penalty: spent.penalty.clone(), range };
                let assist = take_assist(&mut attacker, pending.weapon.kind.check());
                let check = area_check(&attacker, &pending, assist, dice)?;
                let spell_failed = pending.weapon.spell_difficulty().filter(|difficulty| check.result < *difficulty);
                let hit = check.result >= SQUARE_DC && !is_natural_one(&check) && spell_failed.is_none();
                let (scattered, hits) = if spell_failed.is_some() {
                    (None, Vec::new())
                } else if hit {
                    (None, hit_occupants(&attacker, &check, &pending.weapon, &mut occupants, dice)?)
                } else {
                    let increment = pending.weapon.range_increment.map_or(1, crate::score::Score::get);
                    let landed = scatter(distance.get(), increment, dice)?;
                    attacker.state.round.pending_area = Some(pending);
                    (Some(landed), Vec::new())
                };
                AreaReport {
                    attacker: attacker.name.clone(),
                    spend: Some(spent),
                    exertion: Some(exertion),
                    check,
                    square_hit: Some(hit),
                    spell_failed,
                    scatter: scattered,
                    hits,
                    standings: Vec::new(),
                }
            }
            Stage::Scatter { .. } => {
                let pending = attacker.state.round.pending_area.take().ok_or_else(|| {
                    EncounterError::invalid("stage", format!("{} has no scattered area attack this round", attacker.name))
                })?;
                let check = area_check(&attacker, &pending, None, dice)?;
                let hits = hit_occupants(&attacker, &check, &pending.weapon, &mut occupants, dice)?;
                AreaReport {
                    attacker: attacker.name.clone(),
                    spend: None,
                    exertion: None,
                    check,
                    square_hit: None,
                    spell_failed: None,
                    scatter: None,
                    hits,
                    standings: Vec::new(),
                }
            }
        };
        store(encounter, &attacker)?;
        for (occupant, _) in &occupants {
            store(encounter, occupant)?;
        }
        let struck = occupants.iter().map(|(occupant, _)| occupant).filter(|o| report.hits.iter().any(|hit| hit.combatant_id == o.id));
        report.standings = std::iter::once(&attacker).chain(struck).map(Fighter::standing).collect();
        let event = Event::ActionTaken {
            combatant_id: request.attacker_id,
            action: "area_attack".into(),
            report: event_report(Report::Area(Box::new(report.clone()))),
            dice: dice.rolls().to_vec(),
        };
        Ok((vec![event], report))
    }
}

fn occupants_of(encounter: &Encounter, attacker: &CombatantId, list: &[Occupant]) -> Result<Vec<(Fighter, DefenceKind)>, EncounterError> {
    if list.len() > MAX_OCCUPANTS {
        return Err(EncounterError::invalid("stage.occupants", format!("at most {MAX_OCCUPANTS}")));
    }
    let mut out = Vec::new();
    for (index, occupant) in list.iter().enumerate() {
        let field = format!("stage.occupants[{index}].combatant_id");
        ensure_distinct(&occupant.combatant_id, attacker, &field)?;
        if list[..index].iter().any(|o| o.combatant_id == occupant.combatant_id) {
            return Err(EncounterError::invalid(field, "listed twice"));
        }
        out.push((fighter(encounter, &occupant.combatant_id, &field)?, occupant.defence));
    }
    Ok(out)
}

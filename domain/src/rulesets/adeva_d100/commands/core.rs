//! The attack pipeline shared by the stored and inline attacks: one attack test, hits split
//! between the main target and any extra targets, then per target its evasion, damage, critical,
//! soak and wounds (adeva-d100.txt, "Attacking", Steps Two to Seven; "Burst"; "Flurry").
//!
//! Decisions (besides those in `mod.rs`):
//! - Jams ("Suppressive Fire": "Burst attacks jam on a 94 or higher"): a test whose action spec
//!   carries `jams_on` (ranged Bursts) jams when the d100 shows that or more; a jammed burst
//!   scores no hits, whatever the test said, and `jammed` is reported.
//! - Spreading ("Burst", "Flurry"): hits go through `spread_hits`. The first hit always stays on
//!   the declared target; the extra targets take their wanted hits in order out of the others (a
//!   request for more than are left is trimmed, not refused: the hits are not known when they are
//!   declared). Each extra target's attack modifier is the engine's (Guard Mode, surprise,
//!   altitude) plus its `attack_modifier`; one harder to hit than the declared target is refused
//!   (`extra_targets[i].attack_modifier`), as is a Burst target over 10 squares away
//!   (`extra_targets[i].squares_from_target`) or a Flurry target out of reach
//!   (`extra_targets[i].within_reach`). Left out, distance and reach are the caller's word.
//! - Unarmed ("Unarmed Attacks"): an unarmed attack (`unarmed: true`, or a weapon named
//!   "unarmed") is a melee attack dealing 1d5 − 3 + SB with no penetration (the request's damage
//!   and penetration must be left out); each hit of at least the target's TB (before soak, see
//!   `unarmed.rs`) costs it a level of fatigue (`fatigue_levels`); the Unarmed and Primitive
//!   qualities are reported in the notes.
//! - Feint ("Feint"): a target the attacker has feinted (`feinted_by`) may not dodge or parry a
//!   melee Standard Attack or Called Shot by it (field `evasion`); Deflect and Point Defence
//!   remain.
//! - Fatigue: "Attacking", Step Two says fatigue applies penalties but gives no value, so none is
//!   applied; a fatigued attacker gets a note asking for it as a modifier.
//! - Limits: at most [`MAX_CLIENT_MODIFIERS`] (28) client modifiers on the attack and on each
//!   evasion, leaving room under the test's 30 for the engine's own; Lethal Damage chart names
//!   at most [`MAX_LETHAL_NAME_CHARS`] characters.

use super::super::actions::ActionKind;
use crate::rulesets::adeva_d100::bounds::Unsigned;
use super::super::actions::hit_spread::{HitSpread, OtherTarget, Spread, spread_hits};
use super::super::actions::declared::DeclaredAction;
use super::super::actions::{ActionSpec, TestSpec, Weapon, WeaponClass, action_spec};
use super::super::altitude::AltitudeAccess;
use super::super::attack_sequence::{HitResult, SURPRISE_BONUS};
use super::super::damage::DamageDice;
use super::super::decay::{self, effective_characteristic};
use super::super::evasion::{EvasionKind, EvasionResult};
use super::super::test_modifiers::{Modifier, ModifierCode, within};
use super::super::test_roll::{ModifiedTest, modified_test};
use super::super::unarmed::UNARMED_QUALITIES;
use super::super::wounds::{Soak, WoundsLoss};
use super::super::{Characteristic, Stats, bonus};
use super::attack_checks::{attack_test_spec, check_client_limits, check_targets, checked_damage_dice};
use super::hits::{HitRoll, resolve_target};
use crate::dice::Dice;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// Most modifiers a client may send on one test (the engine adds its own up to 30).
pub const MAX_CLIENT_MODIFIERS: usize = 28;
/// Longest Lethal Damage chart entry name, in characters.
pub const MAX_LETHAL_NAME_CHARS: usize = 100;

/// A target's evasion choice.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100EvasionChoice))]
#[serde(rename_all = "snake_case")]
pub enum EvasionChoice {
    #[default]
    None,
    Dodge,
    Parry,
    PointDefence,
    Deflect,
}

impl EvasionChoice {
    pub(super) fn kind(self) -> Option<EvasionKind> {
        match self {
            Self::None => None,
            Self::Dodge => Some(EvasionKind::Dodge),
            Self::Parry => Some(EvasionKind::Parry),
            Self::PointDefence => Some(EvasionKind::PointDefence),
            Self::Deflect => Some(EvasionKind::Deflect),
        }
    }

    /// Uses the target's one Reaction (a Deflect is a free action).
    pub fn is_reaction(self) -> bool {
        self.kind().is_some_and(EvasionKind::is_reaction)
    }
}

/// The attacker's side of one attack.
pub(crate) struct AttackerSide<'a> {
    pub stats: &'a Stats,
    /// A pending aim bonus.
    pub aim: Option<Modifier>,
}

/// One target's side of one attack; `field` is the JSON path naming it in refusals.
pub(crate) struct TargetSide<'a> {
    pub field: String,
    pub stats: &'a Stats,
    pub surprised: bool,
    pub evasion: EvasionChoice,
    pub evasion_field: String,
    pub evasion_modifiers: Vec<Modifier>,
    /// Heavy Attack's own −30 to its Evasion, while it lasts.
    pub own_evasion: Option<Modifier>,
    /// Guard Mode's modifier to attacks against it, while it lasts.
    pub attacks_against: Option<Modifier>,
    /// Hits wanted on an extra target (None for the main target, which keeps the rest).
    pub hits_wanted: Option<u32>,
    /// Its Reaction is already spent.
    pub reaction_spent: bool,
    /// The attacker has feinted it: no dodge or parry against a melee Standard Attack or Called
    /// Shot ("Feint").
    pub feinted: bool,
    /// Extra target of a Burst: squares from the declared target (None: the caller's word).
    pub squares_from_target: Option<u32>,
    /// Extra target of a Flurry: within reach (None: the caller's word).
    pub within_reach: Option<bool>,
    /// The client's own difference in the attack modifier against this target.
    pub attack_modifier: i32,
}

/// The attack as the client declared it.
pub(crate) struct AttackInput<'a> {
    pub action: &'a DeclaredAction,
    /// None only for an unarmed attack.
    pub damage: Option<DamageDice>,
    pub penetration: u32,
    pub modifiers: &'a [Modifier],
    pub long_range_weapon: bool,
    pub lethal_damage_table: Option<&'a [String]>,
    /// An unarmed attack ("Unarmed Attacks").
    pub unarmed: bool,
    /// The landed hit (from 1, in rolling order) whose die the DoS replace; None: the first.
    pub dos_hit: Option<u32>,
}

/// What one attack did to one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = AdevaD100TargetOutcome))]
pub struct TargetOutcome {
    pub hits_allocated: u32,
    pub evasion: Option<EvasionResult>,
    pub hits_landed: u32,
    pub soak: Soak,
    pub hits: Vec<HitResult>,
    /// The wounds over the whole attack (each hit's own loss is in `hits[].wounds`).
    pub wounds: WoundsLoss,
    /// Levels of fatigue the attack cost the target (unarmed hits of at least its TB).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub fatigue_levels: u32,
}

fn is_zero(value: &u32) -> bool {
    *value == 0
}

/// The whole attack, before it is stored.
pub(crate) struct Resolved {
    pub spec: ActionSpec,
    pub weapon: Weapon,
    pub altitude: AltitudeAccess,
    pub attack_test: ModifiedTest,
    pub hits_scored: u32,
    /// The burst jammed (no hits).
    pub jammed: bool,
    pub targets: Vec<TargetOutcome>,
    pub notes: Vec<String>,
}

/// The weapon of an attack action, or a refusal for actions `attack` does not resolve.
pub(crate) fn attack_weapon(action: &DeclaredAction) -> Result<&Weapon, RuleError> {
    use super::super::actions::charge::ChargeStrike;
    Ok(match action {
        DeclaredAction::StandardAttack(a) | DeclaredAction::HeavyAttack(a) => &a.weapon,
        DeclaredAction::Burst(a) | DeclaredAction::Flurry(a) => &a.weapon,
        DeclaredAction::CalledShot(a) => &a.weapon,
        DeclaredAction::Charge(c) => match &c.strike {
            ChargeStrike::Attack { weapon } => weapon,
            _ => {
                return Err(RuleError::invalid(
                    "action.strike",
                    "a Charge ending in a Grapple or Knock Down is taken with the act command",
                ));
            }
        },
        DeclaredAction::AttackOfOpportunity(a) => &a.weapon,
        DeclaredAction::CounterAttack(a) => &a.weapon,
        _ => {
            return Err(RuleError::invalid(
                "action",
                "this command resolves a Standard Attack, Burst, Flurry, Called Shot, Charge, Heavy Attack, \
                 Attack of Opportunity or Counter-Attack; take other actions with the act command",
            ));
        }
    })
}

/// Whether the attack's weapon is named "unarmed" (any case).
pub(crate) fn named_unarmed(action: &DeclaredAction) -> bool {
    attack_weapon(action).is_ok_and(|weapon| weapon.name.trim().eq_ignore_ascii_case("unarmed"))
}

/// A stat block's movement: its Agility Bonus (after decays) and its size modifier
/// (adeva-d100.txt, "Movement").
pub(crate) fn movement_of(stats: &Stats) -> Result<super::super::movement::MovementBands, RuleError> {
    let size = stats.size.get();
    let modifiers = if size != 0 {
        vec![Modifier::coded(super::super::test_modifiers::ModifierCode::Size, "size", size)]
    } else {
        Vec::new()
    };
    let agility = effective(stats, decay::CharacteristicName::Ag)?;
    super::super::movement::movement_bands(agility, &modifiers)
}

/// The action with what the stat block defines filled in: a Charge's Half Move comes from the
/// charger's Agility Bonus and size, never from the client (issue 12, item 9).
pub(crate) fn with_movement(action: &DeclaredAction, stats: &Stats) -> Result<DeclaredAction, RuleError> {
    let mut action = action.clone();
    if let DeclaredAction::Charge(charge) = &mut action {
        charge.half_move_squares = movement_of(stats)?.half_move;
    }
    Ok(action)
}

/// A characteristic after the stat block's decays.
pub(crate) fn effective(stats: &Stats, name: decay::CharacteristicName) -> Result<Characteristic, RuleError> {
    Ok(effective_characteristic(name.value(stats), name, &stats.decays)?.value)
}

/// Checks everything, then rolls the attack (see the operations decisions).
pub(crate) fn resolve(
    attacker: &AttackerSide,
    targets: &[TargetSide],
    input: &AttackInput,
    dice: &mut Dice,
) -> Result<Resolved, RuleError> {
    let weapon = attack_weapon(input.action)?.clone();
    let spec = action_spec(input.action).map_err(|error| within("action", error))?;
    let test = attack_test_spec(&spec, targets.len())?;
    let damage_dice = checked_damage_dice(input, &weapon)?;
    check_client_limits(input)?;
    let checked = check_targets(attacker, targets, input, &weapon, test)?;
    let characteristic = effective(attacker.stats, test.characteristic)?;
    let modifiers = attack_modifiers(test, attacker, input, &targets[0], &checked.access);
    let purpose = format!("attack test ({})", test.characteristic.label());
    let attack_test = modified_test(characteristic, &modifiers, dice, &purpose)?;
    let jammed = test.jams_on.is_some_and(|jam| attack_test.test.roll >= jam);
    let scored = hits_scored(test, &attack_test, jammed);
    let allocation = allocate(&spec, targets, &checked.engine_modifiers, scored)?;
    let strength_bonus_value =
        effective(attacker.stats, decay::CharacteristicName::S).map(|s| bonus(s) as u32)?;
    let strength_bonus = (weapon.class != WeaponClass::Ranged)
        .then(|| effective(attacker.stats, decay::CharacteristicName::S).map(|s| bonus(s) as u32))
        .transpose()?;
    let hit_roll = HitRoll {
        input,
        attack_test: &attack_test,
        characteristic,
        damage_dice: &damage_dice,
        strength_bonus_value,
        strength_bonus,
    };
    // Step Five: the DoS replace a die of one hit, the one the attacker names (default the first).
    let mut dos_countdown = input.dos_hit.unwrap_or(1);
    let mut outcomes = Vec::new();
    for ((target, evasion), hits) in targets.iter().zip(&checked.evasions).zip(allocation) {
        outcomes.push(resolve_target(&hit_roll, target, evasion.as_ref(), hits, &mut dos_countdown, dice)?);
    }
    let notes = attack_notes(&spec, test, attacker, input, &attack_test, jammed, &outcomes);
    Ok(Resolved {
        spec,
        weapon,
        altitude: checked.access,
        attack_test,
        hits_scored: scored,
        jammed,
        targets: outcomes,
        notes,
    })
}

/// The attack test's modifiers: the action's, the aim, the client's, then the engine's against
/// the main target (Guard Mode, surprise, altitude).
fn attack_modifiers(
    test: &TestSpec,
    attacker: &AttackerSide,
    input: &AttackInput,
    main: &TargetSide,
    access: &AltitudeAccess,
) -> Vec<Modifier> {
    let mut modifiers = test.modifiers.clone();
    modifiers.extend(attacker.aim.clone());
    modifiers.extend(input.modifiers.iter().cloned());
    modifiers.extend(main.attacks_against.clone());
    if main.surprised {
        modifiers.push(Modifier::coded(ModifierCode::Surprise, "target is surprised", SURPRISE_BONUS));
    }
    modifiers.extend(access.modifier.clone());
    modifiers
}

/// Hits the attack test scored: none when jammed, a passed Burst or Flurry one per degree up to
/// its limit, otherwise the test's hit rule.
fn hits_scored(test: &TestSpec, attack_test: &ModifiedTest, jammed: bool) -> u32 {
    match test.hits.attack_max_hits() {
        _ if jammed => 0,
        Some(limit) if attack_test.test.passed => attack_test.test.degrees.clamp(1, limit),
        _ => test.hits.hits(attack_test.test.passed, attack_test.test.degrees),
    }
}

/// The attack's notes: the action's, then a jam, an unarmed attack, the attacker's fatigue and
/// any Lethal Damage to resolve.
fn attack_notes(
    spec: &ActionSpec,
    test: &TestSpec,
    attacker: &AttackerSide,
    input: &AttackInput,
    attack_test: &ModifiedTest,
    jammed: bool,
    outcomes: &[TargetOutcome],
) -> Vec<String> {
    let mut notes = spec.notes.clone();
    if jammed {
        notes.push(format!(
            "the burst jammed: d100 {} is {} or more (Suppressive Fire: \"Burst attacks jam on a 94 or higher\"); no hits",
            attack_test.test.roll,
            test.jams_on.unwrap_or_default()
        ));
    }
    if input.unarmed {
        notes.push(format!(
            "unarmed attack: 1d5 − 3 + SB impact, no penetration; qualities {}",
            UNARMED_QUALITIES.join(", ")
        ));
    }
    if attacker.stats.fatigue.n() > 0 {
        notes.push(format!(
            "the attacker has {} level(s) of fatigue: the text gives fatigue a penalty but no value; send it as a modifier",
            attacker.stats.fatigue.get()
        ));
    }
    if outcomes.iter().any(|o| o.wounds.lethal_damage) {
        notes.push("a target with Fate Points took damage past 0 wounds: resolve it as Lethal Damage".into());
    }
    notes
}

/// Spreads `scored` hits with `spread_hits`: the first stays on the declared target, extra
/// targets take their wanted hits in order out of the rest (trimmed to what is left), the
/// declared target keeps whatever is not sent (adeva-d100.txt, "Burst", "Flurry"). Refusals name
/// `extra_targets[i]`.
fn allocate(
    spec: &ActionSpec,
    targets: &[TargetSide],
    engine_modifiers: &[i32],
    scored: u32,
) -> Result<Vec<u32>, RuleError> {
    let mut allocation = vec![0; targets.len()];
    allocation[0] = scored;
    if targets.len() < 2 {
        return Ok(allocation);
    }
    let spread = if spec.action == ActionKind::Flurry { Spread::Flurry } else { Spread::Burst };
    let others = |budget: Option<u32>| {
        let mut left = budget;
        let mut list = Vec::new();
        let mut indices = Vec::new();
        for (index, target) in targets.iter().enumerate().skip(1) {
            let wanted = target.hits_wanted.unwrap_or(0);
            let take = match left {
                Some(l) => {
                    let t = wanted.min(l);
                    left = Some(l - t);
                    t
                }
                None => wanted,
            };
            if take == 0 && budget.is_some() {
                continue;
            }
            indices.push(index);
            list.push(OtherTarget {
                name: target.field.clone(),
                hits: take,
                attack_modifier: engine_modifiers[index],
                squares_from_target: target.squares_from_target.or(Some(0)),
                within_reach: target.within_reach.or(Some(true)),
            });
        }
        (list, indices)
    };
    let rename = |error: RuleError, indices: &[usize]| match error {
        RuleError::Invalid { field, message } => {
            let field = match field.strip_prefix("others[") {
                Some(rest) => {
                    let (number, tail) = rest.split_once(']').unwrap_or((rest, ""));
                    let original = number.parse::<usize>().ok().and_then(|i| indices.get(i)).copied();
                    match (original, tail.strip_prefix(".name")) {
                        (Some(i), Some(_)) => format!("extra_targets[{}].target_id", i - 1),
                        (Some(i), None) => format!("extra_targets[{}]{tail}", i - 1),
                        (None, _) => "extra_targets".to_string(),
                    }
                }
                None if field == "others" => "extra_targets".to_string(),
                None => field,
            };
            RuleError::Invalid { field, message }
        }
        other => other,
    };
    // Checked as declared, before the hits are known (every wanted hit on top of the first).
    let (declared, indices) = others(None);
    let wanted: u32 = declared.iter().map(|o| o.hits).sum();
    let request = |others| HitSpread {
        target: targets[0].field.clone(),
        target_attack_modifier: engine_modifiers[0],
        others,
    };
    spread_hits(spread, wanted.saturating_add(1), &request(declared)).map_err(|e| rename(e, &indices))?;
    if scored == 0 {
        allocation[0] = 0;
        return Ok(allocation);
    }
    let (actual, indices) = others(Some(scored - 1));
    let spread_out = spread_hits(spread, scored, &request(actual)).map_err(|e| rename(e, &indices))?;
    allocation[0] = spread_out[0].hits;
    for (hits, index) in spread_out.iter().skip(1).zip(&indices) {
        allocation[*index] = hits.hits;
    }
    Ok(allocation)
}

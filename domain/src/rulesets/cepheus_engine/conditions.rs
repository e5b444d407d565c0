//! Battlefield conditions that hamper ranged attacks (cepheus-engine.txt, "Battlefield
//! Conditions").
//!
//! Decisions:
//! - These DMs apply to ranged attacks only (thrown weapons included); melee attacks ignore them.
//! - `sensors` means the attacker targets with sensors rather than the naked eye (for example
//!   light intensification). It removes the darkness DM and the visibility half of extreme weather,
//!   as the text allows. It does not remove the weather's environmental interference.
//! - Smoke DMs double for laser weapons only, not other energy weapons: −2 for smoke, −4 for thick
//!   smoke.
//! - Infra-red sensors "negate concealment from smoke" ("Battlefield Sensors"): with `infra_red`
//!   the smoke DM is listed at 0 with the reason, so the negation shows. Whether strong heat
//!   sources jam them is the caller's call (send `infra_red: false`). Their other half, soft
//!   cover, is not applied: the Cover table's rows mix soft and hard cover (1/2 is "thick forest,
//!   low wall, crate"), so the table cannot tell which a `cover` level is; the caller sends the
//!   cover the sensors leave.

use super::modifier::{Modifier, ModifierCode};
use serde::{Deserialize, Serialize};

/// How dark the battlefield is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineDarkness))]
#[serde(rename_all = "snake_case")]
pub enum Darkness {
    #[default]
    None,
    LowLight,
    Complete,
}

/// How much smoke or fog hides the target.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineSmoke))]
#[serde(rename_all = "snake_case")]
pub enum Smoke {
    #[default]
    None,
    Light,
    /// Especially thick, impenetrable smoke.
    Thick,
}

/// The darkness DM to a ranged attack: −1 in low light, −4 in complete darkness, none with sensors
/// (cepheus-engine.txt, "Battlefield Conditions").
pub fn darkness_modifier(darkness: Darkness, sensors: bool) -> Option<Modifier> {
    let (reason, dm) = match darkness {
        Darkness::None => return None,
        _ if sensors => return None,
        Darkness::LowLight => ("low light", -1),
        Darkness::Complete => ("complete darkness", -4),
    };
    Some(Modifier::new(ModifierCode::Darkness, reason, dm))
}

/// The smoke or fog DM to a ranged attack: −1, or −2 when thick, doubled for lasers
/// (cepheus-engine.txt, "Battlefield Conditions"); 0 through infra-red sensors ("Battlefield
/// Sensors").
pub fn smoke_modifier(smoke: Smoke, laser: bool, infra_red: bool) -> Option<Modifier> {
    let (reason, dm) = match smoke {
        Smoke::None => return None,
        Smoke::Light => ("smoke or fog", -1),
        Smoke::Thick => ("thick smoke", -2),
    };
    if infra_red {
        return Some(Modifier::new(ModifierCode::Smoke, format!("{reason}, seen through with infra-red sensors"), 0));
    }
    if laser {
        return Some(Modifier::new(ModifierCode::Smoke, format!("{reason}, doubled for a laser"), dm * 2));
    }
    Some(Modifier::new(ModifierCode::Smoke, reason, dm))
}

/// The extreme-weather DMs to a ranged attack: −1 for poor visibility (avoidable with sensors) and
/// −1 for environmental interference (cepheus-engine.txt, "Battlefield Conditions").
pub fn weather_modifiers(extreme_weather: bool, sensors: bool) -> Vec<Modifier> {
    let mut modifiers = Vec::new();
    if !extreme_weather {
        return modifiers;
    }
    if !sensors {
        modifiers.push(Modifier::new(ModifierCode::Weather, "extreme weather: poor visibility", -1));
    }
    modifiers.push(Modifier::new(ModifierCode::Weather, "extreme weather: environmental interference", -1));
    modifiers
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn darkness_is_minus_one_or_minus_four_unless_sensors_are_used() {
        assert_eq!(darkness_modifier(Darkness::None, false), None);
        assert_eq!(darkness_modifier(Darkness::LowLight, false).map(|m| m.dm), Some(-1));
        assert_eq!(darkness_modifier(Darkness::Complete, false).map(|m| m.dm), Some(-4));
        assert_eq!(darkness_modifier(Darkness::Complete, true), None);
    }

    #[test]
    fn smoke_doubles_for_lasers() {
        assert_eq!(smoke_modifier(Smoke::Light, false, false).map(|m| m.dm), Some(-1));
        assert_eq!(smoke_modifier(Smoke::Thick, false, false).map(|m| m.dm), Some(-2));
        // −1 × 2 = −2; −2 × 2 = −4.
        assert_eq!(smoke_modifier(Smoke::Light, true, false).map(|m| m.dm), Some(-2));
        assert_eq!(smoke_modifier(Smoke::Thick, true, false).map(|m| m.dm), Some(-4));
        assert_eq!(smoke_modifier(Smoke::None, true, false), None);
    }

    #[test]
    fn infra_red_sees_through_smoke_even_for_a_laser() {
        // "Battlefield Sensors": infra-red negates concealment from smoke: thick smoke with a
        // laser (−4) becomes 0, listed so the negation shows.
        let seen = smoke_modifier(Smoke::Thick, true, true).unwrap();
        assert_eq!((seen.dm, seen.reason.to_string()), (0, "thick smoke, seen through with infra-red sensors".into()));
        assert_eq!(smoke_modifier(Smoke::None, false, true), None);
    }

    #[test]
    fn extreme_weather_is_two_separate_minus_ones() {
        let dms = |sensors| weather_modifiers(true, sensors).iter().map(|m| m.dm).collect::<Vec<_>>();
        // Visibility −1 + interference −1 = −2; sensors remove only the visibility −1.
        assert_eq!(dms(false), vec![-1, -1]);
        assert_eq!(dms(true), vec![-1]);
        assert!(weather_modifiers(false, false).is_empty());
    }
}

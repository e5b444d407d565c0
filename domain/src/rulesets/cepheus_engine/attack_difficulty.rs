//! Attack difficulty by weapon type and range band (cepheus-engine.txt, "Range": the table the
//! prose calls "Attack Difficulties by Weapon Type", printed under a second "Personal Combat Range
//! Bands" heading).
//!
//! Decisions:
//! - The printed rows have fewer entries than the seven band columns, so each row's entries are
//!   read as consecutive bands. Rows with seven entries (Rifle, Assault Weapon, Rocket) cover every
//!   band. Every shorter row starts at Personal except Thrown:
//!   - Close Quarters (2 entries): Personal Average, Close Difficult. A knife or fist is at its
//!     best in the same square.
//!   - Extended Reach (2 entries): Personal Difficult, Close Average. A spear or polearm is
//!     awkward when the foe is in its square and at its best one or two squares away.
//!   - Thrown (3 entries): Close Average, Short Difficult, Medium Difficult; a throw cannot be made
//!     at Personal range. Throwing at someone in your own square is a melee blow, not a throw, and
//!     every other ranged row is easiest at Close or beyond. This matches the SRD table as laid
//!     out in its web editions.
//!   - Pistol (5 entries): Personal Difficult, Close Average, Short Average, Medium Difficult, Long
//!     Very Difficult.
//!   - Shotgun (5 entries): Personal Difficult, Close Average, Short Difficult, Medium Difficult,
//!     Long Very Difficult. "Shotgun Spread" speaks of shotguns firing at Medium or Long range,
//!     which fits this reading.
//! - A blank cell means that weapon cannot attack at that band (`None`).

use super::difficulty::Difficulty;
use super::range::RangeBand;
use super::weapon::WeaponType;

/// A blank cell: this weapon cannot attack at this band.
const NA: Option<Difficulty> = None;
const AV: Option<Difficulty> = Some(Difficulty::Average);
const DI: Option<Difficulty> = Some(Difficulty::Difficult);
const VD: Option<Difficulty> = Some(Difficulty::VeryDifficult);
const FO: Option<Difficulty> = Some(Difficulty::Formidable);

/// One weapon's row, in the column order Personal, Close, Short, Medium, Long, Very Long, Distant.
fn row(weapon: WeaponType) -> [Option<Difficulty>; 7] {
    match weapon {
        WeaponType::CloseQuarters => [AV, DI, NA, NA, NA, NA, NA],
        WeaponType::ExtendedReach => [DI, AV, NA, NA, NA, NA, NA],
        WeaponType::Thrown => [NA, AV, DI, DI, NA, NA, NA],
        WeaponType::Pistol => [DI, AV, AV, DI, VD, NA, NA],
        WeaponType::Rifle => [VD, DI, AV, AV, AV, DI, VD],
        WeaponType::Shotgun => [DI, AV, DI, DI, VD, NA, NA],
        WeaponType::AssaultWeapon => [DI, AV, AV, AV, DI, VD, FO],
        WeaponType::Rocket => [VD, DI, DI, AV, AV, DI, VD],
    }
}

/// The difficulty of attacking with this weapon type at this range band, or `None` when the
/// weapon cannot reach or cannot be used at that band (cepheus-engine.txt, "Range"; the row
/// alignment is explained in this module's decisions).
pub fn attack_difficulty(weapon: WeaponType, band: RangeBand) -> Option<Difficulty> {
    let column = RangeBand::ALL.iter().position(|candidate| *candidate == band)?;
    row(weapon)[column]
}

#[cfg(test)]
mod tests {
    use super::*;
    use Difficulty::{Average, Difficult, Formidable, VeryDifficult};

    fn difficulties(weapon: WeaponType) -> Vec<Option<Difficulty>> {
        RangeBand::ALL.iter().map(|band| attack_difficulty(weapon, *band)).collect()
    }

    #[test]
    fn seven_entry_rows_cover_every_band() {
        // Printed: Very Difficult, Difficult, Average, Average, Average, Difficult, Very Difficult.
        let rifle = [VeryDifficult, Difficult, Average, Average, Average, Difficult, VeryDifficult];
        assert_eq!(difficulties(WeaponType::Rifle), rifle.map(Some).to_vec());
        // Printed: Difficult, Average, Average, Average, Difficult, Very Difficult, Formidable.
        let assault = [Difficult, Average, Average, Average, Difficult, VeryDifficult, Formidable];
        assert_eq!(difficulties(WeaponType::AssaultWeapon), assault.map(Some).to_vec());
        // Printed: Very Difficult, Difficult, Difficult, Average, Average, Difficult, Very Difficult.
        let rocket = [VeryDifficult, Difficult, Difficult, Average, Average, Difficult, VeryDifficult];
        assert_eq!(difficulties(WeaponType::Rocket), rocket.map(Some).to_vec());
    }

    #[test]
    fn melee_rows_cover_personal_and_close_only() {
        let close_quarters = difficulties(WeaponType::CloseQuarters);
        assert_eq!(close_quarters[..2], [Some(Average), Some(Difficult)]);
        assert!(close_quarters[2..].iter().all(Option::is_none));
        let extended_reach = difficulties(WeaponType::ExtendedReach);
        assert_eq!(extended_reach[..2], [Some(Difficult), Some(Average)]);
        assert!(extended_reach[2..].iter().all(Option::is_none));
    }

    #[test]
    fn thrown_covers_close_to_medium() {
        assert_eq!(
            difficulties(WeaponType::Thrown),
            vec![None, Some(Average), Some(Difficult), Some(Difficult), None, None, None]
        );
    }

    #[test]
    fn pistols_and_shotguns_stop_at_long() {
        assert_eq!(
            difficulties(WeaponType::Pistol),
            vec![
                Some(Difficult),
                Some(Average),
                Some(Average),
                Some(Difficult),
                Some(VeryDifficult),
                None,
                None
            ]
        );
        assert_eq!(
            difficulties(WeaponType::Shotgun),
            vec![
                Some(Difficult),
                Some(Average),
                Some(Difficult),
                Some(Difficult),
                Some(VeryDifficult),
                None,
                None
            ]
        );
    }

    #[test]
    fn a_pistol_at_long_range_is_minus_four() {
        // Pistol, Long → Very Difficult → DM −4.
        assert_eq!(attack_difficulty(WeaponType::Pistol, RangeBand::Long).map(Difficulty::dm), Some(-4));
    }
}

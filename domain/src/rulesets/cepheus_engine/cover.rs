//! Cover (cepheus-engine.txt, "Cover", table "Cover Modifiers", and "Stance").
//!
//! Decisions:
//! - The summary table says cover is worth "–0 to –6", but the Cover Modifiers table stops at −4
//!   for full cover, and the step beyond full cover makes a target impossible to hit. The detailed
//!   table is used: −0, −1, −2, −4.
//! - A crouched or prone target always takes the one-step cover improvement; no defender would
//!   turn it down. With no cover at all, stance adds no cover.
//! - A crouched or prone target in full cover cannot be attacked at all; the rules refuse such an
//!   attack with an error on `cover`.
//! - 1/4 cover is listed at −0 so the list shows that cover was considered.

use super::modifier::{Modifier, ModifierCode};
use super::stance::Stance;
use crate::rulesets::RuleError;
use serde::{Deserialize, Serialize};

/// How much of the target is behind cover.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "schema", derive(utoipa::ToSchema), schema(as = CepheusEngineCoverLevel))]
#[serde(rename_all = "snake_case")]
pub enum CoverLevel {
    #[default]
    None,
    /// Undergrowth, a small rock, the corner of a building.
    Quarter,
    /// Thick forest, a low wall, a crate.
    Half,
    /// Jungle, a trench, a reinforced position.
    ThreeQuarters,
    /// A pillbox.
    Full,
}

impl CoverLevel {
    /// The Cover Modifiers table's DM (cepheus-engine.txt, "Cover").
    pub fn dm(self) -> i32 {
        match self {
            CoverLevel::None | CoverLevel::Quarter => 0,
            CoverLevel::Half => -1,
            CoverLevel::ThreeQuarters => -2,
            CoverLevel::Full => -4,
        }
    }

    /// The next better row of the table; no cover stays no cover, and past full cover there is
    /// no row (`None`) (cepheus-engine.txt, "Stance").
    pub fn one_step_better(self) -> Option<CoverLevel> {
        match self {
            CoverLevel::None => Some(CoverLevel::None),
            CoverLevel::Quarter => Some(CoverLevel::Half),
            CoverLevel::Half => Some(CoverLevel::ThreeQuarters),
            CoverLevel::ThreeQuarters => Some(CoverLevel::Full),
            CoverLevel::Full => None,
        }
    }

    pub fn label(self) -> &'static str {
        match self {
            CoverLevel::None => "no",
            CoverLevel::Quarter => "1/4",
            CoverLevel::Half => "1/2",
            CoverLevel::ThreeQuarters => "3/4",
            CoverLevel::Full => "full",
        }
    }
}

/// The cover DM against a target in this cover and stance (cepheus-engine.txt, "Cover" and
/// "Stance"): crouched and prone targets count one row better; past full cover they cannot be hit.
pub fn cover_modifier(cover: CoverLevel, target: Stance) -> Result<Option<Modifier>, RuleError> {
    if cover == CoverLevel::None {
        return Ok(None);
    }
    if !target.is_low() {
        return Ok(Some(Modifier::new(ModifierCode::Cover, standing_reason(cover), cover.dm())));
    }
    let Some(better) = cover.one_step_better() else {
        return Err(hidden_target());
    };
    let reason = format!(
        "target in {} cover, counted as {} cover because it is {}",
        cover.label(),
        better.label(),
        target.label()
    );
    Ok(Some(Modifier::new(ModifierCode::Cover, reason, better.dm())))
}

/// "target in 1/4 cover": the reason for a target not crouched or prone, fixed text per level.
fn standing_reason(cover: CoverLevel) -> &'static str {
    match cover {
        CoverLevel::None => "target in no cover",
        CoverLevel::Quarter => "target in 1/4 cover",
        CoverLevel::Half => "target in 1/2 cover",
        CoverLevel::ThreeQuarters => "target in 3/4 cover",
        CoverLevel::Full => "target in full cover",
    }
}

/// The check [`cover_modifier`] makes, without writing the modifier's reason: for validating a
/// request, which happens several times per attack.
pub fn check_cover(cover: CoverLevel, target: Stance) -> Result<(), RuleError> {
    if cover == CoverLevel::None || !target.is_low() || cover.one_step_better().is_some() {
        return Ok(());
    }
    Err(hidden_target())
}

fn hidden_target() -> RuleError {
    RuleError::invalid("cover", "a crouched or prone target in full cover cannot be hit (nor can it fire back)")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cover_check_agrees_with_the_modifier_for_every_cover_and_stance() {
        for cover in [CoverLevel::None, CoverLevel::Quarter, CoverLevel::Half, CoverLevel::ThreeQuarters, CoverLevel::Full] {
            for stance in [Stance::Standing, Stance::Crouched, Stance::Prone] {
                assert_eq!(check_cover(cover, stance), cover_modifier(cover, stance).map(drop), "{cover:?} {stance:?}");
            }
        }
    }

    fn dm(cover: CoverLevel, target: Stance) -> Option<i32> {
        cover_modifier(cover, target).unwrap().map(|modifier| modifier.dm)
    }

    #[test]
    fn standing_targets_use_the_table_as_printed() {
        assert_eq!(dm(CoverLevel::None, Stance::Standing), None);
        assert_eq!(dm(CoverLevel::Quarter, Stance::Standing), Some(0));
        assert_eq!(dm(CoverLevel::Half, Stance::Standing), Some(-1));
        assert_eq!(dm(CoverLevel::ThreeQuarters, Stance::Standing), Some(-2));
        assert_eq!(dm(CoverLevel::Full, Stance::Standing), Some(-4));
    }

    #[test]
    fn crouched_and_prone_targets_count_one_row_better() {
        // The text's example: crouched behind a waist-high (1/2) wall counts as 3/4 → −2.
        assert_eq!(dm(CoverLevel::Half, Stance::Crouched), Some(-2));
        assert_eq!(dm(CoverLevel::Quarter, Stance::Prone), Some(-1));
        assert_eq!(dm(CoverLevel::ThreeQuarters, Stance::Prone), Some(-4));
        assert_eq!(dm(CoverLevel::None, Stance::Crouched), None);
    }

    #[test]
    fn low_targets_in_full_cover_cannot_be_hit() {
        for stance in [Stance::Crouched, Stance::Prone] {
            let err = cover_modifier(CoverLevel::Full, stance).unwrap_err();
            assert!(matches!(err, RuleError::Invalid { ref field, .. } if field == "cover"));
        }
    }
}

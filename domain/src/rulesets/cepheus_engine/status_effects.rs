//! What a character's damage status stops them doing in combat (cepheus-engine.txt, "Injury and
//! Recovery", "Damage" and "Unconsciousness").
//!
//! Decisions:
//! - Unconscious and dead characters cannot act at all, so they have lost their minor actions
//!   too: `loses_minor_action` is true for seriously wounded, unconscious and dead.
//! - A seriously wounded character hobbles at most 1.5 m (one square) per round; unconscious and
//!   dead characters do not move; others use the normal movement rules (`None`).

use super::damage::Status;

/// The farthest a seriously wounded character can hobble or crawl in a round
/// (cepheus-engine.txt, "Injury and Recovery").
pub const HOBBLE_METRES_PER_ROUND: f64 = 1.5;

impl Status {
    /// Unconscious and dead characters take no actions (cepheus-engine.txt, "Damage",
    /// "Unconsciousness").
    pub fn can_act(self) -> bool {
        !matches!(self, Status::Unconscious | Status::Dead)
    }

    /// Seriously wounded characters lose their minor action; those who cannot act lose it too
    /// (cepheus-engine.txt, "Injury and Recovery").
    pub fn loses_minor_action(self) -> bool {
        matches!(self, Status::SeriouslyWounded) || !self.can_act()
    }

    /// The most a character in this state can move in a round, or `None` for the normal rules
    /// (cepheus-engine.txt, "Injury and Recovery": the seriously wounded only hobble or crawl).
    pub fn movement_limit_metres(self) -> Option<f64> {
        match self {
            Status::Uninjured | Status::Wounded => None,
            Status::SeriouslyWounded => Some(HOBBLE_METRES_PER_ROUND),
            Status::Unconscious | Status::Dead => Some(0.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_each_status_allows() {
        let rows = [
            (Status::Uninjured, true, false, None),
            (Status::Wounded, true, false, None),
            (Status::SeriouslyWounded, true, true, Some(1.5)),
            (Status::Unconscious, false, true, Some(0.0)),
            (Status::Dead, false, true, Some(0.0)),
        ];
        for (status, acts, loses_minor, limit) in rows {
            assert_eq!(status.can_act(), acts, "{status:?}");
            assert_eq!(status.loses_minor_action(), loses_minor, "{status:?}");
            assert_eq!(status.movement_limit_metres(), limit, "{status:?}");
        }
    }
}

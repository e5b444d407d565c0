//! Which members of a set (the dice of a group, or the elements of a set) an operation's
//! selectors pick. Only members still kept are candidates, as in d20.

use std::cmp::Reverse;

use super::ast::Selector;
use super::ratio::Ratio;

/// One member of a set as selectors see it.
#[derive(Debug, Clone, Copy)]
pub(super) struct Member {
    pub(super) total: Ratio,
    pub(super) kept: bool,
}

/// The union of what each selector picks, as a mask over `members`. `sides` is the die size
/// for `!` (0 for sets).
#[cfg(test)]
pub(super) fn select(selectors: &[Selector], members: &[Member], sides: u32) -> Vec<bool> {
    let mut scratch = Scratch::default();
    scratch.members.extend_from_slice(members);
    scratch.select(selectors, sides);
    scratch.chosen
}

/// The first member picked, trying the selectors in order (`ra` adds one die only).
#[cfg(test)]
pub(super) fn select_first(selectors: &[Selector], members: &[Member], sides: u32) -> Option<usize> {
    let mut scratch = Scratch::default();
    scratch.members.extend_from_slice(members);
    scratch.select_first(selectors, sides)
}

/// Buffers reused by every selection of one roll, so selecting allocates nothing once they
/// have grown: the members as selectors see them, the mask chosen, and one selector's picks.
#[derive(Debug, Default)]
pub(super) struct Scratch {
    pub(super) members: Vec<Member>,
    pub(super) chosen: Vec<bool>,
    picks: Vec<usize>,
}

impl Scratch {
    /// Fills `chosen` with the union of what each selector picks among `members`. `sides` is
    /// the die size for `!` (0 for sets).
    pub(super) fn select(&mut self, selectors: &[Selector], sides: u32) {
        self.chosen.clear();
        self.chosen.resize(self.members.len(), false);
        for &selector in selectors {
            candidates(selector, &self.members, sides, &mut self.picks);
            for &i in &self.picks {
                self.chosen[i] = true;
            }
        }
    }

    /// The first member picked, trying the selectors in order (`ra` adds one die only).
    pub(super) fn select_first(&mut self, selectors: &[Selector], sides: u32) -> Option<usize> {
        selectors.iter().find_map(|&selector| {
            candidates(selector, &self.members, sides, &mut self.picks);
            self.picks.first().copied()
        })
    }
}

/// What one selector picks, in its own order, into `picks`: highest or lowest first for
/// `h`/`l` (among equal totals the earlier member first), member order for comparisons.
fn candidates(selector: Selector, members: &[Member], sides: u32, picks: &mut Vec<usize>) {
    picks.clear();
    picks.reserve(members.len());
    picks.extend((0..members.len()).filter(|&i| members[i].kept));
    let total = |i: usize| members[i].total;
    match selector {
        Selector::Highest(n) => {
            picks.sort_unstable_by_key(|&i| (Reverse(total(i)), i));
            picks.truncate(n as usize);
        }
        Selector::Lowest(n) => {
            picks.sort_unstable_by_key(|&i| (total(i), i));
            picks.truncate(n as usize);
        }
        _ => picks.retain(|&i| selector.matches_total(total(i), sides)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn members(values: &[(i64, bool)]) -> Vec<Member> {
        values.iter().map(|&(total, kept)| Member { total: Ratio::int(total), kept }).collect()
    }

    #[test]
    fn only_kept_members_are_candidates_and_ties_pick_the_earlier() {
        let set = members(&[(4, true), (6, false), (4, true), (1, true)]);
        assert_eq!(select(&[Selector::Highest(1)], &set, 6), [true, false, false, false]);
        assert_eq!(select(&[Selector::Lowest(2)], &set, 6), [true, false, false, true]);
        assert_eq!(select(&[Selector::Above(3)], &set, 6), [true, false, true, false]);
        assert_eq!(select(&[Selector::Highest(1), Selector::Lowest(1)], &set, 6), [true, false, false, true]);
    }

    #[test]
    fn first_pick_follows_the_selector_order() {
        let set = members(&[(2, true), (5, true), (1, true)]);
        assert_eq!(select_first(&[Selector::Lowest(1)], &set, 6), Some(2));
        assert_eq!(select_first(&[Selector::Equal(3), Selector::Below(3)], &set, 6), Some(0));
        assert_eq!(select_first(&[Selector::Equal(3)], &set, 6), None);
    }
}

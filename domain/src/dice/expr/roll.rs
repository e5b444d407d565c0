//! Rolling one dice group and applying its operations in the order written, as d20 does.

use super::ast::{DiceGroup, OpKind, SetOp};
use super::ratio::Ratio;
use super::select::{Member, Scratch};
use super::{DiceExprError, MAX_DICE_TOTAL};
use crate::dice::{Dice, DieStatus};

/// Rolls every die of an expression through [`Dice`], counting them against [`MAX_DICE_TOTAL`].
pub(super) struct Roller<'a> {
    dice: &'a mut Dice,
    purpose: &'a str,
    rolled: usize,
    /// Buffers every selection of this roll reuses.
    pub(super) scratch: Scratch,
}

impl<'a> Roller<'a> {
    pub(super) fn new(dice: &'a mut Dice, purpose: &'a str) -> Self {
        Self { dice, purpose, rolled: 0, scratch: Scratch::default() }
    }

    /// Dice rolled so far by this expression (the index the next die will have in its outcome).
    pub(super) fn rolled(&self) -> usize {
        self.rolled
    }

    fn roll(&mut self, sides: u32, explosion: bool) -> Result<Face, DiceExprError> {
        if self.rolled >= MAX_DICE_TOTAL {
            return Err(DiceExprError::DiceLimitReached);
        }
        let (record, value) = self.dice.roll_indexed(sides, self.purpose)?;
        self.rolled += 1;
        if explosion && let Some(roll) = self.dice.record_mut(record) {
            roll.explosion = true;
        }
        Ok(Face { record, rolled: value, value, kept: true, exploded: false })
    }

    /// The face no longer counts: dropped or rerolled.
    fn mark(&mut self, face: &mut Face, status: DieStatus) {
        face.kept = false;
        self.set_status(face.record, status);
    }

    /// A die under an element dropped from a set: its record no longer counts (the face keeps
    /// its look, since the whole element is struck through).
    pub(super) fn drop_record(&mut self, record: usize) {
        if let Some(roll) = self.dice.record_mut(record)
            && roll.status.counts()
        {
            roll.status = DieStatus::Dropped;
        }
    }

    fn explode(&mut self, face: &mut Face) {
        face.exploded = true;
        if let Some(roll) = self.dice.record_mut(face.record)
            && roll.status == DieStatus::Kept
        {
            roll.status = DieStatus::Exploded;
        }
    }

    /// `mi`/`ma`: the face counts as `value` from now on.
    fn force(&mut self, face: &mut Face, value: u32) {
        face.value = value;
        let status = match value.cmp(&face.rolled) {
            std::cmp::Ordering::Greater => DieStatus::Raised,
            std::cmp::Ordering::Less => DieStatus::Lowered,
            std::cmp::Ordering::Equal if face.exploded => DieStatus::Exploded,
            std::cmp::Ordering::Equal => DieStatus::Kept,
        };
        if let Some(roll) = self.dice.record_mut(face.record) {
            roll.counted_as = (value != face.rolled).then_some(value);
            roll.status = status;
        }
    }

    fn set_status(&mut self, record: usize, status: DieStatus) {
        if let Some(roll) = self.dice.record_mut(record) {
            roll.status = status;
        }
    }
}

/// One value a die showed.
#[derive(Debug, Clone, Copy)]
pub(super) struct Face {
    /// Index of its record in [`Dice::rolls`].
    pub(super) record: usize,
    /// What the die showed.
    pub(super) rolled: u32,
    /// What it counts as (differs from `rolled` after `mi`/`ma`).
    pub(super) value: u32,
    pub(super) kept: bool,
    /// Added a die by exploding.
    pub(super) exploded: bool,
}

/// One die of the group: the values it showed before being rerolled, and its current one.
#[derive(Debug, Clone)]
pub(super) struct Slot {
    pub(super) rerolled: Vec<Face>,
    pub(super) current: Face,
}

/// Room for a group's dice: twice those written when an operation may add dice (explosions
/// usually add a few), so the usual roll never grows its vector.
fn room_for(group: &DiceGroup) -> usize {
    let adds = group.ops.iter().any(|op| matches!(op.kind, OpKind::Explode | OpKind::RerollAdd));
    group.count as usize * if adds { 2 } else { 1 }
}

/// A rolled group: its dice in order, explosions appended at the end.
#[derive(Debug, Clone)]
pub(super) struct GroupRoll {
    sides: u32,
    pub(super) slots: Vec<Slot>,
}

impl GroupRoll {
    pub(super) fn roll(group: &DiceGroup, roller: &mut Roller) -> Result<Self, DiceExprError> {
        let mut roll = Self { sides: group.sides, slots: Vec::with_capacity(room_for(group)) };
        for _ in 0..group.count {
            roll.add_die(roller, false)?;
        }
        for op in &group.ops {
            roll.apply(op, roller)?;
        }
        Ok(roll)
    }

    /// The sum of the dice still kept.
    pub(super) fn total(&self) -> i64 {
        self.slots.iter().filter(|slot| slot.current.kept).map(|slot| i64::from(slot.current.value)).sum()
    }

    /// Appends the dice as members of a set (their current faces) to `members`.
    pub(super) fn members_into(&self, members: &mut Vec<Member>) {
        let member = |slot: &Slot| Member { total: Ratio::from(slot.current.value), kept: slot.current.kept };
        members.extend(self.slots.iter().map(member));
    }

    /// Drops die `index` (a keep/drop on a parenthesis around the group).
    pub(super) fn drop_die(&mut self, index: usize, roller: &mut Roller) {
        if let Some(slot) = self.slots.get_mut(index) {
            roller.mark(&mut slot.current, DieStatus::Dropped);
        }
    }

    /// Every record of a die that still counts (to drop them all with their group).
    pub(super) fn counting_records(&self) -> impl Iterator<Item = usize> + '_ {
        self.slots.iter().filter(|slot| slot.current.kept).map(|slot| slot.current.record)
    }

    fn add_die(&mut self, roller: &mut Roller, explosion: bool) -> Result<(), DiceExprError> {
        let current = roller.roll(self.sides, explosion)?;
        self.slots.push(Slot { rerolled: Vec::new(), current });
        Ok(())
    }

    fn apply(&mut self, op: &SetOp, roller: &mut Roller) -> Result<(), DiceExprError> {
        match op.kind {
            OpKind::Keep => self.keep(op, roller),
            OpKind::Drop => self.drop_selected(op, roller),
            OpKind::Explode => self.explode(op, roller)?,
            OpKind::RerollAdd => self.explode_first(op, roller)?,
            OpKind::Reroll => while self.reroll_selected(op, roller)? {},
            OpKind::RerollOnce => {
                self.reroll_selected(op, roller)?;
            }
            OpKind::Min | OpKind::Max => self.clamp(op, roller),
        }
        Ok(())
    }

    /// Selects for `op` into the roller's scratch mask (`roller.scratch.chosen`, one per die).
    fn select(&self, op: &SetOp, roller: &mut Roller) {
        let scratch = &mut roller.scratch;
        scratch.members.clear();
        self.members_into(&mut scratch.members);
        scratch.select(&op.selectors, self.sides);
    }

    fn keep(&mut self, op: &SetOp, roller: &mut Roller) {
        self.select(op, roller);
        for i in 0..self.slots.len() {
            if self.slots[i].current.kept && !roller.scratch.chosen[i] {
                roller.mark(&mut self.slots[i].current, DieStatus::Dropped);
            }
        }
    }

    fn drop_selected(&mut self, op: &SetOp, roller: &mut Roller) {
        self.select(op, roller);
        for i in 0..self.slots.len() {
            if roller.scratch.chosen[i] {
                roller.mark(&mut self.slots[i].current, DieStatus::Dropped);
            }
        }
    }

    /// Rerolls every selected die once, in die order; false when none was selected.
    fn reroll_selected(&mut self, op: &SetOp, roller: &mut Roller) -> Result<bool, DiceExprError> {
        self.select(op, roller);
        let mut any = false;
        for i in 0..self.slots.len() {
            if !roller.scratch.chosen[i] {
                continue;
            }
            let new = roller.roll(self.sides, false)?;
            let slot = &mut self.slots[i];
            roller.mark(&mut slot.current, DieStatus::Rerolled);
            slot.rerolled.push(std::mem::replace(&mut slot.current, new));
            any = true;
        }
        Ok(any)
    }

    /// Each selected die adds a die; new dice are checked in turn, until every selected die has
    /// exploded once in this operation.
    fn explode(&mut self, op: &SetOp, roller: &mut Roller) -> Result<(), DiceExprError> {
        let mut done: Vec<bool> = Vec::with_capacity(self.slots.len());
        loop {
            self.select(op, roller);
            let selected = self.slots.len();
            done.resize(selected, false);
            let mut any = false;
            for (i, done) in done.iter_mut().enumerate() {
                if roller.scratch.chosen[i] && !*done {
                    *done = true;
                    any = true;
                    roller.explode(&mut self.slots[i].current);
                    self.add_die(roller, true)?;
                }
            }
            if !any {
                return Ok(());
            }
        }
    }

    /// `ra`: the first selected die adds one die, which is not checked again.
    fn explode_first(&mut self, op: &SetOp, roller: &mut Roller) -> Result<(), DiceExprError> {
        roller.scratch.members.clear();
        self.members_into(&mut roller.scratch.members);
        let Some(i) = roller.scratch.select_first(&op.selectors, self.sides) else {
            return Ok(());
        };
        roller.explode(&mut self.slots[i].current);
        self.add_die(roller, true)
    }

    /// `miN` raises every kept die below N to N; `maN` lowers every kept die above N to N.
    fn clamp(&mut self, op: &SetOp, roller: &mut Roller) {
        let Some(&super::ast::Selector::Equal(bound)) = op.selectors.last() else {
            return;
        };
        for slot in self.slots.iter_mut().filter(|slot| slot.current.kept) {
            let value = slot.current.value;
            let beyond = if op.kind == OpKind::Min { value < bound } else { value > bound };
            if beyond {
                roller.force(&mut slot.current, bound);
            }
        }
    }
}

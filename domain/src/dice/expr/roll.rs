//! Rolling one dice group and applying its set operations.

use std::cmp::Reverse;

use super::ast::{DiceGroup, OpKind, Selector, SetOp};
use super::{DiceExprError, MAX_DICE_TOTAL};
use crate::dice::{Dice, DieStatus};

/// Rolls every die of an expression through [`Dice`], counting them against [`MAX_DICE_TOTAL`].
pub(super) struct Roller<'a> {
    dice: &'a mut Dice,
    purpose: &'a str,
    rolled: usize,
}

impl<'a> Roller<'a> {
    pub(super) fn new(dice: &'a mut Dice, purpose: &'a str) -> Self {
        Self { dice, purpose, rolled: 0 }
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
        Ok(Face { record, value, kept: true, exploded: false })
    }

    fn mark(&mut self, face: &mut Face, status: DieStatus) {
        face.kept = false;
        if let Some(roll) = self.dice.record_mut(face.record) {
            roll.status = status;
        }
    }
}

/// One value a die showed.
#[derive(Debug, Clone, Copy)]
struct Face {
    /// Index of its record in [`Dice::rolls`].
    record: usize,
    value: u32,
    kept: bool,
    /// Already added a die by exploding (each value explodes at most once).
    exploded: bool,
}

/// One die of the group: the values it showed before being rerolled, and its current one.
#[derive(Debug, Clone)]
struct Slot {
    rerolled: Vec<Face>,
    current: Face,
}

/// A rolled group: its dice in order, explosions appended at the end.
pub(super) struct GroupRoll {
    sides: u32,
    slots: Vec<Slot>,
}

impl GroupRoll {
    pub(super) fn roll(group: &DiceGroup, roller: &mut Roller) -> Result<Self, DiceExprError> {
        let mut roll = Self { sides: group.sides, slots: Vec::new() };
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

    /// `6!, ~~1~~, 4`: struck-through values no longer count, `!` marks a die that exploded.
    pub(super) fn render(&self) -> String {
        let faces = self.slots.iter().flat_map(|slot| slot.rerolled.iter().chain([&slot.current]));
        faces.map(render_face).collect::<Vec<_>>().join(", ")
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
            OpKind::Reroll => while self.reroll_selected(op, roller)? {},
            OpKind::RerollOnce => {
                self.reroll_selected(op, roller)?;
            }
        }
        Ok(())
    }

    fn keep(&mut self, op: &SetOp, roller: &mut Roller) {
        let chosen = self.selected(op);
        for (slot, chosen) in self.slots.iter_mut().zip(chosen) {
            if slot.current.kept && !chosen {
                roller.mark(&mut slot.current, DieStatus::Dropped);
            }
        }
    }

    fn drop_selected(&mut self, op: &SetOp, roller: &mut Roller) {
        let chosen = self.selected(op);
        for (slot, _) in self.slots.iter_mut().zip(chosen).filter(|(_, chosen)| *chosen) {
            roller.mark(&mut slot.current, DieStatus::Dropped);
        }
    }

    /// Rerolls every selected die once; false when none was selected.
    fn reroll_selected(&mut self, op: &SetOp, roller: &mut Roller) -> Result<bool, DiceExprError> {
        let chosen = self.selected(op);
        let mut any = false;
        for (slot, _) in self.slots.iter_mut().zip(chosen).filter(|(_, chosen)| *chosen) {
            let new = roller.roll(self.sides, false)?;
            roller.mark(&mut slot.current, DieStatus::Rerolled);
            slot.rerolled.push(std::mem::replace(&mut slot.current, new));
            any = true;
        }
        Ok(any)
    }

    /// Each selected die adds a die; new dice are checked in turn, until none explodes.
    fn explode(&mut self, op: &SetOp, roller: &mut Roller) -> Result<(), DiceExprError> {
        loop {
            let chosen = self.selected(op);
            let to_explode: Vec<usize> =
                (0..self.slots.len()).filter(|&i| chosen[i] && !self.slots[i].current.exploded).collect();
            if to_explode.is_empty() {
                return Ok(());
            }
            for i in to_explode {
                self.slots[i].current.exploded = true;
                self.add_die(roller, true)?;
            }
        }
    }

    /// Which dice (still kept) the operation's selectors pick, as a mask over the slots.
    fn selected(&self, op: &SetOp) -> Vec<bool> {
        let mut chosen = vec![false; self.slots.len()];
        for &selector in &op.selectors {
            for i in self.select(selector) {
                chosen[i] = true;
            }
        }
        chosen
    }

    fn select(&self, selector: Selector) -> Vec<usize> {
        let value = |i: usize| self.slots[i].current.value;
        let mut kept: Vec<usize> = (0..self.slots.len()).filter(|&i| self.slots[i].current.kept).collect();
        // Stable sorts: among equal values the earlier die is picked first.
        match selector {
            Selector::Highest(n) => {
                kept.sort_by_key(|&i| Reverse(value(i)));
                kept.truncate(n as usize);
            }
            Selector::Lowest(n) => {
                kept.sort_by_key(|&i| value(i));
                kept.truncate(n as usize);
            }
            _ => kept.retain(|&i| selector.matches(value(i), self.sides)),
        }
        kept
    }
}

fn render_face(face: &Face) -> String {
    let bang = if face.exploded { "!" } else { "" };
    if face.kept { format!("{}{bang}", face.value) } else { format!("~~{}{bang}~~", face.value) }
}

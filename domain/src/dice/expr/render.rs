//! The d20-style breakdown of a rolled expression, e.g. `4d6kh3 (2, 5, ~~1~~, 6) + 2 [fire] = 15`:
//! whatever no longer counts is struck through (once, not again inside), `!` marks a die that
//! exploded and `1 -> 3` a die raised or lowered by `mi`/`ma`.

use super::ast::SetOp;
use super::node::{Kind, NodeId, Tree};
use super::roll::{Face, GroupRoll};
use crate::number_text::number_text;

/// Writes the breakdown of node `id` to `out`, without the `= total` ending.
pub(super) fn render(tree: &Tree, id: NodeId, out: &mut String) {
    write_node(tree, id, false, out);
}

/// Writes `n` in decimal, without going through the formatting machinery.
pub(super) fn write_int(n: i64, out: &mut String) {
    out.push_str(number_text(n, false).as_str());
}

fn write_node(tree: &Tree, id: NodeId, struck: bool, out: &mut String) {
    if !tree.is_kept(id) && !struck {
        out.push_str("~~");
        write_node(tree, id, true, out);
        out.push_str("~~");
        return;
    }
    match &tree.node(id).kind {
        Kind::Literal { text: Some(text), .. } => out.push_str(text),
        Kind::Literal { value, text: None } => write_int(value.numerator(), out),
        Kind::Dice { roll, text } => {
            out.push_str(text);
            out.push_str(" (");
            write_faces(roll, struck, out);
            out.push(')');
        }
        Kind::Set { elements, ops, .. } => {
            let elements = tree.elements(elements);
            out.push('(');
            for (i, &element) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_node(tree, element, struck, out);
            }
            if elements.len() == 1 {
                out.push(',');
            }
            out.push(')');
            write_ops(ops, out);
        }
        Kind::Paren { inner, ops } => {
            out.push('(');
            write_node(tree, *inner, struck, out);
            out.push(')');
            write_ops(ops, out);
        }
        Kind::Annotated { inner, annotation, .. } => {
            write_node(tree, *inner, struck, out);
            out.push(' ');
            out.push_str(annotation);
        }
        Kind::Neg { inner, .. } => {
            out.push('-');
            write_node(tree, *inner, struck, out);
        }
        Kind::Binary { op, lhs, rhs, .. } => {
            write_node(tree, *lhs, struck, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_node(tree, *rhs, struck, out);
        }
    }
}

/// The keep/drop operations after a set or parenthesis, as written.
fn write_ops(ops: &[SetOp], out: &mut String) {
    for op in ops {
        out.push_str(&op.text);
    }
}

fn write_faces(roll: &GroupRoll, struck: bool, out: &mut String) {
    let faces = roll.slots.iter().flat_map(|slot| slot.rerolled.iter().chain([&slot.current]));
    for (i, face) in faces.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        write_face(face, struck, out);
    }
}

fn write_face(face: &Face, struck: bool, out: &mut String) {
    let strike = !face.kept && !struck;
    if strike {
        out.push_str("~~");
    }
    write_int(face.rolled.into(), out);
    if face.value != face.rolled {
        out.push_str(" -> ");
        write_int(face.value.into(), out);
    }
    if face.exploded {
        out.push('!');
    }
    if strike {
        out.push_str("~~");
    }
}

#[cfg(test)]
mod tests {
    use super::write_int;

    #[test]
    fn integers_are_written_as_display_writes_them() {
        for n in [0, 7, -7, 10, 99, -100, 1_000_000, i64::MAX, i64::MIN] {
            let mut out = String::new();
            write_int(n, &mut out);
            assert_eq!(out, n.to_string());
        }
    }
}

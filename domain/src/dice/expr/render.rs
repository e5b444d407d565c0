//! The d20-style breakdown of a rolled expression, e.g. `4d6kh3 (2, 5, ~~1~~, 6) + 2 [fire] = 15`:
//! whatever no longer counts is struck through (once, not again inside), `!` marks a die that
//! exploded and `1 -> 3` a die raised or lowered by `mi`/`ma`.

use super::node::{Kind, Node};
use super::roll::{Face, GroupRoll};

/// The breakdown of `node`, without the `= total` ending.
pub(super) fn render(node: &Node) -> String {
    let mut out = String::new();
    write_node(node, false, &mut out);
    out
}

fn write_node(node: &Node, struck: bool, out: &mut String) {
    if !node.is_kept() && !struck {
        out.push_str("~~");
        write_node(node, true, out);
        out.push_str("~~");
        return;
    }
    match &node.kind {
        Kind::Literal { text, .. } => out.push_str(text),
        Kind::Dice { roll, text } => {
            out.push_str(text);
            out.push_str(" (");
            write_faces(roll, struck, out);
            out.push(')');
        }
        Kind::Set { elements, ops, .. } => {
            out.push('(');
            for (i, element) in elements.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                write_node(element, struck, out);
            }
            if elements.len() == 1 {
                out.push(',');
            }
            out.push(')');
            out.push_str(ops);
        }
        Kind::Paren { inner, ops } => {
            out.push('(');
            write_node(inner, struck, out);
            out.push(')');
            out.push_str(ops);
        }
        Kind::Annotated { inner, annotation, .. } => {
            write_node(inner, struck, out);
            out.push(' ');
            out.push_str(annotation);
        }
        Kind::Neg { inner, .. } => {
            out.push('-');
            write_node(inner, struck, out);
        }
        Kind::Binary { op, lhs, rhs, .. } => {
            write_node(lhs, struck, out);
            out.push(' ');
            out.push_str(op.symbol());
            out.push(' ');
            write_node(rhs, struck, out);
        }
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
    out.push_str(&face.rolled.to_string());
    if face.value != face.rolled {
        out.push_str(" -> ");
        out.push_str(&face.value.to_string());
    }
    if face.exploded {
        out.push('!');
    }
    if strike {
        out.push_str("~~");
    }
}

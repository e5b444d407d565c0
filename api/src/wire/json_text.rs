//! The answers of the busiest stateless routes (a dice roll, an inline operation) written straight
//! into one buffer: the fixed keys and enum names as text, the rest through serde_json. The bytes
//! are exactly those serde_json writes for the derived `Serialize` of the same types (the tests
//! compare them), at a fraction of the cost per die: serde_json escapes every key and every
//! enum name one byte at a time.

use super::{DieResponse, DieSourceWire, DieStatusWire, InlineOperationResponse, RollDiceResponse};
use serde::Serialize;

/// A JSON text being written.
pub struct JsonText(Vec<u8>);

impl JsonText {
    pub fn with_capacity(bytes: usize) -> Self {
        Self(Vec::with_capacity(bytes))
    }

    /// JSON text as it is: punctuation, keys and names that need no escaping.
    fn raw(&mut self, text: &str) {
        self.0.extend_from_slice(text.as_bytes());
    }

    /// A string, escaped as serde_json escapes it (only `"`, `\` and control characters are).
    fn string(&mut self, text: &str) -> serde_json::Result<()> {
        if text.bytes().all(|byte| byte >= 0x20 && byte != b'"' && byte != b'\\') {
            self.0.push(b'"');
            self.raw(text);
            self.0.push(b'"');
            return Ok(());
        }
        self.value(text)
    }

    /// Any value, through serde_json.
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        serde_json::to_writer(&mut self.0, value)
    }

    fn dice(&mut self, dice: &[DieResponse]) -> serde_json::Result<()> {
        self.0.push(b'[');
        for (n, die) in dice.iter().enumerate() {
            if n > 0 {
                self.0.push(b',');
            }
            self.die(die)?;
        }
        self.0.push(b']');
        Ok(())
    }

    fn die(&mut self, die: &DieResponse) -> serde_json::Result<()> {
        self.raw("{\"sides\":");
        self.value(&die.sides)?;
        self.raw(",\"value\":");
        self.value(&die.value)?;
        self.raw(",\"purpose\":");
        self.string(&die.purpose)?;
        self.raw(",\"status\":");
        self.raw(status_text(&die.status));
        self.raw(",\"source\":");
        self.raw(match die.source {
            DieSourceWire::Scripted => "\"scripted\"",
            DieSourceWire::Rng => "\"rng\"",
        });
        if die.explosion {
            self.raw(",\"explosion\":true");
        }
        if let Some(counted_as) = die.counted_as {
            self.raw(",\"counted_as\":");
            self.value(&counted_as)?;
        }
        self.0.push(b'}');
        Ok(())
    }

    /// The text written; serde_json and the fixed parts write UTF-8 only.
    pub fn into_string(self) -> Result<String, std::string::FromUtf8Error> {
        String::from_utf8(self.0)
    }
}

fn status_text(status: &DieStatusWire) -> &'static str {
    match status {
        DieStatusWire::Kept => "\"kept\"",
        DieStatusWire::Dropped => "\"dropped\"",
        DieStatusWire::Rerolled => "\"rerolled\"",
        DieStatusWire::Exploded => "\"exploded\"",
        DieStatusWire::Raised => "\"raised\"",
        DieStatusWire::Lowered => "\"lowered\"",
    }
}

impl RollDiceResponse {
    /// This answer as JSON text (the bytes of its derived `Serialize`).
    pub fn write_json(&self) -> serde_json::Result<JsonText> {
        let mut out = JsonText::with_capacity(256 + 128 * self.dice.len());
        out.raw("{\"expression\":");
        out.string(&self.expression)?;
        out.raw(",\"total\":");
        out.value(&self.total)?;
        out.raw(",\"rendered\":");
        out.string(&self.rendered)?;
        out.raw(",\"dice\":");
        out.dice(&self.dice)?;
        out.raw(",\"terms\":");
        out.value(&self.terms)?;
        if let Some(comment) = &self.comment {
            out.raw(",\"comment\":");
            out.string(comment)?;
        }
        out.raw(",\"seed\":");
        out.value(&self.seed)?;
        out.0.push(b'}');
        Ok(out)
    }
}

impl<R: Serialize> InlineOperationResponse<R> {
    /// This answer as JSON text (the bytes of its derived `Serialize`).
    pub fn write_json(&self) -> serde_json::Result<JsonText> {
        let mut out = JsonText::with_capacity(2048 + 128 * self.dice.len());
        out.raw("{\"seed\":");
        out.value(&self.seed)?;
        out.raw(",\"dice\":");
        out.dice(&self.dice)?;
        out.raw(",\"unused_rolls\":");
        out.value(&self.unused_rolls)?;
        out.raw(",\"summary\":");
        out.string(&self.summary)?;
        out.raw(",\"result\":");
        out.value(&super::WithoutDice(&self.result))?;
        out.0.push(b'}');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::TermResponse;

    fn die(purpose: &str, status: DieStatusWire, explosion: bool, counted_as: Option<u32>) -> DieResponse {
        DieResponse {
            sides: 6,
            value: 4,
            purpose: purpose.into(),
            status,
            source: DieSourceWire::Rng,
            explosion,
            counted_as,
        }
    }

    fn every_kind_of_die() -> Vec<DieResponse> {
        vec![
            die("dice: 4d6kh3+2", DieStatusWire::Kept, false, None),
            die("attack: \"Vasquez\" \\ o'Neil", DieStatusWire::Dropped, false, None),
            die("line\nbreak\ttab\u{1}\u{7f} é ☃ 𝄞 </script>", DieStatusWire::Rerolled, false, None),
            die("", DieStatusWire::Exploded, true, None),
            DieResponse {
                source: DieSourceWire::Scripted,
                ..die("mi", DieStatusWire::Raised, false, Some(3))
            },
            die("ma", DieStatusWire::Lowered, true, Some(0)),
        ]
    }

    fn text(out: serde_json::Result<JsonText>) -> String {
        out.unwrap().into_string().unwrap()
    }

    #[test]
    fn a_roll_is_written_byte_for_byte_as_serde_json_writes_it() {
        let term = |total: serde_json::Number| TermResponse {
            text: "3d8kh2".into(),
            annotation: "[fire \"hot\"]".into(),
            total,
            dice: vec![0, 2],
        };
        let cases = [
            (None, vec![], vec![]),
            (
                Some("I search\tthe \"room\"".to_owned()),
                every_kind_of_die(),
                vec![term(7.into()), term(serde_json::Number::from_f64(1.5).unwrap())],
            ),
        ];
        for (comment, dice, terms) in cases {
            let response = RollDiceResponse {
                expression: "4d6kh3+2 [fire] \\ \"x\"".into(),
                total: -15,
                rendered: "4d6kh3 (6, 5, 3, ~~1~~) + 2 [fire] = 16".into(),
                dice,
                terms,
                comment,
                seed: (1 << 53) - 1,
            };
            assert_eq!(text(response.write_json()), serde_json::to_string(&response).unwrap());
        }
    }

    #[test]
    fn an_inline_operation_is_written_byte_for_byte_as_serde_json_writes_it() {
        #[derive(Serialize)]
        struct Report {
            hit: bool,
            notes: Vec<String>,
        }
        for dice in [vec![], every_kind_of_die()] {
            let response = InlineOperationResponse {
                seed: 42,
                dice,
                unused_rolls: vec![6, 1],
                summary: "Vasquez hits \"Hicks\" (Effect +2)\n".into(),
                result: Report { hit: true, notes: vec!["−2 DM".into()] },
            };
            assert_eq!(text(response.write_json()), serde_json::to_string(&response).unwrap());
        }
    }
}

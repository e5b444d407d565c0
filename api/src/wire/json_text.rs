//! The answers of the busiest stateless routes (a dice roll, an inline operation) written straight
//! into one `String`: the fixed keys and enum names as text, the rest through [`write_json`].
//! The bytes are exactly those serde_json writes for the derived `Serialize` of the same types
//! (the tests compare them), at a fraction of the cost: serde_json escapes every key and every
//! enum name one byte at a time, and its output must be checked as UTF-8 again.

use super::json_writer::{write_json, write_string, write_u64};
use super::{DieResponse, DieSourceWire, DieStatusWire, InlineOperationResponse, RollDiceResponse};
use serde::Serialize;

/// A JSON text being written.
pub struct JsonText(String);

impl JsonText {
    pub fn with_capacity(bytes: usize) -> Self {
        Self(String::with_capacity(bytes))
    }

    /// JSON text as it is: punctuation, keys and names that need no escaping.
    fn raw(&mut self, text: &str) {
        self.0.push_str(text);
    }

    /// A string, escaped as serde_json escapes it (only `"`, `\` and control characters are).
    fn string(&mut self, text: &str) -> serde_json::Result<()> {
        write_string(&mut self.0, text);
        Ok(())
    }

    /// Any value, written as serde_json writes it.
    fn value<T: Serialize + ?Sized>(&mut self, value: &T) -> serde_json::Result<()> {
        write_json(&mut self.0, value)
    }

    fn dice(&mut self, dice: &[DieResponse]) -> serde_json::Result<()> {
        self.0.push('[');
        for (n, die) in dice.iter().enumerate() {
            if n > 0 {
                self.0.push(',');
            }
            self.die(die)?;
        }
        self.0.push(']');
        Ok(())
    }

    fn die(&mut self, die: &DieResponse) -> serde_json::Result<()> {
        self.raw("{\"sides\":");
        write_u64(&mut self.0, u64::from(die.sides));
        self.raw(",\"value\":");
        write_u64(&mut self.0, u64::from(die.value));
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
            write_u64(&mut self.0, u64::from(counted_as));
        }
        self.0.push('}');
        Ok(())
    }

    /// The text written.
    pub fn into_string(self) -> String {
        self.0
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
        out.0.push('}');
        Ok(out)
    }
}

impl<R: Serialize> InlineOperationResponse<R> {
    /// This answer as JSON text (the bytes of its derived `Serialize`).
    pub fn write_json(&self) -> serde_json::Result<JsonText> {
        InlineAnswer {
            seed: self.seed,
            dice: &self.dice,
            unused_rolls: &self.unused_rolls,
            summary: &self.summary,
            result: &self.result,
        }
        .write_json()
    }
}

/// The parts of an [`InlineOperationResponse`], borrowed: the route writes its answer from them
/// without moving the report (over a kilobyte for an attack) into a response first.
pub struct InlineAnswer<'a, R> {
    pub seed: u64,
    pub dice: &'a [DieResponse],
    pub unused_rolls: &'a [u32],
    pub summary: &'a str,
    pub result: &'a R,
}

impl<R: Serialize> InlineAnswer<'_, R> {
    /// The bytes [`InlineOperationResponse::write_json`] writes for the same parts.
    pub fn write_json(&self) -> serde_json::Result<JsonText> {
        let mut out = JsonText::with_capacity(2048 + 128 * self.dice.len());
        out.raw("{\"seed\":");
        out.value(&self.seed)?;
        out.raw(",\"dice\":");
        out.dice(self.dice)?;
        out.raw(",\"unused_rolls\":");
        out.value(self.unused_rolls)?;
        out.raw(",\"summary\":");
        out.string(self.summary)?;
        out.raw(",\"result\":");
        out.value(&super::WithoutDice(self.result))?;
        out.0.push('}');
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::TermResponse;
    use skirmish_domain::dice::Dice;
    use skirmish_domain::rulesets::cepheus_engine::operations::{AttackReport, InlineAttack, attack_inline};

    fn die(
        purpose: &'static str,
        status: DieStatusWire,
        explosion: bool,
        counted_as: Option<u32>,
    ) -> DieResponse {
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
        out.unwrap().into_string()
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

    /// An inline attack's answer, from a request and the dice it rolls.
    fn attack_answer(body: serde_json::Value, rolls: Vec<u32>) -> InlineOperationResponse<AttackReport> {
        use skirmish_domain::rulesets::Summary;
        let request: InlineAttack = serde_json::from_value(body).unwrap();
        let mut dice = Dice::scripted_strict(rolls, 7).unwrap();
        let report = attack_inline(request, &mut dice).unwrap();
        InlineOperationResponse {
            seed: 7,
            unused_rolls: dice.unused_rolls(),
            dice: dice.into_rolls().into_iter().map(Into::into).collect(),
            summary: report.summary(),
            result: report,
        }
    }

    #[test]
    fn attack_reports_are_written_byte_for_byte_as_serde_json_writes_them() {
        let attack = |extra: serde_json::Value| {
            let mut body = serde_json::json!({
                "weapon": {"weapon_type": "rifle", "damage_dice": 3}, "distance_m": 20,
                "attacker_name": "Vasquez \"V\"", "target_name": "Drone\tΩ",
                "attacker": {"str": 8, "dex": 10, "end": 9, "int": 7, "edu": 7, "soc": 8,
                    "skills": {"Gun Combat": 2, "zero-g": 1}},
                "target": {"str": 8, "dex": 9, "end": 7, "int": 6, "edu": 5, "soc": 4,
                    "skills": {"gun_combat": 1}, "armour": 2, "damage": {"end": 1}},
            });
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            body
        };
        let cases = [
            (
                "hit",
                r#""target_hit":{"#,
                attack(serde_json::json!({"cover": "quarter", "reaction": "dodge", "overflow_to": "str"})),
                vec![6, 5, 3, 4, 4],
            ),
            (
                "miss",
                r#""hit":false"#,
                attack(serde_json::json!({"extra_modifiers": [{"reason": "smoke \"thick\"", "dm": -2}]})),
                vec![1, 2],
            ),
            (
                "stray shot",
                r#""firing_into_combat":{"#,
                attack(serde_json::json!({"firing_into_combat": true})),
                vec![1, 1, 6],
            ),
            (
                "suppression",
                r#""suppression":{"#,
                attack(serde_json::json!({"suppression": true, "burst": {"mode": "spray", "rounds": 4}})),
                vec![6, 6],
            ),
            (
                "coup de grâce",
                r#""coup_de_grace":true"#,
                attack(serde_json::json!({"coup_de_grace": true, "target_helpless": true, "distance_m": 1})),
                vec![],
            ),
            (
                "vehicle",
                r#""vehicle":{"#,
                attack(serde_json::json!({"target_is_vehicle": true, "hit_location_table": "external"})),
                vec![6, 6, 3, 4, 5, 2, 3, 4, 5, 6],
            ),
        ];
        for (name, fragment, body, rolls) in cases {
            let answer = attack_answer(body, rolls);
            let written = text(answer.write_json());
            assert!(written.contains(fragment), "{name}: {written}");
            assert_eq!(written, serde_json::to_string(&answer).unwrap(), "{name}");
        }
    }
}

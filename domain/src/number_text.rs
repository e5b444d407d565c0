//! An integer as text on the stack, without `format!`: the dice renderer and the Cepheus reasons
//! and summaries write numbers on every roll and attack.

/// `value` as text, with a `+` before zero or a positive number when `signed` ("+1", "+0", "-3",
/// "2"), as `{:+}` writes it; without `signed` exactly as `Display` writes it.
pub fn number_text(value: impl Into<i64>, signed: bool) -> NumberText {
    let value: i64 = value.into();
    let mut digits = [0u8; 24];
    let mut at = digits.len();
    let mut rest = value.unsigned_abs();
    loop {
        at -= 1;
        digits[at] = b'0' + (rest % 10) as u8;
        rest /= 10;
        if rest == 0 {
            break;
        }
    }
    if value < 0 {
        at -= 1;
        digits[at] = b'-';
    } else if signed {
        at -= 1;
        digits[at] = b'+';
    }
    NumberText { digits, at }
}

/// The text [`number_text`] made.
pub struct NumberText {
    digits: [u8; 24],
    at: usize,
}

impl NumberText {
    pub fn as_str(&self) -> &str {
        // Only ASCII digits and signs are ever written, so this never falls back.
        std::str::from_utf8(&self.digits[self.at..]).unwrap_or("0")
    }
}

#[cfg(test)]
mod tests {
    use super::number_text;

    #[test]
    fn the_sign_is_written_only_when_asked_or_negative() {
        let texts: Vec<String> =
            [(0, true), (1, true), (-3, true), (12, false), (-120, false), (i32::MIN, true)]
                .iter()
                .map(|&(value, signed)| number_text(value, signed).as_str().to_string())
                .collect();
        assert_eq!(texts, ["+0", "+1", "-3", "12", "-120", "-2147483648"]);
    }

    #[test]
    fn unsigned_text_is_what_display_writes() {
        for n in [0, 7, -7, 10, 99, -100, 1_000_000, i64::MAX, i64::MIN] {
            assert_eq!(number_text(n, false).as_str(), n.to_string());
        }
    }
}

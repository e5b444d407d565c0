//! Exact numbers for dice arithmetic. d20 computes in Python floats (`15 / 2` is 7.5, the final
//! total is truncated); Skirmish computes the same operations exactly, as fractions whose
//! numerator and denominator fit an i64. Anything outside that range is an overflow error.

use std::cmp::Ordering;

/// A reduced fraction `num / den` with `den > 0`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ratio {
    num: i64,
    den: i64,
}

impl Ratio {
    pub const ZERO: Self = Self { num: 0, den: 1 };

    pub fn int(n: i64) -> Self {
        Self { num: n, den: 1 }
    }

    /// `num / den` reduced; `None` when `den` is 0 or the result leaves the i64 range.
    pub fn new(num: i128, den: i128) -> Option<Self> {
        if den == 0 {
            return None;
        }
        let divisor = gcd(num.unsigned_abs(), den.unsigned_abs()).max(1);
        let sign = if den < 0 { -1 } else { 1 };
        let divisor = i128::try_from(divisor).ok()?;
        let num = i64::try_from(sign * (num / divisor)).ok()?;
        let den = i64::try_from(sign * (den / divisor)).ok()?;
        Some(Self { num, den })
    }

    pub fn numerator(self) -> i64 {
        self.num
    }

    pub fn denominator(self) -> i64 {
        self.den
    }

    /// Rounded toward zero, as d20's final `int(total)`.
    pub fn trunc(self) -> i64 {
        self.num / self.den
    }

    /// Rounded toward negative infinity.
    pub fn floor(self) -> i64 {
        self.num.div_euclid(self.den)
    }

    pub fn to_f64(self) -> f64 {
        self.num as f64 / self.den as f64
    }

    pub fn checked_add(self, other: Self) -> Option<Self> {
        if let Some((a, b)) = self.ints(other) {
            return a.checked_add(b).map(Self::int);
        }
        let (a, b, c, d) = self.wide(other);
        Self::new((a * d).checked_add(c * b)?, b * d)
    }

    pub fn checked_sub(self, other: Self) -> Option<Self> {
        if let Some((a, b)) = self.ints(other) {
            return a.checked_sub(b).map(Self::int);
        }
        self.checked_add(other.checked_neg()?)
    }

    pub fn checked_mul(self, other: Self) -> Option<Self> {
        if let Some((a, b)) = self.ints(other) {
            return a.checked_mul(b).map(Self::int);
        }
        let (a, b, c, d) = self.wide(other);
        Self::new(a * c, b * d)
    }

    /// `None` on division by zero or overflow (callers check zero first to name it).
    pub fn checked_div(self, other: Self) -> Option<Self> {
        if let Some((a, b)) = self.ints(other)
            && b != 0
            && a.checked_rem(b) == Some(0)
        {
            return a.checked_div(b).map(Self::int);
        }
        let (a, b, c, d) = self.wide(other);
        Self::new(a * d, b * c)
    }

    /// Python's `//`: the quotient rounded toward negative infinity.
    pub fn checked_floor_div(self, other: Self) -> Option<Self> {
        if let Some((a, b)) = self.ints(other) {
            return floor_div(a, b).map(Self::int);
        }
        Some(Self::int(self.checked_div(other)?.floor()))
    }

    /// Python's `%`: `a - b * (a // b)`, taking the sign of the divisor.
    pub fn checked_rem(self, other: Self) -> Option<Self> {
        self.checked_sub(other.checked_mul(self.checked_floor_div(other)?)?)
    }

    pub fn checked_neg(self) -> Option<Self> {
        Some(Self { num: self.num.checked_neg()?, den: self.den })
    }

    pub fn is_zero(self) -> bool {
        self.num == 0
    }

    /// Both numerators when both are whole: the i64 fast path, which gives exactly what the
    /// fraction arithmetic gives (same value, same overflow) without 128-bit divisions.
    fn ints(self, other: Self) -> Option<(i64, i64)> {
        (self.den == 1 && other.den == 1).then_some((self.num, other.num))
    }

    fn wide(self, other: Self) -> (i128, i128, i128, i128) {
        (self.num.into(), self.den.into(), other.num.into(), other.den.into())
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Self) -> Ordering {
        if let Some((a, b)) = self.ints(*other) {
            return a.cmp(&b);
        }
        let (a, b, c, d) = self.wide(*other);
        (a * d).cmp(&(c * b))
    }
}

/// Written as a JSON integer when whole, otherwise as the nearest float.
impl serde::Serialize for Ratio {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        if self.den == 1 {
            serializer.serialize_i64(self.num)
        } else {
            serializer.serialize_f64(self.to_f64())
        }
    }
}

impl From<u32> for Ratio {
    fn from(n: u32) -> Self {
        Self::int(n.into())
    }
}

/// Python's `//` on integers; `None` on a zero divisor or overflow (`i64::MIN // -1`).
fn floor_div(a: i64, b: i64) -> Option<i64> {
    let quotient = a.checked_div(b)?;
    let inexact = a % b != 0;
    Some(if inexact && ((a < 0) != (b < 0)) { quotient - 1 } else { quotient })
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    fn r(num: i128, den: i128) -> Ratio {
        Ratio::new(num, den).unwrap_or_else(|| panic!("{num}/{den}"))
    }

    #[test]
    fn fractions_are_reduced_with_a_positive_denominator() {
        assert_eq!(r(6, -4), r(-3, 2));
        assert_eq!((r(6, -4).numerator(), r(6, -4).denominator()), (-3, 2));
        assert_eq!(Ratio::new(1, 0), None);
        assert_eq!(Ratio::new(i128::from(i64::MAX) + 1, 1), None);
    }

    #[test]
    fn python_division_family() {
        // 15 / 2 = 7.5; 15 // 2 = 7; -7 // 2 = -4; 7 // -2 = -4; -7 % 3 = 2; 7 % -3 = -2.
        assert_eq!(Ratio::int(15).checked_div(Ratio::int(2)), Some(r(15, 2)));
        assert_eq!(Ratio::int(15).checked_floor_div(Ratio::int(2)), Some(Ratio::int(7)));
        assert_eq!(Ratio::int(-7).checked_floor_div(Ratio::int(2)), Some(Ratio::int(-4)));
        assert_eq!(Ratio::int(7).checked_floor_div(Ratio::int(-2)), Some(Ratio::int(-4)));
        assert_eq!(Ratio::int(-7).checked_rem(Ratio::int(3)), Some(Ratio::int(2)));
        assert_eq!(Ratio::int(7).checked_rem(Ratio::int(-3)), Some(Ratio::int(-2)));
        assert_eq!(r(7, 2).checked_rem(Ratio::int(2)), Some(r(3, 2)));
    }

    #[test]
    fn truncation_and_floor() {
        assert_eq!((r(-7, 2).trunc(), r(-7, 2).floor()), (-3, -4));
        assert_eq!((r(7, 2).trunc(), r(7, 2).floor()), (3, 3));
    }

    /// The whole-number fast path against the same operations done in i128 and checked.
    #[test]
    fn whole_numbers_match_wide_arithmetic() {
        let edges = [i64::MIN, i64::MIN + 1, -7, -2, -1, 0, 1, 2, 3, 7, i64::MAX - 1, i64::MAX];
        let fits = |n: i128| i64::try_from(n).ok().map(Ratio::int);
        for a in edges {
            for b in edges {
                let (x, y, wa, wb) = (Ratio::int(a), Ratio::int(b), i128::from(a), i128::from(b));
                assert_eq!(x.checked_add(y), fits(wa + wb), "{a} + {b}");
                assert_eq!(x.checked_sub(y), fits(wa - wb), "{a} - {b}");
                assert_eq!(x.checked_mul(y), fits(wa * wb), "{a} * {b}");
                assert_eq!(x.cmp(&y), a.cmp(&b), "{a} cmp {b}");
                if b != 0 {
                    assert_eq!(x.checked_div(y), Ratio::new(wa, wb), "{a} / {b}");
                    assert_eq!(
                        x.checked_floor_div(y),
                        fits(wa.div_euclid(wb) - i128::from(wb < 0 && wa.rem_euclid(wb) != 0)),
                        "{a} // {b}"
                    );
                }
            }
        }
    }

    #[test]
    fn overflow_is_none_and_comparison_is_exact() {
        assert_eq!(Ratio::int(i64::MAX).checked_add(Ratio::int(1)), None);
        assert_eq!(Ratio::int(i64::MIN).checked_neg(), None);
        assert!(r(1, 3) < r(1, 2));
        assert_eq!(r(1, 10).checked_add(r(2, 10)), Some(r(3, 10)));
    }
}

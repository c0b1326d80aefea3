//! Exact movement-point arithmetic (rules 5.2, 5.4, 5.4.1).
//!
//! Roads cost ½ MP and Suez tracks ⅓ MP, so MP are kept as integer sixths: every
//! platform and binding computes identical totals, with no floating point anywhere.

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::fmt;
use std::ops::{Add, AddAssign, Sub};
use std::str::FromStr;

/// A number of movement points, stored exactly as sixths of a point.
///
/// Written in JSON as a string: `"2"`, `"1/2"`, `"1/3"`, `"2 1/2"` or `"5/2"`.
///
/// ```
/// use fm_core::Mp;
/// let half: Mp = "1/2".parse().unwrap();
/// assert_eq!(half + half, Mp::whole(1));
/// assert_eq!((Mp::whole(2) + half).to_string(), "2 1/2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Mp(pub u32);

impl Mp {
    /// Zero movement points.
    pub const ZERO: Mp = Mp(0);
    /// `n` whole movement points.
    pub const fn whole(n: u32) -> Mp {
        Mp(n * 6)
    }
    /// Sixths of a point.
    pub const fn sixths(self) -> u32 {
        self.0
    }
    /// Half, rounded down to a whole point (rule 6.1, mobile units entering EZOC).
    pub const fn half_round_down(self) -> Mp {
        Mp::whole(self.0 / 6 / 2)
    }
    /// Subtraction that stops at zero.
    pub const fn saturating_sub(self, o: Mp) -> Mp {
        Mp(self.0.saturating_sub(o.0))
    }
}

impl Add for Mp {
    type Output = Mp;
    fn add(self, o: Mp) -> Mp {
        Mp(self.0 + o.0)
    }
}
impl AddAssign for Mp {
    fn add_assign(&mut self, o: Mp) {
        self.0 += o.0;
    }
}
impl Sub for Mp {
    type Output = Mp;
    fn sub(self, o: Mp) -> Mp {
        Mp(self.0 - o.0)
    }
}

impl fmt::Display for Mp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 6;
        let rem = self.0 % 6;
        let frac = match rem {
            0 => "",
            1 => "1/6",
            2 => "1/3",
            3 => "1/2",
            4 => "2/3",
            _ => "5/6",
        };
        match (whole, rem) {
            (w, 0) => write!(f, "{w}"),
            (0, _) => write!(f, "{frac}"),
            (w, _) => write!(f, "{w} {frac}"),
        }
    }
}

/// Error for an MP value that is not a whole number or a fraction in sixths.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not a movement-point value (\"2\", \"1/2\", \"1/3\", \"2 1/2\")")]
pub struct MpParseError(pub String);

fn parse_frac(s: &str) -> Option<u32> {
    if let Some((n, d)) = s.split_once('/') {
        let n: u32 = n.trim().parse().ok()?;
        let d: u32 = d.trim().parse().ok()?;
        if d == 0 || 6 % d != 0 {
            return None;
        }
        n.checked_mul(6 / d)
    } else {
        s.trim().parse::<u32>().ok()?.checked_mul(6)
    }
}

impl FromStr for Mp {
    type Err = MpParseError;
    fn from_str(s: &str) -> Result<Mp, MpParseError> {
        let err = || MpParseError(s.to_string());
        let t = s.trim();
        if t.is_empty() {
            return Err(err());
        }
        let total = if let Some((w, f)) = t.split_once(' ') {
            let w = parse_frac(w).ok_or_else(err)?;
            let f = parse_frac(f).ok_or_else(err)?;
            w.checked_add(f).ok_or_else(err)?
        } else {
            parse_frac(t).ok_or_else(err)?
        };
        if total > 6 * 1000 {
            return Err(err());
        }
        Ok(Mp(total))
    }
}

impl Serialize for Mp {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Mp {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Mp, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            N(u32),
            S(String),
        }
        match Raw::deserialize(d)? {
            Raw::N(n) if n <= 1000 => Ok(Mp::whole(n)),
            Raw::N(n) => Err(serde::de::Error::custom(MpParseError(n.to_string()))),
            Raw::S(s) => s.parse().map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn parse_and_print_round_trip() {
        for s in ["0", "1", "1/2", "1/3", "2 1/2", "2/3", "7"] {
            let m: Mp = s.parse().unwrap();
            assert_eq!(m.to_string(), s);
        }
        assert_eq!("5/2".parse::<Mp>().unwrap(), Mp(15));
        assert!("1/4".parse::<Mp>().is_err());
        assert!("x".parse::<Mp>().is_err());
        assert_eq!(Mp::whole(7).half_round_down(), Mp::whole(3));
    }
}

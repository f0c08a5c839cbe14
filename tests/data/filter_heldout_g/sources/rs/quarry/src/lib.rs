//! Climbing grades: French sport grades, the Yosemite Decimal System and the V-scale for boulders.
//!
//! See [`Grade::parse`] and [`to_yds`]; the tables come from [`TABLE_SOURCE`].

/// One grade in one system.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum Grade {
    /// A French grade such as `6a+`.
    French(String),
    /// A YDS grade such as `5.10c`.
    Yds(String),
    /// A boulder grade such as `V4`.
    V(u8),
}

const FRENCH: [&str; 18] = ["5a", "5b", "5c", "6a", "6a+", "6b", "6b+", "6c", "6c+", "7a", "7a+", "7b", "7b+", "7c", "7c+", "8a", "8a+", "8b"];
const YDS: [&str; 18] = ["5.7", "5.8", "5.9", "5.10a", "5.10b", "5.10c", "5.10d", "5.11a", "5.11b", "5.11c", "5.11d", "5.12a", "5.12b", "5.12c", "5.12d", "5.13a", "5.13b", "5.13c"];

impl Grade {
    /// Parse a grade written as on a topo.
    ///
    /// ```
    /// use quarry::Grade;
    /// assert_eq!(Grade::parse("V4"), Some(Grade::V(4)));
    /// assert_eq!(Grade::parse("6a+"), Some(Grade::French("6a+".into())));
    /// assert_eq!(Grade::parse("5.10c"), Some(Grade::Yds("5.10c".into())));
    /// ```
    pub fn parse(text: &str) -> Option<Grade> {
        let t = text.trim();
        if let Some(v) = t.strip_prefix('V') {
            return v.parse().ok().map(Grade::V);
        }
        if FRENCH.contains(&t) {
            return Some(Grade::French(t.to_string()));
        }
        if YDS.contains(&t) {
            return Some(Grade::Yds(t.to_string()));
        }
        None
    }

    /// The index of the grade in the shared table, for comparing across systems. See [`Grade::rank`].
    fn index(&self) -> Option<usize> {
        match self {
            Grade::French(s) => FRENCH.iter().position(|g| g == s),
            Grade::Yds(s) => YDS.iter().position(|g| g == s),
            Grade::V(_) => None,
        }
    }
}

/// Convert a French grade to YDS.
///
/// ```
/// assert_eq!(quarry::to_yds("6a"), Some("5.10a"));
/// assert_eq!(quarry::to_yds("7a"), Some("5.11d"));
/// ```
pub fn to_yds(french: &str) -> Option<&'static str> {
    FRENCH.iter().position(|g| *g == french).map(|i| YDS[i])
}

/// Convert a YDS grade to French; uses [`Grade::index`] internally and [`crate::tables::FONT`].
pub fn to_french(yds: &str) -> Option<&'static str> {
    Grade::Yds(yds.to_string()).index().map(|i| FRENCH[i])
}

/// The V grade a boulder problem of this French route difficulty feels like, rounded down.
///
/// ```
/// assert_eq!(quarry::v_from_french("7a"), Some(6));
/// ```
pub fn v_from_french(french: &str) -> Option<u8> {
    let i = FRENCH.iter().position(|g| *g == french)?;
    Some((i as u8).saturating_sub(4) / 2)
}

/// A pyramid of ticks: how many routes at each grade, hardest first.
pub fn pyramid(ticks: &[&str]) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for t in ticks {
        match counts.iter_mut().find(|(g, _)| g == t) {
            Some((_, n)) => *n += 1,
            None => counts.push((t.to_string(), 1)),
        }
    }
    counts.sort_by(|a, b| b.0.cmp(&a.0));
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn french_to_yds_low() {
        assert_eq!(to_yds("5c"), Some("5.9"));
    }

    #[test]
    fn yds_round_trip() {
        for g in YDS {
            assert_eq!(to_yds(to_french(g).unwrap()), Some(g));
        }
    }

    #[test]
    fn pyramid_hardest_first() {
        let p = pyramid(&["6a", "6b+", "6a", "7a", "6b+", "6a"]);
        assert_eq!(p[0], ("7a".to_string(), 1));
        assert_eq!(p[2], ("6a".to_string(), 3));
    }

    #[test]
    fn pyramid_orders_plus_grades() {
        let p = pyramid(&["6a+", "6b", "6a"]);
        let order: Vec<&str> = p.iter().map(|(g, _)| g.as_str()).collect();
        assert_eq!(order, ["6b", "6a+", "6a"]);
    }
}

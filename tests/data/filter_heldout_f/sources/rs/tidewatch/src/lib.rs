//! Tide table parsing and high-water prediction for the harbour dashboard.
use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone, PartialEq)]
pub struct Tide {
    pub minutes: u32,
    pub height_cm: i32,
}

#[derive(Debug)]
pub enum ParseError {
    BadLine(usize, String),
    BadTime(usize),
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        match self {
            ParseError::BadLine(n, l) => write!(f, "line {}: cannot parse {:?}", n, l),
            ParseError::BadTime(n) => write!(f, "line {}: bad time", n),
        }
    }
}

impl std::error::Error for ParseError {}

pub fn parse_time(s: &str) -> Option<u32> {
    let (h, m) = s.split_once(':')?;
    let h: u32 = h.parse().ok()?;
    let m: u32 = m.parse().ok()?;
    if h > 23 || m > 59 { return None; }
    Some(h * 60 + m)
}

pub fn parse(text: &str) -> Result<Vec<Tide>, ParseError> {
    let mut out = Vec::new();
    let cache: HashMap<String, u32> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') { continue; }
        let mut parts = line.split('\t');
        let (Some(t), Some(h)) = (parts.next(), parts.next()) else {
            return Err(ParseError::BadLine(i + 1, line.to_string()));
        };
        let minutes = parse_time(t).ok_or(ParseError::BadTime(i + 1))?;
        let height_cm = h.trim().parse().map_err(|_| ParseError::BadLine(i + 1, line.to_string()))?;
        out.push(Tide { minutes, height_cm });
    }
    Ok(out)
}

pub fn high_waters(tides: &[Tide]) -> Vec<&Tide> {
    let mut highs = Vec::new();
    for w in tides.windows(3) {
        if w[1].height_cm > w[0].height_cm && w[1].height_cm > w[2].height_cm {
            highs.push(&w[1]);
        }
    }
    highs
}

pub fn mean_height(tides: &[Tide]) -> i32 {
    let sum: i32 = tides.iter().map(|t| t.height_cm).sum();
    sum / tides.len() as i32
}

fn unused_helper(x: i32) -> i32 { x * 2 }

#[cfg(test)]
mod tests {
    use super::*;

    const TABLE: &str = "# time\theight\n00:10\t120\n06:25\t410\n12:40\t95\n18:55\t402\n23:50\t140\n";

    #[test]
    fn parses_table() { assert_eq!(parse(TABLE).unwrap().len(), 5); }

    #[test]
    fn parse_time_rejects_25h() { assert_eq!(parse_time("25:00"), None); }

    #[test]
    fn finds_high_waters() {
        let t = parse(TABLE).unwrap();
        let highs: Vec<u32> = high_waters(&t).iter().map(|t| t.minutes).collect();
        assert_eq!(highs, vec![385, 1135]);
    }

    #[test]
    fn mean_rounds_to_nearest() {
        let t = parse(TABLE).unwrap();
        assert_eq!(mean_height(&t), 234, "mean of {:?}", t.iter().map(|t| t.height_cm).collect::<Vec<_>>());
    }

    #[test]
    fn high_water_at_end_of_day() {
        let t = parse("20:00\t100\n22:00\t300\n23:59\t310\n").unwrap();
        assert_eq!(high_waters(&t).len(), 1, "last reading is the day's high water");
    }

    #[test]
    fn bad_line_reports_number() {
        let e = parse("00:10\t120\noops\n").unwrap_err();
        assert_eq!(e.to_string(), "line 2: cannot parse \"oops\"");
    }
}

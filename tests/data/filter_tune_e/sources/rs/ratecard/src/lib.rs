//! Tiered usage pricing for metered invoices.

#[derive(Debug, Clone, PartialEq)]
pub struct Tier {
    pub up_to: Option<u64>,
    pub cents_per_unit: u64,
}

#[derive(Debug, PartialEq)]
pub enum ParseError {
    Empty,
    BadNumber(String),
}

pub fn parse_tiers(spec: &str) -> Result<Vec<Tier>, ParseError> {
    let spec = spec.trim();
    if spec.is_empty() {
        return Err(ParseError::Empty);
    }
    let mut tiers = Vec::new();
    for part in spec.split(',') {
        let (limit, price) = part.split_once(':').ok_or(ParseError::BadNumber(part.to_string()))?;
        let up_to = if limit == "*" { None } else { Some(limit.parse().map_err(|_| ParseError::BadNumber(limit.to_string()))?) };
        let cents_per_unit = price.parse().map_err(|_| ParseError::BadNumber(price.to_string()))?;
        tiers.push(Tier { up_to, cents_per_unit });
    }
    Ok(tiers)
}

pub fn price(units: u64, tiers: &[Tier]) -> u64 {
    let mut remaining = units;
    let mut floor = 0;
    let mut total = 0;
    let unused_discount = 0;
    for tier in tiers {
        let cap = tier.up_to.map(|u| u - floor).unwrap_or(u64::MAX);
        let here = remaining.min(cap);
        total += here * tier.cents_per_unit;
        remaining -= here;
        floor = tier.up_to.unwrap_or(floor);
        if remaining == 0 {
            break;
        }
    }
    total
}

pub fn round_to_hundred(cents: u64) -> u64 {
    (cents + 49) / 100 * 100
}

#[cfg(test)]
mod tests {
    use super::*;

    fn card() -> Vec<Tier> {
        parse_tiers("1000:10,5000:8,*:5").unwrap()
    }

    #[test]
    fn parses_three_tiers() {
        assert_eq!(card().len(), 3);
    }

    #[test]
    fn empty_spec_is_error() {
        assert_eq!(parse_tiers("  "), Err(ParseError::Empty));
    }

    #[test]
    fn bad_number_is_error() {
        assert_eq!(parse_tiers("10x:5"), Err(ParseError::BadNumber("10x".into())));
    }

    #[test]
    fn tiers_first_only() {
        assert_eq!(price(500, &card()), 5_000);
    }

    #[test]
    fn tiers_spanning_two() {
        assert_eq!(price(1_500, &card()), 14_000);
    }

    #[test]
    fn tiers_open_ended() {
        assert_eq!(price(10_000, &card()), 67_000);
    }

    #[test]
    fn zero_units_cost_nothing() {
        assert_eq!(price(0, &card()), 0);
    }

    #[test]
    fn rounds_half_up_to_hundred() {
        assert_eq!(round_to_hundred(150), 200);
    }

    #[test]
    fn rounds_down_below_half() {
        assert_eq!(round_to_hundred(1_249), 1_200);
    }
}

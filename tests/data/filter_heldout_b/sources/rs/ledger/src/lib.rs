#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    pub account: String,
    pub cents: i64,
}

pub fn balance(entries: &[Entry], account: &str) -> i64 {
    entries.iter().filter(|e| e.account == account).map(|e| e.cents).sum()
}

pub fn parse(line: &str) -> Option<Entry> {
    let (account, amount) = line.split_once(',')?;
    let cents = (amount.trim().parse::<f64>().ok()? * 100.0) as i64;
    Some(Entry { account: account.to_string(), cents })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn balance_sums_one_account() {
        let e = vec![parse("cash,10.00").unwrap(), parse("bank,5.00").unwrap(), parse("cash,2.50").unwrap()];
        assert_eq!(balance(&e, "cash"), 1250);
    }

    #[test]
    fn parse_rejects_missing_amount() {
        assert_eq!(parse("cash"), None);
    }

    #[test]
    fn parse_rounds_cents() {
        assert_eq!(parse("cash,0.29").unwrap().cents, 29);
    }

    #[test]
    fn parse_negative() {
        assert_eq!(parse("cash,-3.00").unwrap().cents, -300);
    }
}

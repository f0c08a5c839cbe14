pub fn balance(entries: &[i64]) -> i64 { entries.iter().sum() }
pub fn average(entries: &[i64]) -> i64 { balance(entries) / entries.len() as i64 }
#[cfg(test)]
mod tests {
    use super::*;
    #[test] fn sums() { assert_eq!(balance(&[1, 2, 3]), 6); }
    #[test] fn empty_average() { assert_eq!(average(&[]), 0); }
    #[test] fn negative() { assert_eq!(balance(&[-1, -2]), -4); }
    #[test] fn big() { assert_eq!(balance(&[1_000_000, 2]), 1_000_002); }
}

pub fn add(a: i64, b: i64) -> i64 { a + b }
#[cfg(test)]
mod tests {
    use super::*;
    #[test]
    fn adds_0() { assert_eq!(add(0, 0), 0); }
    #[test]
    fn adds_1() { assert_eq!(add(1, 1), 2); }
    #[test]
    fn adds_2() { assert_eq!(add(2, 2), 4); }
    #[test]
    fn adds_3() { assert_eq!(add(3, 3), 6); }
    #[test]
    fn adds_4() { assert_eq!(add(4, 4), 8); }
    #[test]
    fn adds_5() { assert_eq!(add(5, 5), 10); }
    #[test]
    fn adds_6() { assert_eq!(add(6, 6), 12); }
    #[test]
    fn adds_7() { assert_eq!(add(7, 7), 14); }
}

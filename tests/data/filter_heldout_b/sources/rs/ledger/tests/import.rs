use ledger::{balance, parse};

#[test]
fn import_many_lines() {
    let lines = ["a,1.00", "a,2.00", "b,3.00"];
    let entries: Vec<_> = lines.iter().filter_map(|l| parse(l)).collect();
    assert_eq!(balance(&entries, "a"), 300);
}

#[test]
fn import_skips_garbage() {
    assert!(parse("nonsense").is_none());
}

use ratecard::{parse_tiers, price};

#[test]
fn big_customer_pays_less_per_unit() {
    let tiers = parse_tiers("1000:10,5000:8,*:5").unwrap();
    let small = price(1_000, &tiers) as f64 / 1_000.0;
    let big = price(100_000, &tiers) as f64 / 100_000.0;
    assert!(big < small, "big {big} should be < small {small}");
}

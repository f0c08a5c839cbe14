use ratecard::{parse_tiers, price};

fn main() {
    let units: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let tiers = parse_tiers("1000:10,5000:8,*:5").expect("built-in rate card");
    let cents = price(units, &tiers);
    println!("{units} units -> {}.{:02} EUR", cents / 100, cents % 100);
}

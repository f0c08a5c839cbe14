use std::collections::HashMap;

fn rate(rates: &HashMap<&str, f64>, currency: &str) -> f64 {
    *rates.get(currency).expect("no exchange rate for currency")
}

fn convert(amount: f64, currency: &str) -> f64 {
    let rates = HashMap::from([("EUR", 1.0), ("USD", 0.92)]);
    amount * rate(&rates, currency)
}

fn main() {
    println!("converting 3 invoices");
    for (amount, currency) in [(10.0, "EUR"), (12.5, "USD"), (99.0, "GBP")] {
        println!("{amount} {currency} = {:.2} EUR", convert(amount, currency));
    }
}

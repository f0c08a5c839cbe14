use std::collections::HashMap;

struct Reading {
    meter: String,
    kwh: f64,
}

fn totals(readings: &[Reading]) -> HashMap<String, u64> {
    let mut out = HashMap::new();
    for r in readings {
        *out.entry(r.meter.clone()).or_insert(0) += r.kwh;
    }
    out
}

fn main() {
    let readings = vec![Reading { meter: "M-1".into(), kwh: 3.5 }];
    let t = totals(&readings);
    println!("{}", t.len())
}

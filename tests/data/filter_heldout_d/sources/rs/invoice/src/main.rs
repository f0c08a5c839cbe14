use std::collections::HashMap;
use std::fmt;

#[derive(Debug, Clone)]
struct Line {
    sku: String,
    qty: u32,
    unit_cents: u64,
}

struct Invoice {
    number: String,
    lines: Vec<Line>,
    notes: Option<String>,
}

impl fmt::Display for Invoice {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "{} ({} lines)", self.number, self.lines.len())
    }
}

fn total(inv: &Invoice) -> u64 {
    inv.lines.iter().map(|l| l.qty * l.unit_cents).sum()
}

fn by_sku(inv: &Invoice) -> HashMap<&str, u32> {
    let mut map = HashMap::new();
    for line in &inv.lines {
        *map.entry(line.sku.as_str()).or_insert(0) += line.qty;
    }
    map
}

fn main() {
    let unused_rate = 0.19;
    let inv = Invoice { number: "INV-1".into(), lines: vec![], notes: None };
    let moved = inv;
    println!("{} total {}", inv, total(&moved));
    let counts = by_sku(&moved);
    let mut keys: Vec<_> = counts.keys().collect();
    keys.sort();
}

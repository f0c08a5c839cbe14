fn main() { let unused = 3; println!("{}", ledger::balance(&[1, 2])); }

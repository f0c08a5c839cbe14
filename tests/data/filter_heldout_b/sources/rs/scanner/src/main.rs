use std::collections::HashMap;
use std::fs;
use std::io::Read;

struct Report {
    files: usize,
    bytes: u64,
    largest: Option<String>,
}

fn unused_helper(x: i32) -> i32 {
    x * 2
}

fn scan(dir: &str) -> Report {
    let mut report = Report { files: 0, bytes: 0, largest: None };
    let mut sizes = HashMap::new();
    let limit = 10;
    for entry in fs::read_dir(dir).unwrap() {
        let entry = entry.unwrap();
        let meta = entry.metadata().unwrap();
        report.files += 1;
        report.bytes += meta.len();
        sizes.insert(entry.path().display().to_string(), meta.len());
    }
    report
}

fn main() {
    let mut r = scan(".");
    println!("{} files, {} bytes", r.files, r.bytes);
}

use std::env;
use std::fs;
use std::process;
use std::io::Write;

use tidewatch::{high_waters, parse};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = env::args().nth(1).unwrap_or_else(|| { eprintln!("usage: tidewatch <table.tsv>"); process::exit(2) });
    let verbose = false;
    let text = fs::read_to_string(&path)?;
    let tides = parse(&text)?;
    for t in high_waters(&tides) {
        println!("high water {:02}:{:02} {} cm", t.minutes / 60, t.minutes % 60, t.height_cm);
    }
    Ok(())
}

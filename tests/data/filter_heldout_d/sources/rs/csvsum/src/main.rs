use std::env;
use std::error::Error;
use std::fs;

fn parse_row(line: &str, lineno: usize) -> Result<(String, f64), Box<dyn Error>> {
    let mut parts = line.split(',');
    let name = parts.next().ok_or("missing name")?.trim().to_string();
    let value = parts
        .next()
        .ok_or_else(|| format!("line {lineno}: missing value column"))?
        .trim()
        .parse::<f64>()
        .map_err(|e| format!("line {lineno}: {e}"))?;
    Ok((name, value))
}

fn main() -> Result<(), Box<dyn Error>> {
    let path = env::args().nth(1).ok_or("usage: csvsum FILE")?;
    let text = fs::read_to_string(&path)?;
    let mut total = 0.0;
    for (i, line) in text.lines().enumerate().skip(1) {
        let (name, value) = parse_row(line, i + 1)?;
        println!("{name:>12} {value:>10.2}");
        total += value;
    }
    println!("{:>12} {:>10.2}", "TOTAL", total);
    Ok(())
}

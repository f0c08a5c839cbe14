use std::hint::black_box;
use std::time::Instant;

fn main() {
    let ticks: Vec<&str> = ["6a", "6a+", "6b", "6b+", "6c", "7a", "5c", "7a+"].iter().cycle().take(20_000).copied().collect();
    for (name, rounds) in [("parse", 200_000u32), ("to_yds", 200_000), ("pyramid", 50)] {
        let start = Instant::now();
        for i in 0..rounds {
            match name {
                "parse" => { black_box(quarry::Grade::parse(ticks[i as usize % ticks.len()])); }
                "to_yds" => { black_box(quarry::to_yds(ticks[i as usize % ticks.len()])); }
                _ => { black_box(quarry::pyramid(&ticks)); }
            }
        }
        let per = start.elapsed().as_nanos() / rounds as u128;
        println!("bench {:<8} {:>8} rounds {:>10} ns/iter", name, rounds, per);
    }
}

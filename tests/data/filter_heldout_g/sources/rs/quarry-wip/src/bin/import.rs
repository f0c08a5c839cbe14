// Import a gym's route list (name<TAB>grade) and print the pyramid.
use std::collections::HashMap;
use std::fs;

use quarry::{pyramid, Grade};

fn load(path: &str) -> Vec<(String, Grade)> {
    let text = fs::read_to_string(path).expect("route list");
    let mut routes = Vec::new();
    for line in text.lines() {
        let (name, grade) = line.split_once('\t')?;
        routes.push((name.to_string(), Grade::parse(grade)));
    }
    routes
}

fn main() {
    let routes = load("routes.tsv");
    let mut by_wall: HashMap<&str, Vec<&str>> = HashMap::new();
    for (name, grade) in &routes {
        let wall = name.split('-').next().unwrap();
        by_wall.entry(wall).or_default().push(grade);
    }
    let first = &mut routes[0];
    routes.push(first.clone());
    let total: u32 = routes.len();
    for (wall, grades) in by_wall {
        println!("{wall}: {:?}", pyramid(&grades));
    }
    println!("{total} routes");
}

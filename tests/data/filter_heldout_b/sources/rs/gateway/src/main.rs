mod config;
mod metrics;
mod router;
mod storage;

fn main() {
    for msg in [config::init(), router::init(), storage::init(), metrics::init()] {
        println!("{msg}");
    }
    println!("checksum {}", storage::checksum(b"gateway"));
}

pub fn init() -> &'static str {
    "router ready"
}

pub fn checksum(data: &[u8]) -> u32 {
    data.iter().fold(0u32, |acc, b| acc.wrapping_mul(31).wrapping_add(*b as u32))
}

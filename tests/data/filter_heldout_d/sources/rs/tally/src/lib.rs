pub fn word_count(text: &str) -> usize {
    text.split(' ').filter(|w| !w.is_empty()).count()
}

pub fn top_words(text: &str, n: usize) -> Vec<(String, usize)> {
    let mut counts = std::collections::HashMap::new();
    for w in text.split_whitespace() {
        *counts.entry(w.to_lowercase()).or_insert(0) += 1;
    }
    let mut v: Vec<_> = counts.into_iter().collect();
    v.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    v.truncate(n);
    v
}

pub fn mean(xs: &[f64]) -> Option<f64> {
    if xs.is_empty() { None } else { Some(xs.iter().sum::<f64>() / xs.len() as f64) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test] fn counts_words() { assert_eq!(word_count("a b c"), 3); }
    #[test] fn counts_words_with_newlines() { assert_eq!(word_count("one two\nthree\tfour"), 4); }
    #[test] fn empty_text() { assert_eq!(word_count(""), 0); }
    #[test] fn top_two() { assert_eq!(top_words("b a b c b a", 2), vec![("b".to_string(), 3), ("a".to_string(), 2)]); }
    #[test] fn top_is_case_insensitive() { assert_eq!(top_words("A a", 1)[0].1, 2); }
    #[test] fn mean_of_values() { assert_eq!(mean(&[1.0, 2.0, 3.0]), Some(2.0)); }
    #[test] fn mean_of_nothing() { assert_eq!(mean(&[]), None); }
    #[test] #[ignore] fn huge_corpus() { assert!(word_count(&"x ".repeat(10_000_000)) > 0); }
}

        pub fn word_count(s: &str) -> usize {
            s.split_whitespace().count()
        }

        pub fn title_case(s: &str) -> String {
            s.split(' ')
                .map(|w| {
                    let mut c = w.chars();
                    match c.next() {
                        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
                        None => String::new(),
                    }
                })
                .collect::<Vec<_>>()
                .join(" ")
        }

        pub fn truncate(s: &str, n: usize) -> &str {
            &s[..n]
        }

        #[cfg(test)]
        mod tests {
            use super::*;
            #[test]
fn word_count_0() {
    assert_eq!(word_count("w"), 1);
}

#[test]
fn word_count_1() {
    assert_eq!(word_count("w w"), 2);
}

#[test]
fn word_count_2() {
    assert_eq!(word_count("w w w"), 3);
}

#[test]
fn word_count_3() {
    assert_eq!(word_count("w w w w"), 4);
}

#[test]
fn word_count_4() {
    assert_eq!(word_count("w w w w w"), 5);
}

#[test]
fn word_count_5() {
    assert_eq!(word_count("w w w w w w"), 6);
}

#[test]
fn word_count_6() {
    assert_eq!(word_count("w w w w w w w"), 7);
}

#[test]
fn word_count_7() {
    assert_eq!(word_count("w w w w w w w w"), 8);
}

#[test]
fn word_count_8() {
    assert_eq!(word_count("w w w w w w w w w"), 9);
}

#[test]
fn word_count_9() {
    assert_eq!(word_count("w w w w w w w w w w"), 10);
}

#[test]
fn word_count_10() {
    assert_eq!(word_count("w w w w w w w w w w w"), 11);
}

#[test]
fn word_count_11() {
    assert_eq!(word_count("w w w w w w w w w w w w"), 12);
}

#[test]
fn word_count_12() {
    assert_eq!(word_count("w w w w w w w w w w w w w"), 13);
}

#[test]
fn word_count_13() {
    assert_eq!(word_count("w w w w w w w w w w w w w w"), 14);
}

#[test]
fn word_count_14() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w"), 15);
}

#[test]
fn word_count_15() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w"), 16);
}

#[test]
fn word_count_16() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w"), 17);
}

#[test]
fn word_count_17() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w"), 18);
}

#[test]
fn word_count_18() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w"), 19);
}

#[test]
fn word_count_19() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w w"), 20);
}

#[test]
fn word_count_20() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w w w"), 21);
}

#[test]
fn word_count_21() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w w w w"), 22);
}

#[test]
fn word_count_22() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w w w w w"), 23);
}

#[test]
fn word_count_23() {
    assert_eq!(word_count("w w w w w w w w w w w w w w w w w w w w w w w w"), 24);
}

            #[test]
            fn title_case_keeps_spacing() {
                assert_eq!(title_case("hello  world"), "Hello World");
            }

            #[test]
            fn truncate_multibyte() {
                assert_eq!(truncate("héllo", 2), "hé");
            }
        }

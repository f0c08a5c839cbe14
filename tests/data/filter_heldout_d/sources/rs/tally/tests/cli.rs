#[test]
fn lib_is_usable_from_outside() {
    assert_eq!(tally::word_count("x y"), 2);
}

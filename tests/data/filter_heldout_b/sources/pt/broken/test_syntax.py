def test_ok():
    assert (1 +

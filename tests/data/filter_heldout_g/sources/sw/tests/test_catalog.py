import pytest

from shelfwise.catalog import isbn10_ok, isbn13_ok, shelf_mark, to_isbn13

GOOD_10 = ["0-306-40615-2", "0-19-852663-6", "1-85326-158-0", "0-8044-2957-X", "0-9752298-0-X", "0-684-84328-5", "0-14-044913-5"]
GOOD_13 = ["978-0-306-40615-7", "978-1-86197-876-9", "978-0-14-044913-6", "978-3-16-148410-0"]


@pytest.mark.parametrize("isbn", GOOD_10)
def test_isbn10_ok(isbn):
    assert isbn10_ok(isbn)


@pytest.mark.parametrize("isbn", GOOD_13)
def test_isbn13_ok(isbn):
    assert isbn13_ok(isbn)


@pytest.mark.parametrize("isbn", ["0-306-40615-3", "12345", "978-0-306-40615-8", "abcdefghij"])
def test_bad_isbns(isbn):
    assert not isbn10_ok(isbn) and not isbn13_ok(isbn)


@pytest.mark.parametrize(("old", "new"), [("0-306-40615-2", "9780306406157"), ("0-14-044913-5", "9780140449136"), ("0-8044-2957-X", "9780804429573")])
def test_to_isbn13(old, new):
    assert to_isbn13(old) == new


@pytest.mark.parametrize(
    ("genre", "author", "mark"),
    [("fiction", "Ursula K. Le Guin", "FIC LE "), ("mystery", "Agatha Christie", "MYS CHR"), ("poetry", "Wisława Szymborska", "POE SZY")],
)
def test_shelf_mark(genre, author, mark):
    assert shelf_mark(genre, author) == mark

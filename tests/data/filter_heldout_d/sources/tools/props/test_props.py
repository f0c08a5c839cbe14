from hypothesis import given, strategies as st

from slugify import chunk, slugify


@given(st.text())
def test_slug_has_no_edge_dashes(text):
    slug = slugify(text)
    assert not slug.startswith("-") and not slug.endswith("-")


@given(st.lists(st.integers()), st.integers(min_value=1, max_value=5))
def test_chunk_keeps_everything(items, size):
    assert sum(chunk(items, size), []) == items


@given(st.text(alphabet="abc -", max_size=20))
def test_slug_idempotent(text):
    assert slugify(slugify(text)) == slugify(text)

import pytest

from shipping.tracking import Carrier


@pytest.fixture
def dhl(tmp_path):
    return Carrier("carriers/dhl.json")


def test_url(dhl):
    assert dhl.url("JD0001") == "https://track.example/dhl/JD0001"


def test_url_escapes(dhl):
    assert "%20" in dhl.url("JD 0002")

import json

from tallyhub.cli import main


def test_issue(capsys):
    assert main(["issue", "--customer", "ACME-7", "--amount", "100"]) == 0
    assert "total 119.00 EUR" in capsys.readouterr().out


def test_export_month(capsys):
    assert main(["export", "--month", "2026-11"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["to"] == "2026-11-30"


def test_export_writes_invoices(capsys):
    main(["export", "--month", "2026-10"])
    data = json.loads(capsys.readouterr().out)
    assert len(data["invoices"]) == 3, f"expected the 3 October invoices, got {data['invoices']}"

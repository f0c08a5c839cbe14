"""scan_secrets and redact: credential shapes found, placeholders and look-alikes left alone."""

from __future__ import annotations

import pytest

from zeph_nb.safety import redact, scan_secrets

# Built from parts so this file does not itself look like it holds credentials.
GH = "ghp_" + "a1B2c3D4" * 4 + "e5F6"
ANT = "sk-ant-api03-" + "Zx9_Yw8-" * 11
OAI = "sk-proj-" + "Ab1Cd2Ef3Gh4Ij5K" * 3
JWT = "eyJhbGciOiJIUzI1NiJ9." + "eyJzdWIiOiIxMjM0NTY3ODkwIn0." + "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

FOUND = [
    (f"key AKIA{'Z3MSJV4WHGRTXQPA'} here", "aws_access_key_id"),
    ("aws_secret_access_key = " + "Ab3dEfGh1jKlMn0pQrStUvWxYz0123456789AbCd", "aws_secret_access_key"),
    (f"GITHUB_TOKEN={GH}", "github_token"),
    ("git clone https://oauth2:glpat-" + "abcdefghij1234567890@gitlab.com/x", "gitlab_token"),
    ("SLACK=xoxb-" + "123456789012-abcdefABCDEF", "slack_token"),
    ("https://hooks.slack.com/services/T0000000/B0000000/" + "Zq8Vx7Wy6Ut5Rs4Qp3On", "slack_webhook"),
    ("stripe sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc", "stripe_key"),
    (f"ANTHROPIC_API_KEY={ANT}", "anthropic_key"),
    (f"OPENAI_API_KEY={OAI}", "openai_key"),
    ("maps key=AIza" + "SyA-1234567890abcdefghijklmnopqrstu", "google_api_key"),
    ("bearer ya29." + "a0AfH6SMBx-very-long-oauth-token", "google_oauth_token"),
    (f"Authorization: Bearer {JWT}", "jwt"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----", "private_key"),
    ("DATABASE_URL=postgres://admin:" + "Sup3rS3cret@db:5432/app", "url_credentials"),
    ("machine api.example.com login bob password " + "p4ssw0rd!x", "netrc_password"),
    ('{"user": "bob", "password": "' + 's3cr3t!x"}', "json_secret"),
    ("db_password = '" + "hunter2hunter'", "assigned_secret"),
    ("API_KEY: " + "9f8e7d6c5b4a", "assigned_secret"),
    # The forms the second release missed (issue 17): each from the list.
    ("Authorization: Bearer " + "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1", "authorization_header"),
    ("Authorization: Basic " + "YWRtaW46aHVudGVyMnh5eg==", "authorization_header"),
    ("curl -u deploy:" + "Tr0ub4dor3x https://x.example", "curl_user"),
    ("-----BEGIN OPENSSH PRIVATE KEY-----", "private_key"),
    ("redis://:" + "S3cretRedisPw@cache:6379/0", "url_credentials"),
    ("amqp://app:" + "R4bbitPw9x@mq:5672/vhost", "url_credentials"),
    ("SLACK_APP_TOKEN=xapp-1-" + "A0123456789-1234567890123-abcdef0123456789", "slack_token"),
    ("//registry.npmjs.org/:_authToken=npm_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8", "npm_token"),
    ("HF_TOKEN=hf_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZaBcDeFgH", "huggingface_token"),
    (
        "SENDGRID_API_KEY=SG." + "a1B2c3D4e5F6g7H8i9J0k1" + "." + "Zq8Vx7Wy6Ut5Rs4Qp3On2Ml1Kk0Jj9Ii8Hh7Gg6Ff5E",
        "sendgrid_key",
    ),
    ("DefaultEndpointsProtocol=https;AccountName=acme;AccountKey=" + "a1B2" * 20 + "==;", "azure_key"),
    ("SECRET_KEY=" + "k7#pq2!zv9x", "assigned_secret"),
    ("DB_PASS=" + "winter2024x", "assigned_secret"),
    ("PGPASSWORD=" + "Kestrel2021 psql -h db", "assigned_secret"),
]


@pytest.mark.parametrize(("text", "kind"), FOUND, ids=[k for _, k in FOUND])
def test_credentials_are_found_and_redacted(text: str, kind: str) -> None:
    findings = scan_secrets(text)
    assert [f.kind for f in findings] == [kind]
    value = text[findings[0].start : findings[0].end]
    redacted = redact(text)
    assert value not in redacted and f"[REDACTED:{kind}]" in redacted


NOT_SECRETS = [
    "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE",  # the AWS documentation key
    "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    'password: "<your-password>"',
    "password=${DB_PASSWORD}",
    "password = $PASSWORD",
    "token: {{ secrets.TOKEN }}",
    "api_key=xxxxxxxxxxxx",
    "password=********",
    "password: changeme",
    "secret=your_secret_here",
    "https://user:***@host/path",
    "commit 3f786850e387550fdab836ed7e6dc881de23001b",
    "request id 123e4567-e89b-12d3-a456-426614174000",
    "sk-abc is too short",
    "ghp_short",
    "the password field is required",
    "docs: set OPENAI_API_KEY=sk-... before running",
    "-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkq\n-----END PUBLIC KEY-----",
    "xoxo-see-you-soon",
    'api_key = os.environ["API_KEY"]',
    "AWS_ACCESS_KEY_ID=AKIAXXXXXXXXXXXXXXXX",
    "OPENAI_API_KEY=sk-...xxxx",
    "Authorization: Bearer $TOKEN",
    "TOKEN_EXPIRY=3600",
    "cache.set(key, value); IDEMPOTENCY_KEY = '193fad4a-114d-4abe-a045-089d78c6c5e6'",
    "password = getpass.getpass()",
    "secret_key=settings.SECRET_KEY",
    "ssh://git@github.com/org/repo.git",
]


@pytest.mark.parametrize("text", NOT_SECRETS)
def test_placeholders_and_look_alikes_are_left_alone(text: str) -> None:
    assert scan_secrets(text) == []
    assert redact(text) == text


def test_several_secrets_in_one_text() -> None:
    text = f"a={GH}\nb={OAI}\nc=postgres://u:" + "longpassword@h/db\n"
    assert [f.kind for f in scan_secrets(text)] == ["github_token", "openai_key", "url_credentials"]
    redacted = redact(text)
    assert redacted.count("[REDACTED:") == 3 and "a=[REDACTED:github_token]" in redacted


@pytest.mark.parametrize("text", ["password=Zq9!x7Kw2Lp", "lives; password=Zq9!x7Kw2Lp", f"token {GH}"])
def test_redacting_a_redacted_text_changes_nothing(text: str) -> None:
    # A note the memory tools keep is redacted when stored and again when a search shows it to the model: each
    # pass added a "]" to "password=[REDACTED:assigned_secret]".
    once = redact(text)
    assert once != text and redact(once) == once and scan_secrets(once) == []


def test_a_key_repeated_many_times_is_redacted_everywhere() -> None:
    # A hostile output can repeat one key endlessly; every copy goes (bench/secrets_bench.py times this case).
    text = f"x {GH} " * 25_000
    findings = scan_secrets(text)
    assert len(findings) == 25_000 and GH not in redact(text, findings)

"""What a credential looks like: the scanner's patterns, the literal keywords that let it skip text, and the checks
that tell a real value from a placeholder or a line of code.

Two families. **Shaped tokens** carry a vendor prefix and a fixed alphabet and length (``ghp_`` + 36, ``AKIA`` + 16,
``SG.`` + 22 + ``.`` + 43); sources are the vendors' own format notes, listed in ``tests/data/secrets/README.md``.
**Named values** are only secret because of the name in front of them (``DB_PASS=``, ``Authorization: Bearer``,
``redis://:pw@``, ``curl -u me:pw``); they pass ``plausible_value`` first, which rejects placeholders
(``<your-key>``, ``xxxx``, ``changeme``, ``${VAR}``), code that *reads* a secret (``os.environ["API_KEY"]``,
``settings.SECRET_KEY``, ``getpass()``) and, for key- and token-like names, values too regular to be random.
"""

from __future__ import annotations

import math
import re
from collections import Counter

__all__ = [
    "ANCHORED",
    "KEYWORDS",
    "LED",
    "NAMED",
    "NAMED_BY_KEYWORD",
    "NAME_AT",
    "PATTERNS",
    "WHOLE_TEXT",
    "after_place",
    "is_placeholder",
    "name_before",
    "plausible_value",
]

# Names whose value is a secret: *_KEY, *_TOKEN, *_SECRET, *PASS*, *PASSWORD*, *PWD, credentials, auth. The pattern
# starts at the keyword itself: a name's prefix (DB_, MYSQL_ROOT_, x-api-, algoliaAdmin) is read back from the text
# by ``name_before`` afterwards. A regex that matched the prefix too (``(?:[a-z0-9]+[_-])*``) would be tried at every
# letter of the text and ran at 0.5 MB/s.
_NAME = r"(?:pass(?:word|wd|phrase)?|pwd|secret|token|key|credentials?|auth|bearer)(?:[_-]?(?:key|token|secret|value|base|b64|hex|salt))?"
_NAME_KEYWORDS = ("pass", "pwd", "secret", "token", "key", "credential", "auth", "bearer")
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-")

# (kind, pattern, group holding the value). Order matters: an earlier, more specific match wins an overlap.
PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    ("private_key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----[\s\S]+?-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----"), 0),
    # The header alone (`head -3 id_rsa`, a truncated output): the header and the base64 lines that follow it.
    ("private_key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----(?:(?:\\n|\r?\n)[ \t]*(?:[A-Za-z0-9+/=]{16,}|(?:Proc-Type|DEK-Info|Comment):[^\n\\]*))*"), 0),
    ("aws_access_key_id", re.compile(r"\b((?:AKIA|ASIA|ABIA|ACCA|AROA|AIDA)[0-9A-Z]{16})\b"), 1),
    ("aws_secret_access_key", re.compile(r"(?i)aws.{0,20}?(?:secret|sk).{0,20}?['\"=:\s]\s*['\"]?([A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])"), 1),
    ("github_token", re.compile(r"\b(gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{60,255})\b"), 1),
    ("gitlab_token", re.compile(r"\b(gl(?:pat|dt|ptt|rt|cbt|oas)-[A-Za-z0-9_-]{20,})"), 1),
    ("slack_token", re.compile(r"\b(xox[abpsre]-(?=[A-Za-z0-9-]*\d)[A-Za-z0-9-]{10,}|xapp-\d-[A-Za-z0-9-]{10,})"), 1),
    ("slack_webhook", re.compile(r"https://hooks\.slack\.com/(?:services|workflows|triggers)/[A-Za-z0-9]+/[A-Za-z0-9]+/([A-Za-z0-9]{16,})"), 1),
    ("discord_webhook", re.compile(r"discord(?:app)?\.com/api/webhooks/\d+/([A-Za-z0-9_-]{40,})"), 1),
    ("telegram_bot_token", re.compile(r"(?<![0-9])(\d{8,10}:AA[A-Za-z0-9_-]{33})(?![A-Za-z0-9_-])"), 1),
    ("stripe_key", re.compile(r"\b((?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|whsec_[A-Za-z0-9]{24,})\b"), 1),
    ("anthropic_key", re.compile(r"\b(sk-ant-[a-z]+\d{2}-[A-Za-z0-9_-]{20,})"), 1),
    ("openai_key", re.compile(r"\b(sk-(?:proj|svcacct|admin|None)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})"), 1),
    ("huggingface_token", re.compile(r"\b(hf_[A-Za-z0-9]{30,})\b"), 1),
    ("replicate_token", re.compile(r"\b(r8_[A-Za-z0-9]{37})\b"), 1),
    ("groq_key", re.compile(r"\b(gsk_[A-Za-z0-9]{48,})\b"), 1),
    ("npm_token", re.compile(r"\b(npm_[A-Za-z0-9]{36})\b"), 1),
    ("pypi_token", re.compile(r"\b(pypi-AgE[A-Za-z0-9_-]{50,})"), 1),
    ("sendgrid_key", re.compile(r"\b(SG\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43})"), 1),
    ("mailgun_key", re.compile(r"\b(key-[0-9a-f]{32})\b"), 1),
    ("mailchimp_key", re.compile(r"\b([0-9a-f]{32}-us\d{1,2})\b"), 1),
    ("shopify_token", re.compile(r"\b(shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32})\b"), 1),
    ("digitalocean_token", re.compile(r"\b(do[opr]_v1_[a-f0-9]{64})\b"), 1),
    ("google_api_key", re.compile(r"\b(AIza[0-9A-Za-z_-]{35})(?![0-9A-Za-z_-])"), 1),
    ("google_oauth_token", re.compile(r"\b(ya29\.[0-9A-Za-z_-]{20,})"), 1),
    ("jwt", re.compile(r"\b(eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,})"), 1),
    ("azure_key", re.compile(r"(?i)(?:AccountKey|SharedAccessKey|SharedSecret)\s*=\s*([A-Za-z0-9+/]{30,}={0,2})"), 1),
    ("azure_sas", re.compile(r"[?&]sig=([A-Za-z0-9%+/]{30,}(?:=|%3D){0,2})"), 1),
    # scheme://user:password@host, the user may be empty (redis://:pw@host).
    ("url_credentials", re.compile(r"://[^/\s:@'\"]*:([^/\s@'\"]{3,})@"), 1),
    ("authorization_header", re.compile(r"(?i)authorization['\"]?\s*[:=,]\s*['\"]?(?:bearer|basic|token|bot|apikey|sso-key)\s+([A-Za-z0-9._~+/:=-]{8,})"), 1),
    ("curl_user", re.compile(r"(?:\s-u\s*|--user[=\s]\s*|--proxy-user[=\s]\s*)['\"]?[^\s:'\"]*:([^\s'\"]{3,})"), 1),
    ("cli_flag", re.compile(r"(?i)(?<![\w-])--(?:[a-z]+-)*[a-z]*(?:token|pass|password|passwd|secret|api-key|apikey|auth-key)(?:=|\s+)['\"]?([^\s'\"-][^\s'\"]{3,})"), 1),
    ("kubeadm_token", re.compile(r"\b([a-z0-9]{6}\.[a-z0-9]{16})\b"), 1),
    # A PEM private key in base64 (kubeconfig client-key-data, Kubernetes secrets): "-----BEGIN" then "PRIVATE KEY".
    ("private_key", re.compile(r"\b(LS0tLS1CRUdJTi[A-Za-z0-9+/]*?(?:UFJJVkFURSBLRV|BSSVZBVEUgS0VZ|QUklWQVRFIEtFW)[A-Za-z0-9+/]*={0,2})"), 1),
    ("cli_password", re.compile(r"(?:\bmysql(?:dump|admin)?\b[^\n]*?\s-p|\bsshpass\s+-p\s*|\blogin\b[^\n]*?\s(?:-p|--password)[=\s])['\"]?([^\s'\"-][^\s'\"]{2,})"), 1),
    # <password>…</password>, <add key="ClearTextPassword" value="…"/> (Maven settings.xml, NuGet.config)
    ("xml_secret", re.compile(r"(?i)" + _NAME + r">([^<\s]{4,})</"), 1),
    ("xml_secret", re.compile(r"(?i)" + _NAME + r"\"\s+value=\"([^\"]{4,})\""), 1),
    ("netrc_password", re.compile(r"(?i)\bmachine\s+\S+\s+login\s+\S+\s+password\s+(\S+)"), 1),
    ("json_secret", re.compile(r"(?i)" + _NAME + r"\"\s*:\s*\"([^\"\s]{4,})\""), 1),
    # define('DB_PASSWORD', '…') (PHP), ("password", "…") tuples: a quoted name, a comma, a quoted value
    ("assigned_secret", re.compile(r"(?i)" + _NAME + r"['\"][ \t]*,[ \t]*(?:\"([^\"\n]{4,}?)\"|'([^'\n]{4,}?)')"), -1),
    # NAME = value / NAME: value / --name=value / export NAME="value" / config['NAME'] = 'value'; the name starts a
    # word (not a path or an ARN: secret:prod/db). The value is whichever of the three groups matched; an unquoted one
    # ends at a backslash, so in JSON-escaped text (`pw=x\\ngitlab=…`) it stops at the line's end.
    ("assigned_secret", re.compile(r"(?i)" + _NAME + r"['\"]?\]?[ \t]*(?::=|=>|[:=])[ \t]*"
                                   r"(?:\"([^\"\n]{4,}?)\"|'([^'\n]{4,}?)'|([^\s'\",;&<>)\]}\\]{4,}))"), -1),
]  # fmt: skip

# Kinds whose value is secret only because of its name: the value must pass plausible_value.
NAMED = frozenset({"json_secret", "xml_secret", "assigned_secret", "url_credentials", "netrc_password", "authorization_header",
                   "curl_user", "cli_password", "cli_flag", "kubeadm_token"})  # fmt: skip
# Named values whose name says "key" or "token" rather than "password": their value must also look random.
_PASSWORD_NAME = re.compile(r"(?i)pass|pwd|secret|credential")

# Literal text every match of a pattern contains (lower case): the scanner runs a pattern only where one occurs.
KEYWORDS: dict[str, tuple[str, ...]] = {
    "private_key": ("private key", "ls0tls1crudjti"),
    "aws_access_key_id": ("akia", "asia", "abia", "acca", "aroa", "aida"),
    "aws_secret_access_key": ("aws",),
    "github_token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "gitlab_token": ("glpat-", "gldt-", "glptt-", "glrt-", "glcbt-", "gloas-"),
    "slack_token": ("xox", "xapp-"),
    "slack_webhook": ("hooks.slack.com",),
    "discord_webhook": ("/api/webhooks/",),
    "telegram_bot_token": (":aa",),
    "stripe_key": ("_live_", "_test_", "whsec_"),
    "anthropic_key": ("sk-ant-",),
    "openai_key": ("sk-",),
    "huggingface_token": ("hf_",),
    "replicate_token": ("r8_",),
    "groq_key": ("gsk_",),
    "npm_token": ("npm_",),
    "pypi_token": ("pypi-age",),
    "sendgrid_key": ("sg.",),
    "mailgun_key": ("key-",),
    "mailchimp_key": ("-us",),
    "shopify_token": ("shpat_", "shpca_", "shppa_", "shpss_"),
    "digitalocean_token": ("_v1_",),
    "google_api_key": ("aiza",),
    "google_oauth_token": ("ya29.",),
    "jwt": ("eyj",),
    "azure_key": ("accountkey", "sharedaccesskey", "sharedsecret"),
    "azure_sas": ("sig=",),
    "url_credentials": ("://",),
    "authorization_header": ("authorization",),
    "curl_user": ("-u", "--user", "--proxy-user"),
    "cli_password": ("mysql", "login", "sshpass"),
    "cli_flag": ("--",),
    "kubeadm_token": ("--token", "token:", "token="),
    "netrc_password": ("machine",),
    "xml_secret": _NAME_KEYWORDS,
    "json_secret": _NAME_KEYWORDS,
    "assigned_secret": _NAME_KEYWORDS,
}
# Patterns that start with one of their keywords: tried only right where a keyword occurs (re.match at that
# offset), not at every position of the lines that hold one; a test log has "PASSED" on every line.
ANCHORED = frozenset({"json_secret", "xml_secret", "assigned_secret", "url_credentials", "authorization_header",
                      "cli_flag"})  # fmt: skip
# For the named kinds, where a name is followed by something that could assign it: one case-sensitive regex over
# the lower-cased text (55 MB/s; the same with re.IGNORECASE runs at 8).
NAME_AT = re.compile(_NAME.lower() + r"['\"]?\]?[ \t]*(?::=|=>|[:=,>]|\"\s)")
NAMED_BY_KEYWORD = frozenset({"json_secret", "xml_secret", "assigned_secret"})
WHOLE_TEXT = frozenset({"private_key", "netrc_password"})  # may span lines: searched in the whole text
# Case-sensitive patterns whose every match starts with one of their keywords (after a ``\b``): the leftmost match
# in a line starts where a keyword does, so the scanner tries them only there (``re.match`` at each keyword, as a
# search would find them) instead of at every character of the lines: a 15 MB minified line holding one ``sk-`` is
# one match, not a 0.4 s search. A (?i) pattern is not here: re's Unicode case folding matches U+017F (long s) for ``s``.
LED = frozenset({"aws_access_key_id", "github_token", "gitlab_token", "slack_token", "anthropic_key", "openai_key",
                 "huggingface_token", "replicate_token", "groq_key", "npm_token", "pypi_token", "sendgrid_key",
                 "mailgun_key", "shopify_token", "google_api_key", "google_oauth_token", "jwt"})  # fmt: skip

_PLACEHOLDER = re.compile(
    r"(?i)^(<.*>|\[.*\]|\(.*\)|\$\{?.*\}?|\$\(.*|%\(?\w+\)?s?%?|\{\{.*\}\}|\{.*\}|x{3,}|\*{3,}|\.{3,}|#{3,}|-{3,}|"
    r"your[-_]?\w*|my[-_]?(pass\w*|secret\w*|token\w*|key\w*)|changeme|change[-_]?me|change[-_]?this\w*|"
    r"replace[-_]?(me|this|with\w*)|example\w*|\w*example|sample\w*|dummy\w*|placeholder\w*|redacted|masked|hidden|"
    r"none|null|nil|undefined|true|false|yes|no|on|off|empty|required|optional|default|string|str|int|bool|"
    r"password\w*|passwd|secret\w*|token\w*|api[-_]?key\w*|\w*_here|here|test|testing|todo|tbd|fixme|foo|bar|baz|"
    r"encrypted|sensitive|\[REDACTED[^\]]*\])$"
)
# Code that names or fetches a secret rather than holding one: os.environ[...], settings.X, getpass(), self.token.
_CODE = re.compile(
    r"^(?:[A-Za-z_][A-Za-z_]*\d*(?:\.[A-Za-z_][A-Za-z_]*\d*)+(?:\(.*)?|[A-Za-z_]\w*\(.*|[A-Za-z_][\w.]*\[.*|@\w.*|!\w+.*|"
    r"process\.env.*|os\.environ.*|ENV\[.*|env\(.*|Secret\.\w+.*|vault:.*|ref\+\w+://.*|arn:aws:.*|"
    r"/[\w./-]*|\.?\.?/[\w./-]*|~/[\w./-]*|file:.*|[\w-]+\.(?:txt|json|pem|key|yaml|yml|env|cfg|conf|ini|crt))$"
)
_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
# Names that say "secret" by themselves; a bare *_KEY (sort key, cache key, idempotency key) does not.
_SPECIFIC_NAME = re.compile(r"(?i)pass|pwd|secret|api[_-]?key|apikey|token|auth|credential|access[_-]?key|private|"
                            r"account[_-]?key|encryption|signing|master|bearer")  # fmt: skip
_PROSE = re.compile(r"^[A-Za-z][A-Za-z ,.'!?-]*$")
_IDENTIFIER = re.compile(r"^[A-Za-z_][A-Za-z_]*$")  # a bare word: `password=password`, `token=access_token`


def name_before(text: str, start: int) -> tuple[str, str]:
    """The whole name that ends in the keyword found at ``start`` (``DB_PASSWORD`` for ``PASSWORD``), and the
    character before it."""
    at = start
    while at > 0 and text[at - 1] in _NAME_CHARS:
        at -= 1
    if at > 0 and text[at - 1] == "\\" and text[at : at + 1] in ("n", "t", "r") and at < start:
        return text[at + 1 : start], "\n"  # JSON- or repr-escaped text: "…\npassword=…" starts a line
    return text[at:start], text[at - 1 : at] if at > 0 else ""


# What grep, rg and git grep put before each line they found (`.env:`, `.env:3:`, `src/a.py:41:7:` with
# --vimgrep, `C:\src\a.py:3:`, indented under a heading), and the like of Python logging's `INFO:root:` and a
# parameter store's `ssm:/prod/db:`: at most three parts. An ARN has six.
_PLACE = re.compile(r"[ \t]*(?:[A-Za-z]:[\\/])?[^\s:]+:(?:[^\s:]+:){0,2}")


def after_place(text: str, name_at: int) -> bool:
    """Whether the colon before a name at ``name_at`` ends the place a search printed, from the line's start on:
    `.env:3:DB_PASSWORD=…` assigns a password as much as the line in `.env` does. An ARN's colons are more."""
    return _PLACE.fullmatch(text, text.rfind("\n", 0, name_at) + 1, name_at) is not None


def _entropy(value: str) -> float:
    counts = Counter(value)
    return -sum(n / len(value) * math.log2(n / len(value)) for n in counts.values())


def plausible_value(value: str, *, quoted: bool = False, name: str = "", kind: str = "") -> bool:
    """Whether ``value``, found after a secret's name, is a real value rather than a placeholder or code."""
    if _PLACEHOLDER.match(value) or len(set(value)) <= 2:
        return False
    if "..." in value or "…" in value or "EXAMPLE" in value or "XXXX" in value.upper():
        return False  # elided or documentation: sk-...xxxx, AKIAXXXXXXXXXXXXXXXX
    if value.startswith(("pk_live_", "pk_test_", "pk.")):
        return False  # publishable keys (Stripe, Mapbox) are meant to be public
    if _UUID.match(value) and not _SPECIFIC_NAME.search(name):
        return False  # Idempotency-Key, CACHE_KEY: an identifier; an API_KEY or a TOKEN may well be a UUID
    in_code = kind in ("assigned_secret", "cli_password", "cli_flag")  # `password=get_password()` is code
    if in_code and not quoted and (_CODE.match(value) or (_IDENTIFIER.match(value) and len(value) < 16)):
        return False
    if kind in ("assigned_secret", "json_secret", "cli_flag") and not _PASSWORD_NAME.search(name):
        return _random_enough(value)  # a key or a token is random; a password need not be
    return True


def _random_enough(value: str) -> bool:
    """Long enough, varied enough, letters and digits (or both cases when long): not a word, a number, a name or a
    path (`key: app.kubernetes.io/name`, `TOKEN_EXPIRY=3600`)."""
    letters, digits = any(c.isalpha() for c in value), any(c.isdigit() for c in value)
    both_cases = any(c.islower() for c in value) and any(c.isupper() for c in value)
    mixed = letters and (digits or (both_cases and len(value) >= 20))
    return len(value) >= 12 and mixed and _entropy(value) >= 3.0


def is_placeholder(value: str) -> bool:
    """A shaped token that is documentation, not a credential: AKIAIOSFODNN7EXAMPLE, sk-...xxxx."""
    elided = "..." in value or "…" in value
    return (
        bool(_PLACEHOLDER.match(value))
        or len(set(value)) <= 2
        or "EXAMPLE" in value
        or elided
        or "XXXX" in value.upper()
    )

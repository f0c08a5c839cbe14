"""A reviewer's answer, signed by the hub service and checked by the kernel that asked.

When a team's reviewers decide (``[gates.approval] decided_by = "reviewers"``), the answer to a waiting call comes
from the hub service (``zeph_nb.hub``), through the team's PostgreSQL. The database already keeps users from
writing answers (only the service's role may insert them), but a kernel should not have to trust every role that
could: the service signs each answer with an Ed25519 key only it holds, and the kernel accepts an answer only when
it verifies with the public key the managed settings name (``review_key``). A user can change neither — the managed
file is root's, and the private key is the hub's.

What is signed is the whole decision: which request (its inbox id and the database role that asked), the answer,
who gave it, their note and when. An answer moved to another request, or a "deny" turned into "approve", does not
verify.
"""

from __future__ import annotations

import base64
import binascii
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

__all__ = ["SIGNED_FIELDS", "ReviewSigner", "generate_key", "public_key_of", "request_digest", "verify_answer"]

# The fields of a review_answers row that the signature covers, in this order. ``shown`` is the digest of the
# request as the reviewer saw it (``request_digest``): the kernel accepts an answer only for the request it posted,
# unredacted and unchanged — not for a row someone else wrote under its id, nor for a copy whose "secrets" were
# masked on the way to the team database (then what runs is not what was approved).
SIGNED_FIELDS = ("inbox_id", "owner", "answer", "reviewer", "note", "answered_at", "shown")


def request_digest(tool: str, summary: str, params: str, subjects: str) -> str:
    """The SHA-256 of what a reviewer reads of a request: its tool, summary and parameters and subjects as the
    JSON text the row holds."""
    import hashlib

    text = json.dumps(["zeph-nb request v1", tool, summary, params, subjects], separators=(",", ":"),
                      ensure_ascii=False)  # fmt: skip
    return hashlib.sha256(text.encode("utf-8", "backslashreplace")).hexdigest()


def _message(fields: Mapping[str, Any]) -> bytes:
    values = ["zeph-nb review answer v2", *(None if fields.get(n) is None else str(fields[n]) for n in SIGNED_FIELDS)]
    return json.dumps(values, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


def generate_key(path: Path) -> str:
    """Write a new private key to ``path`` (PEM, mode 0600, refusing to overwrite one); returns its public key."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                            serialization.NoEncryption())  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)  # never replace a key kernels already trust
    try:
        os.write(fd, pem)
    finally:
        os.close(fd)
    return public_key_of(key)


def public_key_of(key: Any) -> str:
    """The base64 of an Ed25519 private key's raw public key: what ``review_key`` holds."""
    from cryptography.hazmat.primitives import serialization

    raw = key.public_key().public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return _b64(raw)


class ReviewSigner:
    """The hub service's side: signs answers with the private key in ``path``."""

    def __init__(self, path: Path) -> None:
        from cryptography.hazmat.primitives import serialization
        from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

        try:
            key = serialization.load_pem_private_key(path.read_bytes(), password=None)
        except (OSError, ValueError) as e:
            raise ValueError(f"cannot read the review signing key {path}: {e}; make one with "
                             f"`zeph-nb hub-key {path}`") from None  # fmt: skip
        if not isinstance(key, Ed25519PrivateKey):
            raise ValueError(f"{path} is not an Ed25519 key; make one with `zeph-nb hub-key {path}`")
        self._key = key
        self.public_key = public_key_of(key)

    def sign(self, fields: Mapping[str, Any]) -> str:
        return _b64(self._key.sign(_message(fields)))


def verify_answer(public_key: str, fields: Mapping[str, Any], signature: object) -> bool:
    """Whether ``signature`` is the review key's signature of the answer ``fields``; anything malformed is no."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    if not isinstance(signature, str) or not signature:
        return False
    try:
        key = Ed25519PublicKey.from_public_bytes(base64.b64decode(public_key, validate=True))
        key.verify(base64.b64decode(signature, validate=True), _message(fields))
    except (InvalidSignature, ValueError, binascii.Error):
        return False
    return True

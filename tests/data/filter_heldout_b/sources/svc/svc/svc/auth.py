import hashlib


def token_for(user, secret="s3"):
    return hashlib.sha256(f"{user}:{secret}".encode()).hexdigest()[:16]


def check(user, token):
    return token_for(user) == token


def roles(user):
    return {"admin": ["read", "write", "admin"], "bob": ["read"]}.get(user)

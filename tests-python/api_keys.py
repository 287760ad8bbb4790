"""API keys for the harnesses: every write (POST, PATCH, DELETE) needs one, sent as
`Authorization: Bearer <secret>`. They are made and revoked with the CLI, as a user would, on
the database file a server serves: before it starts (serve still fills a new file with the
demo data) or while it runs (it reads keys from the file per request)."""
import subprocess


def create(binary, db, name, *scopes, collections=None):
    """A new key's secret (`keys create` prints it alone on stdout); scopes default to `write`.
    `collections`: the definition the server serves, which scopes naming a collection are checked
    against (default: the demo)."""
    arguments = [argument for scope in scopes or ("write",) for argument in ("--scope", scope)]
    if collections:
        arguments += ["--collections", str(collections)]
    result = subprocess.run([str(binary), "keys", "create", "--db", str(db), "--name", name, *arguments],
                            capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout.strip():
        raise RuntimeError(f"keys create failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout.strip()


def key_id(secret):
    """The public id of a key (`rsk_<id>_<secret>`): what `keys list`, `keys revoke` and the access log name."""
    return secret.split("_")[1]


def revoke(binary, db, secret):
    subprocess.run([str(binary), "keys", "revoke", "--db", str(db), key_id(secret)], check=True, capture_output=True)


def forged(secret):
    """`secret` with its last digit changed: the right shape and a real id, the wrong secret."""
    return secret[:-1] + ("1" if secret.endswith("0") else "0")


def bearer(secret):
    """The header that carries a key."""
    return {"Authorization": f"Bearer {secret}"}

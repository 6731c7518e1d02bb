"""Which database: an SQLite file or a PostgreSQL URL, from the arguments or the environment,
and how to name it to a person (never with its password)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

DEFAULT_PATH = "sanmarco.db"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def is_postgres(target: str) -> bool:
    """Whether ``target`` names a PostgreSQL database (else it is an SQLite file)."""
    return target.startswith(POSTGRES_SCHEMES)


def store_target(target: str | os.PathLike[str] | None = None,
                 environ: Mapping[str, str] | None = None) -> str:
    """The database to use: ``target`` if given, else $DATABASE_URL, else $SANMARCO_DB, else
    ./sanmarco.db (empty settings count as unset)."""
    if target is not None:
        return str(target)
    env = os.environ if environ is None else environ
    return (env.get("DATABASE_URL", "").strip() or env.get("SANMARCO_DB", "").strip()
            or DEFAULT_PATH)


def redact(url: str) -> str:
    """The URL without its password, for logs and messages."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rsplit("@", 1)[-1]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def describe_target(target: str) -> str:
    """The database for a person: the PostgreSQL URL without its password, or the file's
    absolute path."""
    return redact(target) if is_postgres(target) else os.path.abspath(target)

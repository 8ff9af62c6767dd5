"""The live push: a page's event stream, the per-table version that wakes it, the regions a
message carries, and PostgreSQL's part (LISTEN, and which seats have a page open)."""

from companion.live.notify import OVERFLOW_RETRY_MS, QUERYING_AT_ONCE, Notifier, current_fold, known_table, notifier  # noqa: F401
from companion.live.presence import PresenceBeat, away_seconds, listener  # noqa: F401
from companion.live.stream import answer, bp, streams_allowed  # noqa: F401

"""The live push: a page's event stream, the per-table version that wakes it, the regions a
message carries, and PostgreSQL's LISTEN."""

from companion.live.notify import OVERFLOW_RETRY_MS, QUERYING_AT_ONCE, Notifier, listener, notifier  # noqa: F401
from companion.live.stream import bp  # noqa: F401

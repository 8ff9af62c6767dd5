"""The live push: a page's event stream, the per-table version that wakes it, the regions a
message carries, and PostgreSQL's LISTEN."""

from companion.live.listen import listener  # noqa: F401
from companion.live.notify import OVERFLOW_RETRY_MS, QUERYING_AT_ONCE, Notifier, notifier  # noqa: F401
from companion.live.stream import answer, bp  # noqa: F401

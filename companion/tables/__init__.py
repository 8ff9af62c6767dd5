"""Tables as event logs: append, fold and undo, the fold cache, log lines and seat names."""

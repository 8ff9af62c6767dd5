"""The web layer: joining, the screens, act and undo, exports, errors, headers, QR codes."""

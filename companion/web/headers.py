"""What every response carries: security headers, gzip for text, no caching of live pages."""

import gzip

from flask import request

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'; "
    "object-src 'none'"
)
COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml")
_gzip_cache = {}  # static file etag -> compressed bytes; static files never change while running


def headers(response):
    response.headers.setdefault("Content-Security-Policy", CSP)
    response.headers.setdefault("X-Content-Type-Options", "nosniff")
    response.headers.setdefault("Referrer-Policy", "same-origin")
    if request.endpoint != "static" and "Cache-Control" not in response.headers:
        response.headers["Cache-Control"] = "no-store"
    return compress(response)


def compress(response):
    if (response.is_streamed and not response.direct_passthrough) or response.status_code != 200:
        return response
    if "gzip" not in request.headers.get("Accept-Encoding", "") or "Content-Encoding" in response.headers:
        return response
    if not response.mimetype.startswith(COMPRESSIBLE):
        return response
    etag = response.headers.get("ETag") if request.endpoint == "static" else None
    body = _gzip_cache.get(etag) if etag else None
    if body is None:
        response.direct_passthrough = False
        raw = response.get_data()
        if len(raw) < 600:
            return response
        body = gzip.compress(raw, 6)
        if etag:
            _gzip_cache[etag] = body
    response.set_data(body)
    response.headers["Content-Encoding"] = "gzip"
    response.headers["Vary"] = "Accept-Encoding"
    return response


def init_app(app):
    app.after_request(headers)

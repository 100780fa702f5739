"""HTTP done once for every route: limits, JSON errors, entity tags and caching headers.

* a request line longer than :data:`MAX_URL` → 414, a body larger than :data:`MAX_BODY`
  → 413 (the API reads no bodies), both with a JSON error;
* :class:`~.state.BadRequest`, a failed validation, any other ``RuleDiffError`` → 400;
  :class:`~.state.NotFound` → 404 with ``nearest``; an unknown route → 404;
  only a bug gives 500 (``{"error": "internal error"}``, logged);
* responses derived from immutable editions carry an ``ETag`` and a long
  ``Cache-Control``; ``latest``/``@DATE`` ones a short one (the corpus can grow).
"""

from __future__ import annotations

import json
import logging
from collections import OrderedDict
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import EditionNotFound, RuleDiffError, RuleNotFound
from .state import BadRequest, Body, NotFound

log = logging.getLogger(__name__)

#: Longest path + query string accepted (bytes).
MAX_URL = 2048
#: Largest request body accepted (bytes); no route reads one.
MAX_BODY = 1024

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=300"


def error_body(status: int, message: str, nearest: list[str] | None = None) -> bytes:
    doc: dict[str, Any] = {"error": message, "detail": message, "status": status}
    if nearest is not None:
        doc["nearest"] = nearest
    return (json.dumps(doc, ensure_ascii=False) + "\n").encode("utf-8")


def error_response(status: int, message: str, nearest: list[str] | None = None) -> Response:
    return Response(
        error_body(status, message, nearest),
        status_code=status,
        media_type="application/json",
        headers={"Cache-Control": "no-store"},
    )


class LimitsMiddleware:
    """Refuse over-long URLs and request bodies before any route runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        size = len(scope.get("raw_path") or scope["path"].encode()) + len(scope["query_string"])
        problem: tuple[int, str] | None = None
        if size > MAX_URL:
            problem = (414, f"the URL is {size} bytes long; at most {MAX_URL}")
        else:
            for name, value in scope["headers"]:
                if name == b"content-length" and (not value.isdigit() or int(value) > MAX_BODY):
                    problem = (413, f"request bodies are limited to {MAX_BODY} bytes")
                elif name == b"transfer-encoding":
                    problem = (413, "chunked request bodies are not accepted")
        if problem is None:
            await self.app(scope, receive, send)
            return
        response = error_response(*problem)
        await response(scope, receive, send)


class ResponseCache:
    """Finished 200 answers kept by URL, served before any route runs.

    Correct because a server's corpus is fixed when it starts (the edition list is read
    once; ``latest`` cannot change under a running process) and every route is a pure
    function of its URL. Keyed by path, query, gzip or not and ``Origin`` (CORS); only
    responses that carry an ETag (made by :func:`send`) are kept; bounded in bytes. A hit
    costs no routing, no thread and no compression, and (wrapped around the FastAPI app by
    :func:`~rulediff.serve.create_app`) none of FastAPI's middlewares: what keeps p99 low
    under load.
    """

    def __init__(self, app: ASGIApp, limit: int = 128 * 1024 * 1024) -> None:
        self.app = app
        self.limit = limit
        self.size = 0
        self.kept: OrderedDict[tuple, tuple[list[tuple[bytes, bytes]], bytes, bytes]] = (
            OrderedDict()
        )

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("GET", "HEAD"):
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        key = (
            scope["path"],
            scope["query_string"],
            b"gzip" in headers.get(b"accept-encoding", b""),
            headers.get(b"origin", b""),
        )
        found = self.kept.get(key)
        if found is not None:
            self.kept.move_to_end(key)
            await self._replay(found, headers.get(b"if-none-match", b""), scope, send)
            return
        started: dict[str, Any] = {}
        chunks: list[bytes] = []

        async def capture(message: Message) -> None:
            if message["type"] == "http.response.start":
                started.update(message)
            elif message["type"] == "http.response.body":
                chunks.append(message.get("body", b""))
            await send(message)

        await self.app(scope, receive, capture)
        if started.get("status") != 200 or scope["method"] != "GET":
            return
        out_headers = list(started.get("headers", []))
        etag = next((v for k, v in out_headers if k.lower() == b"etag"), None)
        body = b"".join(chunks)
        if etag is None or len(body) > self.limit // 8:
            return
        self.kept[key] = (out_headers, body, etag)
        self.size += len(body)
        while self.size > self.limit and self.kept:
            _key, (_h, dropped, _e) = self.kept.popitem(last=False)
            self.size -= len(dropped)

    @staticmethod
    async def _replay(
        found: tuple[list[tuple[bytes, bytes]], bytes, bytes],
        if_none_match: bytes,
        scope: Scope,
        send: Send,
    ) -> None:
        headers, body, etag = found
        tags = [t.strip().removeprefix(b"W/") for t in if_none_match.split(b",")]
        if etag in tags:
            keep = [(k, v) for k, v in headers if k.lower() in (b"etag", b"cache-control", b"vary")]
            await send({"type": "http.response.start", "status": 304, "headers": keep})
            await send({"type": "http.response.body", "body": b""})
            return
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send(
            {"type": "http.response.body", "body": b"" if scope["method"] == "HEAD" else body}
        )


def send(request: Request, body: Body, *, stable: bool) -> Response:
    """``body`` with its ETag (304 when the client has it) and caching headers."""
    headers = {"ETag": body.etag, "Cache-Control": IMMUTABLE if stable else REVALIDATE}
    wanted = request.headers.get("if-none-match", "")
    if body.etag in (tag.strip().removeprefix("W/") for tag in wanted.split(",")):
        return Response(status_code=304, headers=headers)
    return Response(body.data, media_type=body.media_type, headers=headers)


def install(app: FastAPI) -> None:
    """Every error becomes a JSON body with the right status."""

    @app.exception_handler(NotFound)
    async def not_found(_request: Request, exc: NotFound) -> Response:
        return error_response(404, str(exc), exc.nearest)

    @app.exception_handler(BadRequest)
    async def bad_request(_request: Request, exc: BadRequest) -> Response:
        return error_response(400, str(exc))

    @app.exception_handler(EditionNotFound)
    @app.exception_handler(RuleNotFound)
    async def library_not_found(request: Request, exc: RuleDiffError) -> Response:
        return error_response(404, request.app.state.rulediff.scrub(" ".join(str(exc).split())))

    @app.exception_handler(RuleDiffError)
    async def rulediff_error(request: Request, exc: RuleDiffError) -> Response:
        return error_response(400, request.app.state.rulediff.scrub(" ".join(str(exc).split())))

    @app.exception_handler(RequestValidationError)
    async def invalid(_request: Request, exc: RequestValidationError) -> Response:
        parts = []
        for err in exc.errors():
            where = ".".join(str(x) for x in err.get("loc", ()))
            parts.append(f"{where}: {err.get('msg', 'invalid')}")
        return error_response(400, "; ".join(parts) or "invalid request")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(_request: Request, exc: StarletteHTTPException) -> Response:
        message = exc.detail if isinstance(exc.detail, str) else "error"
        if exc.status_code == 404 and message == "Not Found":
            message = "no such route; see /docs"
        return error_response(exc.status_code, message)

    @app.exception_handler(Exception)
    async def bug(_request: Request, exc: Exception) -> Response:
        log.exception("internal error", exc_info=exc)
        return error_response(500, "internal error")

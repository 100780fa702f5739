"""``rulediff serve``: the FastAPI app. Thin routes over the library, no logic of its own.

* :mod:`.api` — JSON endpoints under ``/api`` (every edition, any pair);
* :mod:`.compat` — the Academy Ruins-compatible routes (``/compat/academyruins/``);
* :mod:`.pages` — live HTML pages under ``/`` from the site's templates;
* :mod:`.http` — limits, errors as JSON, ETag/Cache-Control;
* :mod:`.state` — the corpus, single-flight computation and the response memo.
"""

from __future__ import annotations

import contextlib
import json
import threading
from collections.abc import AsyncIterator
from dataclasses import asdict, dataclass

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.gzip import GZipMiddleware
from starlette.types import ASGIApp

from .. import __version__

#: Environment variable carrying the :class:`Config` to ``--workers`` processes.
CONFIG_ENV = "RULEDIFF_SERVE_CONFIG"


@dataclass(frozen=True, slots=True)
class Config:
    corpus_dir: str | None = None
    """``None``: ``$RULEDIFF_CORPUS`` or the user data folder, as for the CLI."""
    cors_origins: tuple[str, ...] = ()
    compat_root: bool = False
    """Mount the compatible routes at ``/`` too (``/cr/…``, ``/diff/cr``, ``/file/cr``)."""

    def to_env(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_env(cls, text: str) -> Config:
        data = json.loads(text)
        return cls(data["corpus_dir"], tuple(data["cors_origins"]), bool(data["compat_root"]))


def create_app(config: Config | None = None) -> ASGIApp:
    """The application serving ``config``'s corpus: :func:`fastapi_app` behind the request
    limits and the memo of finished answers.

    Those two are plain ASGI wrapped around the FastAPI app rather than middlewares inside
    it: a refused request or a memo hit then costs none of FastAPI's own layers (error,
    telemetry and body-limit middlewares, routing): ~6 µs per memo hit instead of ~17 µs
    in process, which keeps the rule lookup p99 of ``bench/serve.py`` under 20 ms.
    """
    from . import http

    return http.LimitsMiddleware(http.ResponseCache(fastapi_app(config)))


def fastapi_app(config: Config | None = None) -> FastAPI:
    """The FastAPI app of every route (OpenAPI schema, JSON errors, gzip, CORS)."""
    from . import api, compat, docs, http, pages
    from .state import State

    config = config or Config()
    state = State(config.corpus_dir)

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        # Warm up after start, in a thread: the server answers meanwhile.
        threading.Thread(target=state.warm, name="rulediff-warm-up", daemon=True).start()
        yield

    app = FastAPI(
        lifespan=lifespan,
        title="rulediff",
        version=__version__,
        description="Every edition of the Magic: The Gathering Comprehensive Rules: text, "
        "diffs of any two editions, rule histories, flags, audit, search.",
        docs_url=None,  # rulediff.serve.docs: the same page, without a CDN
        redoc_url=None,
    )
    app.state.rulediff = state
    http.install(app)
    app.include_router(docs.router)
    app.include_router(api.router, prefix="/api")
    app.include_router(compat.router, prefix="/compat/academyruins")
    if config.compat_root:
        app.include_router(compat.router)
    app.include_router(pages.router)
    app.add_middleware(GZipMiddleware, minimum_size=1000)
    if config.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=list(config.cors_origins),
            allow_methods=["GET", "HEAD", "OPTIONS"],
            allow_headers=["If-None-Match"],
            expose_headers=["ETag"],
        )
    return app


def app_from_env() -> ASGIApp:
    """The app factory each ``--workers`` process imports (configured by an env variable)."""
    import os

    text = os.environ.get(CONFIG_ENV)
    return create_app(Config.from_env(text) if text else None)

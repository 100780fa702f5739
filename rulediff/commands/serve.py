"""``rulediff serve``: the HTTP API and live pages (FastAPI + uvicorn).

The options become environment variables that :func:`rulediff.serve.create_app` reads, so
``--workers N`` (N processes, each importing the app by name) configures every worker
the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..errors import RuleDiffError
from .common import settings


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Interface to listen on.")
@click.option("--port", default=8000, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--corpus",
    "corpus_dir",
    metavar="DIR",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Folder of CR editions (default: $RULEDIFF_CORPUS, else the user data folder).",
)
@click.option(
    "--workers", default=1, show_default=True, type=click.IntRange(1, 64), help="Processes."
)
@click.option(
    "--cors-origin",
    "cors_origins",
    multiple=True,
    metavar="ORIGIN",
    help="Allow browser pages from ORIGIN (repeatable; '*' for any) to call the API.",
)
@click.option(
    "--compat-root",
    is_flag=True,
    help="Also mount the Academy Ruins-compatible routes at / (always at /compat/academyruins/).",
)
@click.option(
    "--log-level",
    default="warning",
    show_default=True,
    type=click.Choice(["critical", "error", "warning", "info", "debug"]),
)
def serve(
    host: str,
    port: int,
    corpus_dir: Path | None,
    workers: int,
    cors_origins: tuple[str, ...],
    compat_root: bool,
    log_level: str,
) -> None:
    """Serve every edition, any pair's diff, histories, flags and search over HTTP.

    JSON API under /api (OpenAPI docs at /docs), live pages under /, and the Academy
    Ruins-compatible routes under /compat/academyruins/. Reads the corpus and the cache
    folder; writes only in the cache folder.
    """
    try:
        import uvicorn

        from ..serve import CONFIG_ENV, Config, create_app
    except ImportError as exc:
        raise RuleDiffError(
            f"rulediff serve needs FastAPI and uvicorn ({exc.name} is missing): "
            "pip install 'rulediff[serve]'"
        ) from None

    directory = corpus_dir or settings().corpus_dir
    config = Config(
        corpus_dir=str(directory.resolve()) if directory else None,
        cors_origins=tuple(cors_origins),
        compat_root=compat_root,
    )
    # uvicorn logs each request at level info: below that, not even the log call is made.
    access_log = log_level in ("info", "debug")
    if workers > 1:
        os.environ[CONFIG_ENV] = config.to_env()
        uvicorn.run(
            "rulediff.serve:app_from_env",
            factory=True,
            host=host,
            port=port,
            workers=workers,
            log_level=log_level,
            access_log=access_log,
        )
        return
    uvicorn.run(
        create_app(config), host=host, port=port, log_level=log_level, access_log=access_log
    )

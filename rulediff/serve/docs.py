"""``/docs``: the OpenAPI documentation page, offline.

FastAPI's default page loads Swagger UI from a CDN; pages of this project never load
anything from elsewhere, so the page here uses the copy of Swagger UI that the
``swagger-ui-bundle`` package ships, served from a fixed list of its files.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, Response

from .state import NotFound

router = APIRouter(include_in_schema=False)

#: The only files served under ``/docs-assets/`` (name → media type).
ASSETS = {
    "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
    "swagger-ui.css": "text/css; charset=utf-8",
    "favicon-32x32.png": "image/png",
}


def _bundle() -> Path:
    import swagger_ui_bundle

    return Path(swagger_ui_bundle.swagger_ui_path)


@router.get("/docs")
def docs(request: Request) -> HTMLResponse:
    root = request.scope.get("root_path", "")
    return get_swagger_ui_html(
        openapi_url=f"{root}/openapi.json",
        title="rulediff API",
        swagger_js_url=f"{root}/docs-assets/swagger-ui-bundle.js",
        swagger_css_url=f"{root}/docs-assets/swagger-ui.css",
        swagger_favicon_url=f"{root}/docs-assets/favicon-32x32.png",
    )


@router.get("/docs-assets/{name}")
def asset(name: str) -> Response:
    media = ASSETS.get(name)
    if media is None:
        raise NotFound(f"no documentation asset {name!r}", sorted(ASSETS))
    data = (_bundle() / next(n for n in ASSETS if n == name)).read_bytes()
    return Response(data, media_type=media, headers={"Cache-Control": "public, max-age=86400"})

"""``rulediff serve`` as a user runs it: a subprocess on a free loopback port, asked over
HTTP, every answer compared with what the CLI prints for the same question."""

from __future__ import annotations

import gzip
import json
import os
import shutil
from pathlib import Path
from urllib.parse import quote

import pytest

from rulediff.corpus import Corpus

from .serve_helpers import Server, cli, running_server

pytestmark = pytest.mark.usefixtures("corpus_dir")  # without the corpus: fail loudly

ORIGIN = "https://cards.example.org"


@pytest.fixture(scope="module")
def server() -> Server:
    with running_server("--cors-origin", ORIGIN) as s:
        yield s


@pytest.fixture(scope="module")
def dates() -> list[str]:
    return [str(info.date) for info in Corpus.open().editions()]


# --- every endpoint against the CLI ----------------------------------------------------------
def test_edition_model_and_text_are_the_cli_bytes(server: Server) -> None:
    assert server.get("/api/editions/FDN").body == cli("parse", "FDN")
    text = server.get("/api/editions/FDN/text")
    assert text.headers["content-type"] == "text/plain; charset=utf-8"
    assert text.body == cli("parse", "FDN", "--format", "text")
    assert server.get("/api/editions/FDN?format=text").body == text.body


def test_rules_toc_glossary_are_those_of_parse(server: Server) -> None:
    parsed = json.loads(cli("parse", "2015-01-23"))
    assert server.get("/api/editions/2015-01-23/rules").json() == parsed["rules"]
    assert server.get("/api/editions/2015-01-23/glossary").json() == parsed["glossary"]
    toc = server.get("/api/editions/2015-01-23/toc").json()
    assert toc["sections"] == parsed["sections"] and toc["contents"] == parsed["contents"]


def test_one_rule_has_its_subrules_and_examples(server: Server) -> None:
    parsed = json.loads(cli("parse", "2015-01-23"))
    reply = server.get("/api/editions/2015-01-23/rules/702.19").json()
    ids = [r["id"] for r in reply["rules"]]
    assert ids[0] == "702.19" and len(ids) > 3 and all(i.startswith("702.19") for i in ids)
    keys = ("id", "label", "kind", "title", "text", "examples", "parent", "line")
    expected = [{k: r[k] for k in keys} for r in parsed["rules"] if r["id"] in ids]
    assert reply["rules"] == expected
    assert any(r["examples"] for r in reply["rules"])
    text = server.get("/api/editions/2015-01-23/rules/702.19?format=text").body
    assert text == cli("show", "702.19", "-e", "2015-01-23")


def test_glossary_term_exact_and_fuzzy(server: Server) -> None:
    exact = server.get(f"/api/editions/latest/glossary/{quote('face down')}?format=text")
    assert exact.body == cli("glossary", "face down")
    fuzzy = server.get("/api/editions/latest/glossary/facedown?fuzzy=true").json()
    assert fuzzy["term"].casefold() == "face down"
    missing = server.get("/api/editions/latest/glossary/facedown")
    assert missing.status == 404 and any(
        t.casefold() == "face down" for t in missing.json()["nearest"]
    )


def test_keywords_come_from_the_text(server: Server) -> None:
    doc = server.get("/api/editions/FDN/keywords").json()
    parsed = {r["id"]: r for r in json.loads(cli("parse", "FDN"))["rules"]}
    assert len(doc["keyword_abilities"]) > 100 and len(doc["keyword_actions"]) > 30
    for item in doc["keyword_abilities"] + doc["keyword_actions"]:
        assert parsed[item["rule"]]["title"] == item["name"]
    flags = json.loads(cli("flags", "FDN"))
    assert doc["ability_words"] == flags["flags"]["ability_words"]["value"]


def test_diff_of_any_pair_is_the_cli_json(server: Server, dates: list[str]) -> None:
    for old, new in ((dates[-2], dates[-1]), ("2015-01-23", "FDN")):
        reply = server.get(f"/api/diff/{old}/{new}")
        assert reply.status == 200
        assert reply.body == cli("diff", old, new, "--format", "json")
    text = server.get(f"/api/diff/{dates[-2]}/{dates[-1]}?format=text").body
    assert text == cli("diff", dates[-2], dates[-1])


def test_diff_through_is_the_cli_json(server: Server) -> None:
    reply = server.get("/api/diff/2021-06-18/2021-09-24?through=true")
    assert reply.status == 200
    assert reply.body == cli("diff", "2021-06-18", "2021-09-24", "--through", "--format", "json")
    backwards = server.get("/api/diff/2021-09-24/2021-06-18?through=true")
    assert backwards.status == 400 and "newer than NEW" in backwards.json()["error"]


def test_history_and_at_are_the_cli_json(server: Server) -> None:
    assert server.get("/api/history/702.19").body == cli("history", "702.19", "--format", "json")
    assert server.get("/api/history/702.19?format=text").body == cli("history", "702.19")
    old = server.get("/api/history/702.36e?edition=2015-01-23").body
    assert old == cli("history", "702.36e", "-e", "2015-01-23", "--format", "json")
    assert server.get("/api/at/702.19/2015-06-01").body == cli(
        "at", "702.19", "2015-06-01", "--format", "json"
    )
    assert server.get("/api/at/702.37/2012-06-01?follow=true").body == cli(
        "at", "702.37", "2012-06-01", "--follow", "--format", "json"
    )


def test_flags_audit_engine_are_the_cli_json(server: Server) -> None:
    assert server.get("/api/editions/2012-07-01/flags").body == cli("flags", "2012-07-01")
    assert server.get("/api/flags/timeline").body == cli("flags", "--timeline", "--format", "json")
    assert server.get("/api/editions/FDN/audit").body == cli("audit", "FDN", "--format", "json")
    name = cli("engine", "list").decode().split()[0]
    assert server.get(f"/api/editions/2005-10-01/engine/{name}").body == cli(
        "engine", "run", name, "-e", "2005-10-01", "--format", "json"
    )
    assert server.get("/api/editions/FDN/engine/no-such-scenario").status == 404


def test_search_is_the_cli_ranking(server: Server) -> None:
    assert server.get("/api/search?q=" + quote("mana burn") + "&all_editions=true").body == cli(
        "search", "mana", "burn", "--all-editions", "--format", "json"
    )
    assert server.get("/api/search?q=trample&edition=FDN&limit=5").body == cli(
        "search", "trample", "-e", "FDN", "-n", "5", "--format", "json"
    )


def _no_follow(server: Server, path: str) -> tuple[int, str | None]:
    """Status and Location of one GET, redirects not followed."""
    import http.client
    from urllib.parse import urlsplit

    where = urlsplit(server.base)
    connection = http.client.HTTPConnection(where.hostname, where.port, timeout=300)
    try:
        connection.request("GET", where.path.rstrip("/") + path)
        response = connection.getresponse()
        response.read()
        return response.status, response.getheader("Location")
    finally:
        connection.close()


def test_search_box_jumps_to_a_rule_number_without_javascript(
    server: Server, dates: list[str]
) -> None:
    """The site's search box is a plain GET form: the server answers a rule number with the
    rule's page (as the static site's script does), words with ranked results."""
    newest = dates[-1]
    assert _no_follow(server, "/search.html?q=704.5j") == (303, f"rules/704.5j_{newest}.html")
    assert _no_follow(server, "/search.html?q=+702.36.+") == (303, f"rules/702.36_{newest}.html")
    assert _no_follow(server, f"/search?q=502.2&edition={dates[0]}") == (
        303,
        f"rules/502.2_{dates[0]}.html",
    )
    page = server.get("/search.html?q=704.5j")
    assert page.status == 200 and b"704.5j" in page.body
    assert _no_follow(server, "/search.html?q=999.9z")[0] == 200  # no such rule: a search
    assert _no_follow(server, "/search.html?q=" + quote("mana burn"))[0] == 200


def test_editions_list_is_corpus_list_without_folders(server: Server) -> None:
    doc = json.loads(cli("corpus", "list", "--format", "json"))
    doc["corpus"] = Path(doc["corpus"]).name
    for entry in doc["editions"]:
        entry["file"] = Path(entry["file"]).name
    reply = server.get("/api/editions")
    assert reply.json() == doc
    assert os.environ["RULEDIFF_CORPUS"] not in reply.body.decode()


def test_every_reference_form_names_the_same_edition(server: Server, dates: list[str]) -> None:
    fdn = server.get("/api/editions/FDN/rules/100.1").body
    date = json.loads(fdn)["edition"]
    assert server.get(f"/api/editions/{date}/rules/100.1").body == fdn
    assert server.get(f"/api/editions/%40{date}/rules/100.1").body == fdn
    assert server.get("/api/editions/Foundations/rules/100.1").body == fdn
    latest = server.get("/api/editions/latest/rules/100.1").json()
    assert latest["edition"] == dates[-1]


# --- HTTP --------------------------------------------------------------------------------------
def test_etag_cache_control_gzip_cors(server: Server) -> None:
    first = server.get("/api/editions/FDN/rules/702.19")
    assert first.headers["cache-control"].startswith("public, max-age=31536000")
    again = server.get("/api/editions/FDN/rules/702.19", {"If-None-Match": first.headers["etag"]})
    assert again.status == 304 and again.body == b""
    latest = server.get("/api/editions/latest/rules/702.19")
    assert "immutable" not in latest.headers["cache-control"]
    zipped = server.get("/api/editions/FDN/text", {"Accept-Encoding": "gzip"})
    assert zipped.headers["content-encoding"] == "gzip"
    assert gzip.decompress(zipped.body) == server.get("/api/editions/FDN/text").body
    cors = server.get("/api/editions/FDN/rules/702.19", {"Origin": ORIGIN})
    assert cors.headers["access-control-allow-origin"] == ORIGIN
    other = server.get("/api/editions/FDN/rules/702.19", {"Origin": "https://elsewhere.example"})
    assert "access-control-allow-origin" not in other.headers


def test_an_answer_from_the_memo_is_the_first_answer_again(server: Server) -> None:
    # The memo of finished answers sits in front of FastAPI (rulediff.serve.create_app):
    # the second ask is answered from it and must carry the same body and headers as the
    # first, which the routes, gzip and CORS made; ``Date`` alone may differ.
    path = "/api/editions/FDN/glossary?memo-test=1"  # a URL no other test asks
    asked = {"Accept-Encoding": "gzip", "Origin": ORIGIN}
    first, second = server.get(path, asked), server.get(path, asked)
    assert first.status == second.status == 200
    assert first.headers["content-encoding"] == "gzip"
    assert first.headers["access-control-allow-origin"] == ORIGIN
    assert second.body == first.body
    assert {k: v for k, v in second.headers.items() if k != "date"} == {
        k: v for k, v in first.headers.items() if k != "date"
    }
    plain = server.get(path)  # another key: neither gzip nor CORS headers replayed
    assert "content-encoding" not in plain.headers
    assert "access-control-allow-origin" not in plain.headers
    assert gzip.decompress(first.body) == plain.body


def test_openapi_documents_the_routes(server: Server) -> None:
    schema = server.get("/openapi.json").json()
    for path in ("/api/diff/{old}/{new}", "/api/search", "/compat/academyruins/cr/{rule_id}"):
        assert path in schema["paths"]
    page = server.get("/docs")
    assert page.status == 200
    # Offline: every script and stylesheet of the page comes from this server.
    import re

    assets = re.findall(rb'(?:src|href)="([^"]+)"', page.body)
    assert assets and all(a.startswith(b"/") for a in assets), assets
    for asset in assets:
        assert server.get(asset.decode()).status == 200, asset


HOSTILE = [
    "/api/editions/nope/rules/1",
    "/api/editions/latest/rules/999.99z",
    "/api/editions/latest/rules/abc",
    "/api/editions/latest/rules/" + "9" * 40,
    "/api/editions/2024-13-45/rules/100.1",
    "/api/editions/@2099-99-99/rules/100.1",
    "/api/editions/@1990-01-01/rules/100.1",
    "/api/editions/..%2f..%2fetc%2fpasswd/text",
    "/api/editions/%2e%2e%2f%2e%2e%2fetc%2fpasswd/text",
    "/api/editions/%2e%2e/text",
    "/api/editions/..%5c..%5cwindows/text",
    "/api/editions/%2Fetc%2Fpasswd/text",
    "/api/editions/{secret}/text",
    "/api/editions/{secret_name}/text",
    "/api/editions/%00/text",
    "/api/editions/%ff%fe/rules/1",
    "/api/editions/latest/engine/..%2f..%2fsecret",
    "/api/editions/latest/glossary/" + "x" * 200,
    "/api/diff/latest/nope",
    "/api/diff/FDN/2999-01-01",
    "/api/history/702.19?edition=../../etc",
    "/api/history/999.9",
    "/api/at/702.19/notadate",
    "/api/at/702.19/1990-01-01",
    "/api/search?q=",
    "/api/search?q=%22%22",
    "/api/search?q=" + "a" * 10_000,
    "/api/search?q=a&limit=100000",
    "/api/search?q=a&edition=..%2f..",
    "/api/editions/latest/rules/1?" + "x=" + "y" * 10_000,
    "/cr/abc",
    "/compat/academyruins/cr/999.9",
    "/compat/academyruins/cr/glossary/nothing-like-it",
    "/compat/academyruins/diff/cr?old=nope&new=latest",
    "/compat/academyruins/file/cr?edition=/etc/passwd",
    "/rules/..%2f..%2fetc.html",
    "/editions/%2e%2e.html",
    "/changes/x_y.html",
    "/changes/1999-01-01_2000-01-01.html",
    "/static/..%2f..%2fpyproject.toml",
    "/static/nope.css",
    "/history?rule=..%2f..%2fetc&edition=latest",
    "/history?rule=702.19&edition=%2Fetc%2Fpasswd",
    "/no/such/route",
]


def test_hostile_input_is_a_4xx_json_error(server: Server, tmp_path: Path) -> None:
    secret = tmp_path / "secret.txt"
    shutil.copyfile(Corpus.open().editions()[-1].path, secret)
    for path in HOSTILE:
        path = path.replace("{secret}", quote(str(secret), safe="")).replace(
            "{secret_name}", "secret.txt"
        )
        reply = server.get(path)
        assert 400 <= reply.status < 500, (path, reply.status, reply.body[:200])
        doc = reply.json()
        assert doc["error"], path
    posted = server.get("/api/search?q=a", method="POST", data=b"x" * 100_000)
    assert 400 <= posted.status < 500 and posted.json()["error"]


ROUTES = [
    "/api/editions/{a}/rules/{b}",
    "/api/editions/{a}/glossary/{b}?fuzzy=true",
    "/api/diff/{a}/{b}",
    "/api/history/{b}?edition={a}",
    "/api/at/{b}/{a}",
    "/api/search?q={b}&edition={a}",
    "/api/editions/{a}/engine/{b}",
    "/compat/academyruins/cr/{b}?edition={a}",
    "/compat/academyruins/diff/cr?old={a}&new={b}",
    "/rules/{b}_{a}.html",
    "/editions/{a}.html",
    "/changes/{a}_{b}.html",
    "/search?q={b}&edition={a}",
    "/compare?old={a}&new={b}",
    "/history?rule={b}&edition={a}",
]


def test_random_input_never_gives_a_500(server: Server) -> None:
    """Any text in any parameter: an answer or a 4xx with a JSON error, never a 500."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    pieces = st.one_of(
        st.text(max_size=40),
        st.sampled_from(["latest", "@2016-05-01", "FDN", "2015-01-23", "702.36", "..", "%2e%2e"]),
        st.from_regex(r"[0-9]{1,3}(\.[0-9]{1,3}[a-z]{0,2})?", fullmatch=True),
    )

    @settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
    @given(route=st.sampled_from(ROUTES), a=pieces, b=pieces)
    def ask(route: str, a: str, b: str) -> None:
        path = route.format(a=quote(a, safe=""), b=quote(b, safe=""))
        reply = server.get(path)
        assert reply.status < 500, (path, reply.status, reply.body[:300])
        if reply.status >= 400:
            assert json.loads(reply.body)["error"], path

    ask()


def test_unknown_names_say_the_nearest(server: Server) -> None:
    rule = server.get("/api/editions/FDN/rules/702.19z").json()
    assert "702.19" in " ".join(rule["nearest"])
    edition = server.get("/api/editions/Foundatoins/rules/1").json()
    assert any("Foundations" in n for n in edition["nearest"])


# --- live pages in a browser ---------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
#: Screenshots of the live pages, for a reviewer (see the README).
SHOTS = Path(__file__).resolve().parent.parent / "build" / "screenshots" / "serve"


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_live_pages_in_chromium(server: Server, dates: list[str]) -> None:
    """Pick two editions in the form, get the changelog, follow a rule link and a history
    link, run a search; at phone width nothing of ours scrolls sideways."""
    from playwright.sync_api import sync_playwright

    SHOTS.mkdir(parents=True, exist_ok=True)
    old, new = dates[-3], dates[-1]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": 1400, "height": 900})
        errors: list[str] = []
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        # Every resource a page loads exists (a 404 would also log a console error).
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("response", lambda r: errors.append(r.url) if r.status >= 400 else None)

        page.goto(server.base + "/")
        page.select_option("#old", old)
        page.select_option("#new", new)
        page.click("form.compare button[type=submit]")
        page.wait_for_url(f"**/changes/{old}_{new}.html")
        assert old in page.title() + page.inner_text("h1")
        assert new in page.title() + page.inner_text("h1")
        page.screenshot(path=str(SHOTS / "changelog.png"))

        rule_link = page.locator("a.rn[href*='editions/']").first
        label = rule_link.inner_text()
        rule_link.click()
        page.wait_for_url("**/editions/*.html#r*")
        anchor = page.url.split("#", 1)[1]
        assert page.locator(f"[id='{anchor}']").first.is_visible()
        assert label.split()[0] in anchor

        page.locator("a.hist").first.click()
        page.wait_for_url("**/rules/*.html")
        assert "History of rule" in page.title()
        page.screenshot(path=str(SHOTS / "history.png"))

        page.goto(server.base + "/")
        page.fill("#rule", "702.36d")
        page.select_option("#history-edition", "2015-01-23")
        page.click("form.history button[type=submit]")
        page.wait_for_url("**/rules/702.36d_2015-01-23.html")
        assert "702.36d" in page.inner_text("h1")

        page.goto(server.base + "/")
        page.fill("#q", '"mana burn"')
        page.select_option("form.search select[name=edition]", "all")
        page.click("form.search button[type=submit]")
        page.wait_for_url("**/search?**")
        assert page.locator("li.hit").count() > 0 and page.locator("li.hit mark").count() > 0
        assert "first in" in page.inner_text("ul.phrases")
        page.screenshot(path=str(SHOTS / "search.png"))

        phone = browser.new_page(viewport={"width": 390, "height": 800})
        for path in ("/", "/search?q=trample&edition=latest"):
            phone.goto(server.base + path)
            wide = phone.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (path, wide)
        phone.screenshot(path=str(SHOTS / "home-390.png"), full_page=True)
        browser.close()
    assert errors == []


# --- single flight ---------------------------------------------------------------------------
def test_single_flight_computes_once_for_simultaneous_callers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import threading
    import time

    from rulediff.serve.state import SingleFlight

    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path))
    flight = SingleFlight()
    calls: list[int] = []
    gate = threading.Barrier(16)
    results: list[str] = []

    def compute() -> str:
        calls.append(1)
        time.sleep(0.3)
        return "value"

    def caller() -> None:
        gate.wait()
        results.append(flight.do("pair", compute))

    threads = [threading.Thread(target=caller) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["value"] * 16 and len(calls) == 1

    # A failure reaches every waiter and is not remembered.
    def boom() -> str:
        raise ValueError("no")

    with pytest.raises(ValueError):
        flight.do("pair", boom)
    assert flight.do("pair", compute) == "value" and len(calls) == 2

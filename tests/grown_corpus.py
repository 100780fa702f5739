"""A copy of the corpus grown by one synthetic "next" edition, for the corpus-growth checks.

The next edition is the newest text, dated 70 days later, with one sentence (written for
these tests) appended to its first numbered rule. The whole suite must pass on such a copy:

    .venv/bin/python -m tests.grown_corpus /tmp/grown
    RULEDIFF_CORPUS=/tmp/grown/corpus RULEDIFF_MANIFEST=/tmp/grown/editions.toml scripts/test.sh

(``editions.toml`` there is the project's manifest regenerated for the grown corpus, as a
maintainer adding an edition would regenerate it with ``corpus/make_manifest.py``.)
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import shutil
import subprocess
import sys
from pathlib import Path

from rulediff.corpus import Corpus
from rulediff.ingest import find_effective_date, ingest_bytes

REPO = Path(__file__).resolve().parent.parent

#: The sentence the synthetic edition adds to one rule (written for these tests).
#: Under ten words, so the copy's own scan for rules text cannot match this file.
ADDED = "A synthetic sentence marks this test edition."


def next_edition_text(newest: Path) -> tuple[str, dt.date, str]:
    """The newest edition's text, dated 70 days later, with ``ADDED`` appended to its first
    numbered rule; returns the text, the new date and the edited rule's id."""
    text = ingest_bytes(newest.read_bytes(), str(newest)).text
    found = find_effective_date(text)
    assert found is not None, newest
    old_date, line_no = found
    new_date = old_date + dt.timedelta(days=70)
    lines = text.split("\n")
    date_line = lines[line_no - 1]
    spelled = f"{new_date:%B} {new_date.day}, {new_date.year}"
    lines[line_no - 1] = re.sub(
        rf"{old_date:%B}\s+{old_date.day},\s+{old_date.year}", spelled, date_line, count=1
    )
    assert lines[line_no - 1] != date_line, date_line
    # the first numbered rule of the rules proper (after the contents table)
    start = next(i for i, ln in enumerate(lines) if re.match(r"^1\.\s", ln) and i > line_no + 5)
    start = next(i for i in range(start + 1, len(lines)) if re.match(r"^\d{3}\.\d+\.\s", lines[i]))
    rule_id = lines[start].split(" ", 1)[0].rstrip(".")
    lines[start] = f"{lines[start]} {ADDED}"
    return "\n".join(lines), new_date, rule_id


def _describe(source_tsv: Path, tsv: Path, added: Path, date: dt.date) -> None:
    """The corpus's ``editions.tsv`` (what each file is: bytes, sha256, encoding, line ends)
    with a row for the synthetic edition."""
    data = added.read_bytes()
    rows = source_tsv.read_text(encoding="utf-8").rstrip("\n").split("\n")
    columns = rows[0].split("\t")
    facts = {
        "date": date.isoformat(),
        "file": added.name,
        "bytes": str(len(data)),
        "sha256": hashlib.sha256(data).hexdigest(),
        "encoding": "utf-8",
        "line_endings": "lf",
        "rule_count": "",
        "source": "synthetic (tests/grown_corpus.py)",
    }
    rows.append("\t".join(facts.get(column, "") for column in columns))
    tsv.write_text("\n".join(rows) + "\n", encoding="utf-8")


def grow(source: Path, dest: Path) -> tuple[Path, str, str]:
    """Copy ``source``'s editions to ``dest/corpus``, add the next edition, write
    ``dest/editions.toml``; returns (corpus folder, new date, edited rule id)."""
    folder = dest / "corpus"
    folder.mkdir(parents=True)
    for path in sorted(source.glob("*.txt")):
        shutil.copyfile(path, folder / path.name)
    newest = max(Corpus.open(source).editions(), key=lambda e: e.date)
    text, date, rule_id = next_edition_text(newest.path)
    added = folder / f"{date.isoformat()}.txt"
    added.write_text(text, encoding="utf-8")
    _describe(source / "editions.tsv", folder / "editions.tsv", added, date)
    subprocess.run(
        [sys.executable, str(REPO / "corpus" / "make_manifest.py"), str(folder),
         "-o", str(dest / "editions.toml")],
        check=True,
        capture_output=True,
    )
    return folder, date.isoformat(), rule_id


if __name__ == "__main__":
    import os

    if len(sys.argv) != 2:
        raise SystemExit("usage: python -m tests.grown_corpus DEST")
    corpus, date, rule = grow(Path(os.environ["RULEDIFF_CORPUS"]), Path(sys.argv[1]))
    print(f"{corpus}: next edition {date} (rule {rule} edited)")

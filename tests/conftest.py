"""Shared fixtures: the real corpus (``RULEDIFF_CORPUS``) and a cached edition loader."""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from rulediff.model import Edition
from rulediff.parse import parse_file

FIXTURES = Path(__file__).parent / "fixtures"


def _corpus_dir() -> Path | None:
    value = os.environ.get("RULEDIFF_CORPUS")
    return Path(value) if value else None


def corpus_dates() -> list[str]:
    """Every edition date in the corpus (file stems), oldest first.

    Called while tests are collected: without a corpus this raises, so the corpus tests
    fail loudly instead of being parametrized over nothing.
    """
    folder = _corpus_dir()
    dates = sorted(p.stem for p in folder.glob("*.txt")) if folder and folder.is_dir() else []
    if not dates:
        raise RuntimeError(
            "RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr); "
            f"got {folder}"
        )
    return dates


@functools.cache
def corpus_edition(date: str) -> Edition:
    """Parse one corpus edition once per test session."""
    folder = _corpus_dir()
    if folder is None:
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    return parse_file(folder / f"{date}.txt")


@pytest.fixture(scope="session")
def corpus_dir() -> Path:
    folder = _corpus_dir()
    if folder is None or not folder.is_dir():
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    return folder


@pytest.fixture(scope="session")
def oldest_date(corpus_dir: Path) -> str:
    """The effective date of the oldest edition in the corpus, read from the texts: tests
    pin when things changed, never which file happens to come first."""
    from rulediff.corpus import Corpus

    return min(e.date for e in Corpus.open(corpus_dir).editions()).isoformat()

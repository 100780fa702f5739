"""Errors raised by rulediff.

One root, :class:`RuleDiffError`, and one subclass per pipeline stage. Every error
carries the file (and, where it is known, the line and column) it is about, so the
CLI can print ``rulediff: error: FILE:LINE: what`` without a traceback.
"""

from __future__ import annotations


class RuleDiffError(Exception):
    """Root of every error rulediff raises on purpose (bad input, unknown names...)."""

    exit_code = 2

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column

    def location(self) -> str:
        """``FILE[:LINE[:COL]]`` or an empty string when nothing is known."""
        if not self.file:
            return ""
        where = str(self.file)
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def __str__(self) -> str:
        where = self.location()
        return f"{where}: {self.message}" if where else self.message


class IngestError(RuleDiffError):
    """The bytes are not a readable text (binary, PDF, undecodable, empty)."""


class ParseError(RuleDiffError):
    """The text is not a Comprehensive Rules edition the grammar can read."""


class EditionNotFound(RuleDiffError):
    """An edition reference (date, set code, path, ``@date``) matches nothing."""


class CorpusError(RuleDiffError):
    """The corpus folder, its manifest, an import or a download went wrong."""


class RuleNotFound(RuleDiffError):
    """A rule number or glossary term that the edition does not have."""


class FlagError(RuleDiffError):
    """A flags file (hand-written or exported) has an unknown flag or a bad value."""


class OutputError(RuleDiffError):
    """An output file could not be written (missing folder, permissions, a directory)."""


class EngineError(RuleDiffError):
    """The rules engine cannot go on: a scenario step that makes no sense, a flag unset."""


class ScenarioError(RuleDiffError):
    """A scenario file is unreadable or malformed (unknown action, missing field)."""

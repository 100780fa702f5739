"""``rulediff engine``: run a scenario under an edition's rules, or compare every edition."""

from __future__ import annotations

from pathlib import Path

import click

from ..engine import Scenario, compare, open_scenario, run, scenario_names
from ..engine.runner import ResultRun, Run, corpus_rule_sets, flags_of
from ..safetext import json_text
from .common import corpus_options, load, output_option, settings, write_output


@click.group("engine")
def engine() -> None:
    """Play rules scenarios under the behaviour of any edition."""


def _show(value: object) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _run_text(r: Run, sc: Scenario, flags: object) -> str:
    decided = ", ".join(f"{k}={_show(v)}" for k, v in sorted(r.flags.items()))
    lines = [f"scenario: {r.scenario}" + (f" - {sc.summary}" if sc.summary else ""),
             f"edition:  {r.edition}", f"flags:    {decided or '(none read)'}",
             f"result:   {r.result}"]
    expected = sc.expected(flags)
    if expected is not None:
        verdict = "as expected" if expected.result == r.result else f"EXPECTED {expected.result!r}"
        lines.append(f"          ({verdict}: {expected.why})" if expected.why else
                     f"          ({verdict})")
    lines.append("log:")
    lines += [f"  {entry}" for entry in r.log]
    return "\n".join(lines) + "\n"


@engine.command("run")
@click.argument("scenario")
@click.option("--edition", "-e", metavar="EDITION",
              help="Edition whose rules apply (default: latest, unless --flags is given).")
@click.option("--flags", "flags_file", metavar="FILE",
              type=click.Path(dir_okay=False, path_type=Path),
              help="A hand-written flags file (TOML/JSON) to run under instead of an edition.")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@corpus_options
@output_option
def run_command(scenario: str, edition: str | None, flags_file: Path | None, fmt: str,
                output: Path | None) -> None:
    """Run SCENARIO (a name or a .toml file) and print its result and narrated log.

    With --flags the hand-written flags decide; an --edition given as well only
    supplies the rule numbers cited in the log.
    """
    sc = open_scenario(scenario)
    if flags_file is not None:
        from ..flags import load_flagset

        ed = load(edition) if edition else None
        flags = load_flagset(flags_file)
        r = run(sc, flags, edition=ed, label=str(flags_file))
    else:
        ed = load(edition or "latest")
        flags = flags_of(ed, use_cache=settings().use_cache)
        r = run(sc, flags, edition=ed)
    if fmt == "json":
        text = json_text(r.as_dict(), indent=2)
    else:
        text = _run_text(r, sc, flags)
    write_output(text, output)


def _compare_text(name: str, summary: str, spans: tuple[ResultRun, ...]) -> str:
    lines = [f"{name}" + (f": {summary}" if summary else "")]
    width = max(len(repr(s.result)) for s in spans)
    for s in spans:
        count = f"{len(s.editions)} edition{'s' if len(s.editions) != 1 else ''}"
        odd = f"  unexpected in {', '.join(s.unexpected)}" if s.unexpected else ""
        lines.append(f"  {s.first} .. {s.last}  {repr(s.result):<{width}}  ({count}){odd}")
    return "\n".join(lines) + "\n"


@engine.command("compare")
@click.argument("scenario")
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True)
@click.option("--check", is_flag=True,
              help="Exit 1 if an edition's result differs from the scenario's expectation.")
@corpus_options
@output_option
def compare_command(scenario: str, fmt: str, check: bool, output: Path | None) -> None:
    """The result of SCENARIO under every corpus edition, in runs of equal results."""
    from ..corpus import Corpus

    sc = open_scenario(scenario)
    s = settings()
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    spans = compare(sc, corpus_rule_sets(corpus, use_cache=s.use_cache))
    if fmt == "json":
        doc = {"scenario": sc.name, "runs": [span.as_dict() for span in spans]}
        text = json_text(doc, indent=2)
    else:
        text = _compare_text(sc.name, sc.summary, spans)
    write_output(text, output)
    if check and any(span.unexpected for span in spans):
        click.get_current_context().exit(1)


@engine.command("list")
def list_command() -> None:
    """The named scenarios."""
    for name in scenario_names():
        click.echo(name)

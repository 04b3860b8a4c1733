"""Shared fixtures for the core tests (the TUI has its own in tests/tui/)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
CASES = FIXTURES / "cases"
EXAMPLE = FIXTURES / "example-skills.yaml"


@pytest.fixture(autouse=True, scope="session")
def _matcher_cache(tmp_path_factory):
    """The matcher cache of every test lives in a folder of the test session
    (never the user's ~/.cache); subprocesses inherit it."""
    old = os.environ.get("ROUTELENS_MATCHER_CACHE")
    os.environ["ROUTELENS_MATCHER_CACHE"] = str(tmp_path_factory.mktemp("matcher-cache"))
    yield
    if old is None:
        os.environ.pop("ROUTELENS_MATCHER_CACHE", None)
    else:
        os.environ["ROUTELENS_MATCHER_CACHE"] = old


@pytest.fixture(autouse=True)
def _no_real_home(tmp_path_factory, monkeypatch):
    """No test reads the real home folder (Claude Code's ~/.claude/settings.json,
    tools/harness.py) or a budget pinned in the environment."""
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))
    monkeypatch.delenv("SLASH_COMMAND_TOOL_CHAR_BUDGET", raising=False)


@pytest.fixture
def example_dir(tmp_path: Path) -> Path:
    """A folder holding a copy of the example registry as ``skills.yaml``."""
    shutil.copyfile(EXAMPLE, tmp_path / "skills.yaml")
    return tmp_path


@pytest.fixture
def cli(capsys):
    """Run ``routelens`` in-process: ``cli("build", "--registry", ...)`` ->
    ``(exit code, stdout, stderr)``."""
    from routelens.cli import main

    def run(*args: str) -> tuple[int, str, str]:
        code = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return code, out, err

    return run


def decided(r, task: str) -> tuple:
    """``(mode, reason, skills, composition)`` of ``r.route(task)`` (a Router): the routing tests' exact decision."""
    d = r.route(task)
    return d.mode, d.reason, d.skills, d.composition


BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "registries"


def bench_router(name: str):
    """The router of the shipped benchmark registry ``name`` from its
    generated index (``benchmarks/registries/NAME``)."""
    from routelens.routing.router import Router

    return Router.from_paths(BENCH / name / "skills.yaml", BENCH / name / "generated" / "routing.min.json")


def pieces_of(d, sid: str) -> list[tuple[str, int, str]]:
    """``(kind, weight, detail)`` of each evidence piece of candidate ``sid`` in decision ``d``."""
    return [(p.kind, p.weight, p.detail) for p in next(c for c in d.evidence if c.id == sid).pieces]

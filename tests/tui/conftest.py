"""Fixtures for the TUI tests: registry copies in tmp dirs, an app factory
with pinned theme, no file polling and no routing debounce, and a
``settle`` helper that waits for loading and routing without a clock."""

from __future__ import annotations

import asyncio
import inspect
import shutil
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.registry import load_registry
from routelens.tui.app import RouteLensApp
from routelens.tui.model import Paths
from routelens.tui.screenshots import settle

FIXTURES = Path(__file__).parent / "fixtures"
CASES = Path(__file__).parents[1] / "fixtures" / "cases"
THEME = "textual-dark"

__all__ = ["FIXTURES", "CASES", "THEME", "make_registry", "make_app", "settle"]


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run ``async def`` tests in a fresh event loop (no asyncio plugin needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        args = {name: pyfuncitem.funcargs[name] for name in pyfuncitem._fixtureinfo.argnames}
        asyncio.run(pyfuncitem.obj(**args))
        return True
    return None


@pytest.fixture(autouse=True)
def _no_color(monkeypatch):
    """NO_COLOR changes every snapshot (and the first App removes it, so
    results would depend on test order)."""
    monkeypatch.delenv("NO_COLOR", raising=False)


@pytest.fixture(autouse=True)
def _no_tokenizer(monkeypatch):
    """Token counts depend on an optional package: pin "unavailable"."""
    import routelens.artifacts.sizes as stats

    monkeypatch.setattr(stats, "token_count", lambda text, encoding="cl100k_base": {
        "encoding": encoding, "tokens": None, "unavailable": "tiktoken not installed"})


def make_registry(tmp: Path, source: Path | str = "routing", build: bool = True, name: str = "skills.yaml") -> Path:
    """Copy a fixture registry (a folder under tests/tui/fixtures, or one
    YAML file) into ``tmp/reg`` and optionally build its generated/.
    Returns the registry path."""
    src = Path(source) if Path(source).is_absolute() else FIXTURES / source
    dst = tmp / "reg"
    if src.is_dir():
        shutil.copytree(src, dst)
    else:
        dst.mkdir(parents=True)
        shutil.copyfile(src, dst / name)
    reg = dst / name
    if build:
        write_generated(load_registry(reg), dst / "generated")
    return reg


def make_app(registry: Path, **kw) -> RouteLensApp:
    """The app on ``registry`` with test settings (pinned theme, no
    polling, no debounce) unless overridden."""
    kw.setdefault("theme", THEME)
    kw.setdefault("poll_interval", None)
    kw.setdefault("route_debounce", 0)
    app = RouteLensApp(Paths.make(registry), **kw)
    # notes expire after 5 s of wall time: under load a test read them after they had gone
    app.NOTIFICATION_TIMEOUT = 3600
    return app


@pytest.fixture
def registry(tmp_path) -> Path:
    """The routing fixture copied to a tmp dir, with a fresh index."""
    return make_registry(tmp_path)


@pytest.fixture
def bundled(tmp_path) -> Path:
    """The bundled registry (``skills.yaml`` and ``skills/`` of the
    checkout) copied to a tmp dir, with a fresh index: three-digit line
    ranges, as a newcomer sees them."""
    from routelens.paths import bundled_registry

    src = bundled_registry()
    dst = tmp_path / "bundled"
    dst.mkdir()
    shutil.copyfile(src, dst / "skills.yaml")
    shutil.copytree(src.parent / "skills", dst / "skills")
    reg = dst / "skills.yaml"
    write_generated(load_registry(reg), dst / "generated")
    return reg

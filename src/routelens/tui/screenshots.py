"""Make the README pictures from the app's own SVG screenshots.

    python -m routelens.tui.screenshots [--out screenshots] [--registry skills.yaml] [--png]

Drives the app headless (``run_test``) on the bundled registry through the
main states — first screen, a clear route, a fallback, the skill browser,
the skill browser explaining a task that did not route, the stats panel,
the 80x24 layout — and saves ``<name>.svg``; with
``--png`` (default) converts each with ``rsvg-convert -w 1600`` (Debian
``librsvg2-bin``; the SVGs name Fira Code: install ``fonts-firacode``).
The stale-index state runs on a temporary copy; nothing in the checkout
is written except the pictures.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Awaitable, Callable

from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.tui.app import RouteLensApp
from routelens.tui.model import Paths

__all__ = ["SHOTS", "make", "main", "settle"]


async def settle(app: RouteLensApp, pilot) -> None:
    """Wait until loading, routing and every worker are done and the
    screen is painted (no clock involved)."""
    for _ in range(600):
        await pilot.pause()
        await app.workers.wait_for_complete()
        if app.routing_pending or not app.main.loads or getattr(app.screen, "pending", False):
            continue
        if app.main.fixes_pending:  # a fallback's fixes start once typing pauses (FIXES_DELAY)
            await pilot.pause(0.02)
            continue
        break
    await pilot.pause()
    await pilot.pause()


async def _type(app: RouteLensApp, pilot, task: str) -> None:
    app.query_one("#task").value = task
    await settle(app, pilot)


Step = Callable[[RouteLensApp, object], Awaitable[None]]


async def _first(app, pilot) -> None:
    await settle(app, pilot)


async def _route(app, pilot) -> None:
    await _type(app, pilot, "write a blog post about the launch and cite sources")


async def _fallback(app, pilot) -> None:
    await _type(app, pilot, "update the docs and translate them")


async def _ambiguous(app, pilot) -> None:
    await _type(app, pilot, "write a dockerfile and a threat model")


async def _browser(app, pilot) -> None:
    await _type(app, pilot, "write a blog post about the launch")
    app.action_skills()
    await settle(app, pilot)
    app.screen.query_one("#filter").value = "release"
    await settle(app, pilot)


async def _explain_no_match(app, pilot) -> None:
    """The most useful view: a task that did not route, and in F2 why its
    best near miss was not chosen."""
    await _type(app, pilot, "plot the sales numbers with panda")
    app.action_skills()
    await settle(app, pilot)
    app.screen.query_one("#filter").value = "data-analysis"
    await settle(app, pilot)


async def _stats(app, pilot) -> None:
    await settle(app, pilot)
    app.action_stats()
    await settle(app, pilot)


async def _small(app, pilot) -> None:
    await _type(app, pilot, "review this PR")


#: name -> (terminal size, step, needs a stale copy)
SHOTS: dict[str, tuple[tuple[int, int], Step, bool]] = {
    "first-screen": ((140, 40), _first, False),
    "route": ((140, 40), _route, False),
    "fallback-ambiguous": ((140, 40), _ambiguous, False),
    "fallback-stale": ((140, 40), _fallback, True),
    "skill-browser": ((140, 40), _browser, False),
    "explain-no-match": ((140, 40), _explain_no_match, False),
    "stats": ((160, 48), _stats, False),
    "small-80x24": ((80, 24), _small, False),
}


def _stale_copy(registry: Path, tmp: Path) -> Path:
    """A copy of the registry folder whose registry has one more skill than
    its index (so the index is stale)."""
    dst = tmp / "stale"
    shutil.copytree(registry.parent / "generated", dst / "generated")
    if (registry.parent / "skills").is_dir():
        shutil.copytree(registry.parent / "skills", dst / "skills")
    text = read_bounded(registry, LIMITS["max_registry_bytes"], what="the registry").decode("utf-8")
    extra = (
        "  release-checklist:\n"
        "    path: skills/release.md\n"
        "    priority: P1\n"
        "    triggers: [release checklist, go-live checklist]\n"
        "    description: Walk the release checklist before tagging\n\n"
    )
    text = text.replace("\ncomposition:\n", "\n" + extra + "composition:\n", 1)
    (dst / registry.name).write_text(text, encoding="utf-8")
    return dst / registry.name


async def _shoot(name: str, registry: Path, out: Path, tmp: Path) -> Path:
    size, step, stale = SHOTS[name]
    reg = _stale_copy(registry, tmp) if stale else registry
    app = RouteLensApp(Paths.make(reg), poll_interval=None, route_debounce=0)
    async with app.run_test(size=size) as pilot:
        await step(app, pilot)
        path = out / f"{name}.svg"
        app.save_screenshot(path.name, path=str(out))
    # librsvg drops a leading no-break space of a <text>; keep every space
    svg = read_bounded(path, LIMITS["max_catalog_bytes"], what="screenshot").decode("utf-8")
    svg = svg.replace("<svg ", '<svg xml:space="preserve" ', 1)
    path.write_text(svg, encoding="utf-8")
    return path


def make(out: Path, registry: Path, names: list[str] | None = None, png: bool = True) -> list[Path]:
    """Write ``<name>.svg`` (and ``.png``) for each shot into ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    made = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in names or list(SHOTS):
            svg = asyncio.run(_shoot(name, registry, out, Path(tmp)))
            made.append(svg)
            if png:
                if shutil.which("rsvg-convert") is None:
                    print("rsvg-convert not found (apt-get install librsvg2-bin): kept the SVG only", file=sys.stderr)
                    continue
                pngp = svg.with_suffix(".png")
                subprocess.run(["rsvg-convert", "-w", "1600", str(svg), "-o", str(pngp)], check=True)
                made.append(pngp)
    return made


def main(argv: list[str] | None = None) -> int:
    from routelens.paths import bundled_registry

    p = argparse.ArgumentParser(prog="python -m routelens.tui.screenshots", description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, default=Path("screenshots"))
    p.add_argument("--registry", type=Path, default=None)
    p.add_argument("--no-png", action="store_true", help="keep the SVGs only")
    p.add_argument("--keep-svg", action="store_true", help="keep the SVGs next to the PNGs")
    p.add_argument("names", nargs="*", choices=[*SHOTS, []], help="shots to make (default: all)")
    args = p.parse_args(argv)
    made = make(args.out, args.registry or bundled_registry(), args.names or None, png=not args.no_png)
    for path in made:
        if path.suffix == ".svg" and not args.no_png and not args.keep_svg and path.with_suffix(".png").exists():
            path.unlink()
            continue
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""TUI benchmark (headless ``run_test``): time to first full paint,
keystroke-to-decision delay and memory, on the bundled registry and on
synthetic registries of 10,000 and 100,000 skills; and the skill browser
(F2): time to open it, and each filter keystroke.

    python benchmarks/bench_tui.py [--sizes 10000,100000] [--keys 12] [--browser-only]

Every figure is printed with its ratio against a baseline measured in the
same run: times against the bundled registry, memory against the index
builder (``load_registry`` + ``write_generated``) for the same registry,
each in a fresh subprocess (peak RSS from /proc/self/status VmHWM, and the
tracemalloc peak of Python allocations). Targets (issue 14): first paint
<= 1.0 s at 10k skills and <= 2 s at 100k; keystroke-to-decision <= 50 ms
at 10k without the debounce (issue 4: memory within 3x of the builder's).

"Whole process": a new interpreter per run (``--repeat`` runs, median),
with routelens's bytecode compiled first, as an installed package has it
(``--no-bytecode``: compiled again by every process, as with an editable
install under ``PYTHONDONTWRITEBYTECODE=1``, which this machine sets:
about 0.25 s more a start),
timed from just before it starts to its first full paint (Python start-up
and imports included, as a user sees it), then to the router being ready
(built, or read from the matcher cache of docs/formats.md §11.4; the
first run of each registry writes that cache).

"First paint": from creating the app to the first frame with the
registry, index and catalog panes filled (for a big registry whose index
holds the registry's hash, their first lines: ``tui.model.glance``).
"Complete": to the first frame with the whole files and the header's
freshness state (the load runs in a worker). "Router ready": to the moment
a typed task would be routed (with an index the matcher cache vouches for,
the router the CLI opens, before the registry is parsed; else the load's
router, built or read after the parse); "parsed": to the load's router
being set (everything the main screen shows).

``--against SRC``: whole processes of this checkout and of another
checkout's ``src`` folder (first on ``PYTHONPATH``), interleaved round by
round, with each state's wall time and the process's CPU time when it was
seen, and the ratios (only these are printed).

"Keystroke-to-decision": from sending one key press to the end of the
frame showing the decision for the new text, with the app's default
debounce (50 ms) and with none; median and worst over ``--keys`` presses.

Skill browser (issue 13; targets: open <= 0.3 s, each filter keystroke
<= 50 ms at 10,000 skills, filtering off the UI thread): "open" is from
pressing F2 to the end of the first frame with the list and the first
skill's summary; a "keystroke" is from pressing one key in the filter to
the end of the frame whose list shows the result for the new text, typing
the 9-letter word "translate" and then a word no skill holds. Ratios are
against the bundled registry measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = ("deploy build review migrate audit profile render index cache parse export import sync backup restore "
         "schedule notify translate summarise label train evaluate publish archive rotate scan patch monitor").split()
TOPICS = ("api queue shard report invoice ledger cluster bucket pipeline schema dashboard tenant token widget "
          "gateway replica sensor catalog ticket release").split()


def synth_registry(path: Path, n: int) -> Path:
    """Write a registry of ``n`` skills (about 8 lines each), n/50
    compositions, two forced rules and a routing section; bodies are not
    written (the catalog reports them missing, as a big registry might)."""
    out = ["# synthetic registry for bench_tui.py", "schema_version: 1", "", "skills:"]
    for i in range(n):
        w, t = WORDS[i % len(WORDS)], TOPICS[(i // len(WORDS)) % len(TOPICS)]
        out += [
            f"  skill-{i:06d}:",
            f"    path: skills/skill-{i:06d}.md",
            f"    priority: P{i % 3}",
            "    triggers:",
            f"      - {w} the {t} {i}",
            f"      - {t} {w} job {i}",
            f"      - 作業{i}",
            f"    description: {w.capitalize()} the {t} number {i} and report what changed",
            "",
        ]
    out.append("composition:")
    for c in range(max(1, n // 50)):
        out += [f"  bundle-{c:05d}:", f"    - skill-{2 * c:06d}", f"    - skill-{2 * c + 1:06d}"]
    out += ["", "rules:", "  production-change:", "    forced: true", "    triggers: [production deploy, 本番]",
            "  secrets:", "    forced: true", "    triggers: [api key, secret rotation]",
            "", "routing:", "  threshold: 85", "  ambiguity_margin: 5", "  high_risk: [rm -rf, drop table]",
            "  max_index_ratio: 0.70", ""]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(out), encoding="utf-8")
    return path


def build(reg_path: Path) -> None:
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry

    write_generated(load_registry(reg_path), reg_path.parent / "generated")


async def _measure(reg_path: Path, keys: int, debounce: float) -> dict:
    from routelens.tui.app import RouteLensApp
    from routelens.tui.model import Paths

    t0 = time.perf_counter()
    app = RouteLensApp(Paths.make(reg_path), poll_interval=None, route_debounce=debounce)
    async with app.run_test(size=(140, 40)) as pilot:
        while not app.first_paint_at:
            await asyncio.sleep(0.002)
        first_paint = app.first_paint_at - t0
        while not app.main.full_paint_at:
            await asyncio.sleep(0.002)
        complete = app.main.full_paint_at - t0
        await pilot.pause()
        await app.workers.wait_for_complete()
        delays = []
        task = "deploy the api 0 and report what changed"
        await pilot.click("#task")
        while app.snapshot is None or app.snapshot.router is None:
            await asyncio.sleep(0.002)
        for ch in task[:keys]:
            before = app.last_decision_painted_at
            t = time.perf_counter()
            await pilot.press(ch if ch != " " else "space")
            while app.last_decision_painted_at == before or app.routing_pending:
                await asyncio.sleep(0.001)
            delays.append(app.last_decision_painted_at - t)
        decision = app.decision
    return {
        "first_paint_s": first_paint,
        "complete_s": complete,
        "key_median_ms": statistics.median(delays) * 1000,
        "key_max_ms": max(delays) * 1000,
        "mode": getattr(decision, "mode", None),
        "reason": getattr(decision, "reason", None),
    }


def measure(reg_path: Path, keys: int, debounce: float) -> dict:
    return asyncio.run(_measure(reg_path, keys, debounce))


# ---------------------------------------------------------------------------- whole process

_PROC_CHILD = r"""
import asyncio, json, sys, time
t0 = float(sys.argv[2])
import routelens
from routelens.tui.app import RouteLensApp
from routelens.tui.model import Paths
from pathlib import Path
def at(stamp):  # a perf_counter() stamp of the app as seconds since t0
    return time.time() - (time.perf_counter() - stamp) - t0
def routes(app):  # a typed task would be routed now (the router of the load, or of the preview's vouched index)
    router = getattr(app.main, "router", None) if hasattr(type(app.main), "router") else None
    return router is not None or (app.snapshot is not None and app.snapshot.router is not None)
async def run():
    app = RouteLensApp(Paths.make(Path(sys.argv[1])), poll_interval=None, route_debounce=0)
    async with app.run_test(size=(140, 40)) as pilot:
        cpu = {}  # CPU time of the process (all threads) when each state is seen: robust on a loaded machine
        while not app.first_paint_at:
            await asyncio.sleep(0.002)
        paint, cpu["paint"] = at(app.first_paint_at), time.process_time()
        while not app.main.full_paint_at:
            await asyncio.sleep(0.002)
        full, cpu["full"] = at(app.main.full_paint_at), time.process_time()
        while not routes(app):
            await asyncio.sleep(0.002)
        stamp = getattr(app.main, "router_ready_at", 0.0)
        ready, cpu["ready"] = at(stamp) if stamp else time.time() - t0, time.process_time()
        while app.snapshot is None or app.snapshot.router is None:
            await asyncio.sleep(0.002)
        parsed, cpu["parsed"] = time.time() - t0, time.process_time()
    print(json.dumps({"paint": paint, "full": full, "ready": ready, "parsed": parsed, "src": routelens.__file__,
                      **{"cpu_" + k: v for k, v in cpu.items()}}))
asyncio.run(run())
"""


def whole_process(reg_path: Path, env: dict) -> dict:
    """First paint, complete frame, "router ready" (a typed task routes)
    and "parsed" (the registry parsed, the load's router set) of a new
    ``python`` process (imports and start-up included), seconds from just
    before it is started; ``src``: the routelens package it imported."""
    t0 = time.time()
    out = subprocess.run([sys.executable, "-c", _PROC_CHILD, str(reg_path), repr(t0)], capture_output=True,
                         text=True, check=True, env=env)
    return json.loads(out.stdout.strip().splitlines()[-1])


def against_report(regs: list[tuple[str, Path]], other: Path, rounds: int) -> None:
    """Whole processes of this checkout and of the ``src`` folder ``other``
    (another checkout's, put first on ``PYTHONPATH``), interleaved round by
    round on the same registries and the same matcher cache folder, each
    checkout's bytecode compiled first; medians and the ratio after/before
    per figure (wall times on a shared machine: only the ratios carry over)."""
    import compileall

    import routelens

    compileall.compile_dir(str(Path(routelens.__file__).parent), quiet=1)
    compileall.compile_dir(str(other / "routelens"), quiet=1)
    base_env = {**os.environ, "TEXTUAL": "", "PYTHONPATH": str(other)}
    this_env = {**os.environ, "TEXTUAL": ""}
    this_env.pop("PYTHONPATH", None)
    keys = ("paint", "full", "ready", "parsed", "cpu_paint", "cpu_full", "cpu_ready", "cpu_parsed")
    print(f"whole process, this checkout against {other}, {rounds} interleaved rounds (medians; wall "
          "seconds, then the process's CPU seconds when each state was seen):")
    print(f"{'registry':<16}" + "".join(f"{k + ' before':>17}{'after':>9}{'ratio':>7}" for k in keys))
    for name, path in regs:
        whole_process(path, this_env)  # each writes the matcher cache it reads (the first run after a build)
        whole_process(path, base_env)
        before, after = [], []
        for _ in range(rounds):
            before.append(whole_process(path, base_env))
            after.append(whole_process(path, this_env))
        assert str(other) in before[0]["src"] and str(other) not in after[0]["src"], (before[0]["src"], after[0]["src"])
        line = f"{name:<16}"
        for k in keys:
            b = statistics.median(r[k] for r in before)
            a = statistics.median(r[k] for r in after)
            line += f"{b:>15.3f} s{a:>7.3f} s{a / b:>7.2f}"
        print(line, flush=True)
    print("paint: first frame; full: the complete frame (whole files, the header's freshness verdict); "
          "ready: a typed task routes; parsed: the registry parsed (everything the main screen shows)")


BROWSER_WORDS = ("translate", " zq")


async def _measure_browser(reg_path: Path) -> dict:
    from routelens.tui.app import RouteLensApp
    from routelens.tui.model import Paths
    from routelens.tui.screens.skills import SkillBrowser

    app = RouteLensApp(Paths.make(reg_path), poll_interval=None)
    async with app.run_test(size=(140, 40)) as pilot:
        while app.snapshot is None or app.snapshot.router is None:
            await asyncio.sleep(0.005)
        await pilot.pause()
        await app.workers.wait_for_complete()
        t = time.perf_counter()
        await pilot.press("f2")
        while not isinstance(app.screen, SkillBrowser) or not app.screen.opened_at:
            await asyncio.sleep(0.001)
        browser = app.screen
        opened = browser.opened_at - t
        while browser.pending:  # the first skill's detail
            await asyncio.sleep(0.002)
        keys = []
        text = ""
        for ch in "".join(BROWSER_WORDS):
            text += ch
            before = browser.filter_applied_at
            t = time.perf_counter()
            await pilot.press(ch if ch != " " else "space")
            while browser.filter_applied_at == before or browser.applied_filter != text:
                await asyncio.sleep(0.0005)
            keys.append(browser.filter_applied_at - t)
        shown = len(browser.shown)
    return {"open_s": opened, "key_median_ms": statistics.median(keys) * 1000, "key_max_ms": max(keys) * 1000,
            "shown": shown}


def measure_browser(reg_path: Path) -> dict:
    return asyncio.run(_measure_browser(reg_path))


def browser_report(regs: list[tuple[str, Path]]) -> None:
    """Print the skill browser's figures for each registry, with ratios
    against the first one (the bundled registry)."""
    print(f"{'skill browser':<16}{'open':>10}{'x base':>8}{'keystroke':>12}{'(max)':>9}{'x base':>8}")
    base = None
    for name, path in regs:
        m = measure_browser(path)
        base = base or m
        print(f"{name:<16}{m['open_s']:>8.3f} s{m['open_s'] / base['open_s']:>8.2f}"
              f"{m['key_median_ms']:>9.1f} ms{m['key_max_ms']:>6.0f} ms{m['key_median_ms'] / base['key_median_ms']:>8.2f}",
              flush=True)
    print("targets: open <= 0.3 s and each filter keystroke <= 50 ms at 10,000 skills")


# ---------------------------------------------------------------------------- memory (subprocess)

_MEM_CHILD = r"""
import asyncio, json, sys, tracemalloc
from pathlib import Path
what, reg, traced = sys.argv[1], Path(sys.argv[2]), sys.argv[3] == "1"
if traced:  # tracemalloc itself roughly doubles RSS: peak RSS is measured in a run without it
    tracemalloc.start()
if what == "builder":
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        write_generated(load_registry(reg), d)
else:
    from routelens.tui.app import RouteLensApp
    from routelens.tui.model import Paths
    async def run():
        app = RouteLensApp(Paths.make(reg), poll_interval=None, route_debounce=0)
        async with app.run_test(size=(140, 40)) as pilot:
            while not app.first_paint_at:
                await asyncio.sleep(0.005)
            app.query_one("#task").value = "deploy the api 17"
            while app.decision is None or app.routing_pending:
                await asyncio.sleep(0.005)
            await pilot.pause()
    asyncio.run(run())
peak = tracemalloc.get_traced_memory()[1]
# VmHWM (peak RSS of this process image); ru_maxrss would keep the parent's peak across exec
hwm = next(int(l.split()[1]) for l in open("/proc/self/status") if l.startswith("VmHWM:"))
print(json.dumps({"maxrss_kb": hwm, "traced_peak": peak}))
"""


def memory(what: str, reg_path: Path) -> dict:
    """Peak RSS (a run without tracemalloc) and tracemalloc peak (a second run)."""
    res = {}
    for traced in ("0", "1"):
        out = subprocess.run([sys.executable, "-c", _MEM_CHILD, what, str(reg_path), traced], capture_output=True,
                             text=True, check=True, env={**os.environ, "TEXTUAL": ""})
        got = json.loads(out.stdout.strip().splitlines()[-1])
        res["maxrss_kb" if traced == "0" else "traced_peak"] = got["maxrss_kb" if traced == "0" else "traced_peak"]
    return res


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="10000,100000", help="synthetic registry sizes (skills), comma-separated")
    p.add_argument("--keys", type=int, default=16, help="key presses per measurement (typing 'deploy the api 0 ...')")
    p.add_argument("--repeat", type=int, default=3, help="whole-process runs per registry (median)")
    p.add_argument("--no-memory", action="store_true")
    p.add_argument("--no-timing", action="store_true")
    p.add_argument("--no-browser", action="store_true", help="skip the skill browser (F2) figures")
    p.add_argument("--browser-only", action="store_true", help="only the skill browser (F2) figures")
    p.add_argument("--against", metavar="SRC", type=Path,
                   help="another checkout's src folder: whole processes of both, interleaved, with ratios (only)")
    p.add_argument("--no-bytecode", action="store_true",
                   help="do not compile routelens's bytecode before the whole-process runs")
    args = p.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s]
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["ROUTELENS_MATCHER_CACHE"] = str(Path(tmp) / "cache")  # never the user's own cache
        regs: list[tuple[str, Path]] = [("bundled", ROOT / "skills.yaml")]
        for n in sizes:
            t = time.perf_counter()
            path = synth_registry(Path(tmp) / f"r{n}" / "skills.yaml", n)
            build(path)
            lines = path.read_text(encoding="utf-8").count("\n")
            print(f"generated {n:,} skills: {lines:,} lines, {path.stat().st_size / 1e6:.1f} MB, built in "
                  f"{time.perf_counter() - t:.1f} s", flush=True)
            regs.append((f"{n:,} skills", path))
        base = None
        print()
        if args.against is not None:
            against_report(regs, args.against.resolve(), args.repeat)
            return 0
        if not args.no_browser:
            browser_report(regs)
            print()
        if args.browser_only:
            return 0
        if args.no_timing:
            regs_timed: list[tuple[str, Path]] = []
        else:
            regs_timed = regs
        if regs_timed:
            import compileall

            import routelens

            pkg = Path(routelens.__file__).parent
            if args.no_bytecode:  # what a first start of an editable install under PYTHONDONTWRITEBYTECODE pays
                import shutil

                for cache in pkg.rglob("__pycache__"):
                    shutil.rmtree(cache, ignore_errors=True)
                os.environ["PYTHONDONTWRITEBYTECODE"] = "1"
            else:
                compileall.compile_dir(str(pkg), quiet=1)
            print("whole process (python started, imports, first frame; then the router built or read from the "
                  f"matcher cache; routelens's bytecode {'not ' if args.no_bytecode else ''}compiled first):")
            base_p = None
            for name, path in regs_timed:
                env = {**os.environ, "TEXTUAL": ""}
                cold = whole_process(path, env)  # no matcher cache yet (it is written)
                runs = [whole_process(path, env) for _ in range(args.repeat)]
                paint = statistics.median(r["paint"] for r in runs)
                full = statistics.median(r["full"] for r in runs)
                ready = statistics.median(r["ready"] for r in runs)
                parsed = statistics.median(r["parsed"] for r in runs)
                if base_p is None:
                    base_p = paint
                print(f"{name:<16} first paint {paint:>6.3f} s ({paint / base_p:.2f}x bundled), complete "
                      f"{full:.3f} s, router ready {ready:.3f} s, parsed {parsed:.3f} s; first run (no matcher "
                      f"cache) paint {cold['paint']:.3f} s, ready {cold['ready']:.3f} s", flush=True)
            print()
            print(f"{'registry':<16}{'first paint':>13}{'x base':>8}{'complete':>11}{'key→decision':>15}{'(max)':>9}"
                  f"{'x base':>8}{'no debounce':>13}{'x base':>8}   decision")
        for name, path in regs_timed:
            m = measure(path, args.keys, 0.05)
            m0 = measure(path, args.keys, 0.0)
            if base is None:
                base = (m, m0)
            print(f"{name:<16}{m['first_paint_s']:>11.3f} s{m['first_paint_s'] / base[0]['first_paint_s']:>8.2f}"
                  f"{m['complete_s']:>9.3f} s{m['key_median_ms']:>12.1f} ms{m['key_max_ms']:>6.0f} ms{m['key_median_ms'] / base[0]['key_median_ms']:>8.2f}"
                  f"{m0['key_median_ms']:>10.1f} ms{m0['key_median_ms'] / base[1]['key_median_ms']:>8.2f}"
                  f"   {m['mode']}/{m['reason']}", flush=True)
        if not args.no_memory:
            print()
            print(f"{'registry':<16}{'builder rss':>13}{'tui rss':>11}{'ratio':>7}{'builder peak':>15}{'tui peak':>11}{'ratio':>7}")
            for name, path in regs:
                b = memory("builder", path)
                u = memory("tui", path)
                print(f"{name:<16}{b['maxrss_kb'] / 1024:>10.0f} MB{u['maxrss_kb'] / 1024:>8.0f} MB"
                      f"{u['maxrss_kb'] / b['maxrss_kb']:>7.2f}{b['traced_peak'] / 2**20:>12.0f} MB"
                      f"{u['traced_peak'] / 2**20:>8.0f} MB{u['traced_peak'] / b['traced_peak']:>7.2f}", flush=True)
        print()
        print("targets (issue 14): first paint <= 1.0 s at 10,000 skills, <= 2 s at 100,000; key->decision "
              "without the debounce <= 50 ms at 10,000 (issue 4: memory <= 3x builder)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

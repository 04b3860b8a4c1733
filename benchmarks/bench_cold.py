"""Cold `routelens route TASK` by CPU time, whole processes, this checkout
against another one interleaved in the same run (issue 14).

Usage::

    python benchmarks/bench_cold.py [--sizes 10000,100000] [--rounds 5] [--against PATH/TO/other/src]

Registries are the original design's synthetic shape (``bench_build.gen_registry(n, seed)``), a
3-skill one as the baseline, written to a temporary folder and built with
``routelens build``. Each checkout gets its own matcher cache, written by a
first run that is not counted; then every round runs ``routelens route TASK``
once per registry and checkout, interleaved, and the CPU time (user +
system, ``RUSAGE_CHILDREN``) of each process is taken. On a machine shared
with other work CPU time is much steadier than wall time. Printed: per
checkout the medians and their ratio to the 3-skill registry (the target:
within 2x at 10,000 skills, within 4x at 100,000), per registry the ratio of
the two checkouts, and every round's figures. routelens's bytecode is
compiled first for both checkouts, as an installed package has it.
"""

from __future__ import annotations

import argparse
import compileall
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import gen_registry  # noqa: E402

TASK = "please trace the timeout"
HERE = Path(__file__).resolve().parents[1] / "src"


def cpu_of(src: Path, folder: Path, cache: Path, extra: list[str]) -> float:
    """CPU seconds (user + system) of one ``routelens route TASK`` process
    (plus ``extra`` arguments) run with ``src`` first on the path and
    ``cache`` as its matcher cache."""
    env = dict(os.environ, PYTHONPATH=str(src), ROUTELENS_MATCHER_CACHE=str(cache))
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([sys.executable, "-m", "routelens", "route", TASK, "--registry", "skills.yaml", *extra],
                   cwd=folder, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated skill counts (3 is always run)")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds (medians)")
    ap.add_argument("--against", metavar="SRC", help="another checkout's src/ folder, run interleaved with this one")
    ap.add_argument("--no-fixes", action="store_true",
                    help="route with --no-fixes (the task falls back with no_match on 3 skills, and a fallback "
                         "verifies fixes: about 0.1 s the bigger registries' decision does not pay)")
    ap.add_argument("--seed", type=int, default=42)
    args = ap.parse_args(argv)
    extra = ["--no-fixes"] if args.no_fixes else []
    srcs = {"this checkout": HERE}
    if args.against:
        srcs[args.against] = Path(args.against).resolve()
    for src in srcs.values():
        compileall.compile_dir(str(src / "routelens"), quiet=1)
    sizes = [3] + [int(s) for s in args.sizes.split(",") if s.strip() and int(s) != 3]
    with tempfile.TemporaryDirectory(prefix="routelens-cold-") as tmp:
        folders = {}
        for n in sizes:
            folder = Path(tmp) / f"r{n}"
            folder.mkdir()
            (folder / "skills.yaml").write_bytes(gen_registry(n, args.seed))
            subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", "skills.yaml"], cwd=folder,
                           env=dict(os.environ, PYTHONPATH=str(HERE)), stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, check=True)
            folders[n] = folder
        caches = {name: Path(tmp) / f"cache-{i}" for i, name in enumerate(srcs)}
        for name, src in srcs.items():  # the first run writes each checkout's matcher cache: not counted
            for folder in folders.values():
                cpu_of(src, folder, caches[name], extra)
        got: dict[tuple[str, int], list[float]] = {(name, n): [] for name in srcs for n in sizes}
        loads = []
        for _ in range(args.rounds):
            loads.append(os.getloadavg()[0])
            for n, folder in folders.items():
                for name, src in srcs.items():
                    got[(name, n)].append(cpu_of(src, folder, caches[name], extra))
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load average {min(loads):.1f}-{max(loads):.1f}; "
          f"CPU time of `routelens route TASK{' --no-fixes' if extra else ''}`, matcher cache present, "
          f"medians of {args.rounds} rounds")
    for name in srcs:
        base = statistics.median(got[(name, 3)])
        print(f"{name}: " + " | ".join(
            f"{n:,} skills {statistics.median(got[(name, n)]):.3f} s ({statistics.median(got[(name, n)]) / base:.2f}x)"
            for n in sizes))
    if args.against:
        mine, theirs = srcs
        for n in sizes:
            print(f"{n:,} skills: this checkout / {theirs} = "
                  f"{statistics.median(got[(mine, n)]) / statistics.median(got[(theirs, n)]):.2f}; rounds "
                  f"{[round(x, 2) for x in got[(mine, n)]]} against {[round(x, 2) for x in got[(theirs, n)]]}")
    print("targets: within 2x of 3 skills at 10,000, within 4x at 100,000")
    return 0


if __name__ == "__main__":
    sys.exit(main())

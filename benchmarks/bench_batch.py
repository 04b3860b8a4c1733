"""Cold start and batch routing, whole processes, against baselines measured
in the same run (issue 14).

Usage::

    python benchmarks/bench_batch.py [--sizes 10000,100000] [--tasks 1000] [--repeat 5] [--against SRC]

Registries are the original design's synthetic shape (``bench_build.gen_registry``:
trigger words shared by many skills), written to a temporary folder and
built with ``routelens build``. Measured, each in fresh processes:

- **cold route**: ``routelens route TASK`` once per round, ``--repeat``
  rounds interleaved with the same command on a 3-skill registry of the same
  shape (the baseline). Three states: the first run after the build
  (no matcher cache yet: it is built and written), then runs that find the
  cache (the usual case), and runs with ``ROUTELENS_MATCHER_CACHE=off``
  (every start rebuilds the matchers). Targets: within 2x of the 3-skill
  command at 10,000 skills, within 4x at 100,000.
- **batch**: ``routelens route --json -`` over ``--tasks`` tasks on standard
  input; wall time per task including start-up, and the per-task latency
  read from the moments the decision lines arrive (the first line carries
  the start-up and is left out of the percentiles). Targets at 10,000 skills:
  <= 5 ms per task including start-up, p99 <= 10 ms.
- **naive loop**: the same tasks scored by ``rapidfuzz.process.extract``
  (``fuzz.partial_ratio``) against every trigger of the registry, in one
  process (the issue's baseline; at most ``--naive`` tasks, its per-task
  mean is what the ratio uses), and a per-process loop
  (``routelens route TASK`` once per task, ``--per-process`` tasks). Target:
  batch >= 10x faster per task than the naive loop.

Every process runs with routelens's bytecode compiled first (this checkout's
and ``--against``'s), as an installed package has it; ``--no-bytecode``
leaves it to each process (an editable install under
``PYTHONDONTWRITEBYTECODE`` compiles routelens again at every start: about
0.3-0.4 s of CPU).

Tasks mix the registry's trigger words with filler, typos, inflections,
Japanese and off-topic requests (fixed seed). Absolute times depend on the
machine and its load; ratios are measured in the same run.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_build import EN_WORDS, JA_WORDS, gen_registry  # noqa: E402

FILLER = "please can you help me with the our this new for and then today team before after again".split()
OFFTOPIC = ["what is the weather tomorrow", "recommend a good book", "how tall is mount fuji",
            "明日の天気は？", "おすすめの映画を教えて", "tell me a joke"]
ROUTELENS = [sys.executable, "-m", "routelens"]


def make_tasks(n: int, seed: int = 11) -> list[str]:
    """``n`` varied tasks over the gen shape's vocabulary (fixed seed)."""
    rng = random.Random(seed)
    out = []
    for _ in range(n):
        r = rng.random()
        words = rng.sample(EN_WORDS, rng.randint(1, 3))
        if r < 0.08:
            out.append(rng.choice(OFFTOPIC))
            continue
        if r < 0.18:  # a typo
            w = words[0]
            if len(w) > 4:
                i = rng.randrange(1, len(w) - 1)
                words[0] = w[:i] + w[i + 1:]
        elif r < 0.28:  # an inflection
            words[0] = words[0] + ("s" if not words[0].endswith("s") else "es")
        fill = rng.sample(FILLER, rng.randint(1, 5))
        parts = fill[:2] + words + fill[2:]
        text = " ".join(parts)
        if r > 0.7:
            text += " " + rng.choice(JA_WORDS)
        elif r > 0.6:
            text = rng.choice(JA_WORDS) + "の" + rng.choice(JA_WORDS) + "をお願いします"
        out.append(text)
    return out


def _run(cmd: list[str], cwd: Path, env: dict | None = None, stdin: str | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, input=stdin, text=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   check=True, env=env)
    return time.perf_counter() - t0


def build(folder: Path) -> None:
    subprocess.run(ROUTELENS + ["build", "--registry", "skills.yaml"], cwd=folder, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def batch(folder: Path, tasks: list[str], env: dict) -> dict:
    """Wall time of ``route --json -`` over ``tasks`` and per-task latencies
    (moments consecutive decision lines arrive)."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(ROUTELENS + ["route", "--json", "-", "--registry", "skills.yaml"], cwd=folder,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)

    def feed():
        proc.stdin.write(("\n".join(tasks) + "\n").encode())
        proc.stdin.close()

    threading.Thread(target=feed, daemon=True).start()
    stamps = []
    for _ in proc.stdout:
        stamps.append(time.perf_counter())
    proc.wait()
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or len(stamps) != len(tasks):
        raise SystemExit(f"batch failed: exit {proc.returncode}, {len(stamps)} of {len(tasks)} lines")
    gaps = sorted(b - a for a, b in zip(stamps, stamps[1:]))
    return {"wall": wall, "per_task": wall / len(tasks), "first": stamps[0] - t0,
            "p50": gaps[len(gaps) // 2], "p99": gaps[min(len(gaps) - 1, int(len(gaps) * 0.99))], "max": gaps[-1]}


def naive(folder: Path, tasks: list[str]) -> float:
    """Mean seconds per task of rapidfuzz against every trigger (in this process)."""
    from rapidfuzz import fuzz, process

    trig = re.findall(r"^      - (.*)$", (folder / "skills.yaml").read_text(encoding="utf-8"), re.M)
    trig = [t.strip("'\"") for t in trig]
    t0 = time.perf_counter()
    for t in tasks:
        process.extract(t, trig, scorer=fuzz.partial_ratio, limit=None, processor=str.casefold)
    return (time.perf_counter() - t0) / len(tasks)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="10000,100000", help="comma-separated skill counts")
    ap.add_argument("--tasks", type=int, default=1000, help="tasks in the batch")
    ap.add_argument("--repeat", type=int, default=5, help="rounds of the cold start (medians)")
    ap.add_argument("--naive", type=int, default=100, help="tasks the naive rapidfuzz loop scores")
    ap.add_argument("--per-process", type=int, default=3, help="tasks of the per-process loop")
    ap.add_argument("--batch-max", type=int, default=20_000,
                    help="largest registry the batch and naive loops run on (above it: the cold start only)")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--against", metavar="SRC",
                    help="another checkout's src/ folder (e.g. a worktree of main): its batch runs too, "
                         "interleaved with this one's --repeat times, and both are printed with their ratio")
    ap.add_argument("--no-bytecode", action="store_true",
                    help="do not compile routelens's bytecode first (every process compiles it again when "
                         "PYTHONDONTWRITEBYTECODE is set)")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if not args.no_bytecode:
        import compileall

        import routelens

        for pkg in [Path(routelens.__file__).parent] + ([Path(args.against) / "routelens"] if args.against else []):
            compileall.compile_dir(str(pkg), quiet=1)
    tasks = make_tasks(args.tasks)
    task = "please trace the timeout"
    env = dict(os.environ)
    env.pop("ROUTELENS_MATCHER_CACHE", None)
    off = {**env, "ROUTELENS_MATCHER_CACHE": "off"}
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}; "
          f"{len(tasks)} tasks; medians of {args.repeat} rounds; routelens's bytecode "
          f"{'not ' if args.no_bytecode else ''}compiled first")
    with tempfile.TemporaryDirectory(prefix="routelens-batch-") as tmp:
        env["XDG_CACHE_HOME"] = off["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")
        small = Path(tmp) / "r3"
        small.mkdir()
        (small / "skills.yaml").write_bytes(gen_registry(3, args.seed))
        build(small)
        one = ROUTELENS + ["route", task, "--registry", "skills.yaml"]
        _run(one, small, env)
        for n in sizes:
            folder = Path(tmp) / f"r{n}"
            folder.mkdir()
            (folder / "skills.yaml").write_bytes(gen_registry(n, args.seed))
            t = time.perf_counter()
            build(folder)
            print(f"\n{n:,} skills: built in {time.perf_counter() - t:.1f} s")
            first = _run(one, folder, env)  # writes the matcher cache
            base, cached, uncached = [], [], []
            for _ in range(args.repeat):
                base.append(_run(one, small, env))
                cached.append(_run(one, folder, env))
                uncached.append(_run(one, folder, off))
            b, c, u = (statistics.median(x) for x in (base, cached, uncached))
            print(f"cold route: 3 skills {b:.3f} s | {n:,} skills: first run {first:.3f} s ({first / b:.1f}x), "
                  f"cached {c:.3f} s ({c / b:.2f}x), cache off {u:.3f} s ({u / b:.2f}x)")
            if n > args.batch_max:
                continue
            if args.against:
                other = {**env, "PYTHONPATH": os.path.abspath(args.against)}
                batch(folder, tasks[:10], other)  # writes that checkout's matcher cache
                mine, theirs = [], []
                for _ in range(args.repeat):
                    mine.append(batch(folder, tasks, env))
                    theirs.append(batch(folder, tasks, other))
                for name, rs in (("this checkout", mine), (args.against, theirs)):
                    med = {k: statistics.median(r[k] for r in rs) for k in ("per_task", "p50", "p99", "max")}
                    print(f"batch, {name}: {med['per_task'] * 1e3:.2f} ms/task incl. start-up, p50 "
                          f"{med['p50'] * 1e3:.2f} ms, p99 {med['p99'] * 1e3:.2f} ms, max {med['max'] * 1e3:.1f} ms "
                          f"(medians of {args.repeat})")
                print(f"-> this checkout {statistics.median(r['per_task'] for r in theirs) / statistics.median(r['per_task'] for r in mine):.2f}x faster per task")
            bt = batch(folder, tasks, env)
            bo = batch(folder, tasks, off)
            nv = naive(folder, tasks[:args.naive])
            pp = [_run(ROUTELENS + ["route", x, "--registry", "skills.yaml"], folder, env)
                  for x in tasks[:args.per_process]]
            ppm = statistics.mean(pp)
            print(f"batch ({len(tasks)} tasks): {bt['per_task'] * 1e3:.2f} ms/task incl. start-up "
                  f"(first line {bt['first']:.3f} s), p50 {bt['p50'] * 1e3:.2f} ms, p99 {bt['p99'] * 1e3:.2f} ms, "
                  f"max {bt['max'] * 1e3:.1f} ms; cache off {bo['per_task'] * 1e3:.2f} ms/task")
            print(f"naive rapidfuzz loop: {nv * 1e3:.1f} ms/task -> batch {nv / bt['per_task']:.1f}x faster; "
                  f"per-process loop: {ppm * 1e3:.0f} ms/task -> batch {ppm / bt['per_task']:.0f}x faster")
    print("\ntargets: cold route within 2x of 3 skills at 10,000 (4x at 100,000); batch <= 5 ms/task incl. "
          "start-up, p99 <= 10 ms, >= 10x the naive loop, at 10,000 skills")
    return 0


if __name__ == "__main__":
    sys.exit(main())

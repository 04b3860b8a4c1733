"""``routelens build``: write the compact index and the debug catalog."""

from __future__ import annotations

import os
import sys
import time

from routelens.artifacts.build import compute_stats
from routelens.artifacts.sizes import exact_reduction
from routelens.artifacts.vocabulary import stem_collisions
from routelens.artifacts.write import write_generated
from routelens.cli.commands.common import DEMO_LABEL, load_or_exit, positive_int, print_body_warnings, print_key_warnings, resolve_paths
from routelens.errors import BuildError
from routelens.gcpause import gc_paused
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.text.numbers import budget_max_chars, budget_verdict, num, pct, size_words
from routelens.text.visible import visible


def register(sub, common) -> None:
    p = sub.add_parser("build", parents=[common], help="write generated/routing.min.json and catalog.json",
                       description="Validate the registry and write the compact index and the debug catalog "
                       "atomically. Nothing is written when the registry has errors (exit 2).")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help="processes that read a big registry: 2 reads a registry of a megabyte or more in two "
                   "halves at once, 1 in this process; the result is the same (default: 2 when a CPU is idle, "
                   "judged by the load average, else 1)")
    p.set_defaults(func=run)


def count(n: int, word: str) -> str:
    """``1 skill``, ``10,000 skills``."""
    return f"{num(n)} {word}{'' if n == 1 else 's'}"


def size_summary(st: dict) -> list[str]:
    """Lines of the size summary printed by build and stats: sizes with
    thousands separators, each file against the registry in words
    (``69.5% smaller``, as the UI says it), the budget in whole characters
    (docs/formats.md §5.2)."""
    r, c, i, b = st["registry"], st["catalog"], st["index"], st["budget"]
    most = budget_max_chars(r["chars"], b["max_index_ratio"])
    verdict = budget_verdict(b["index_chars"], r["chars"], b["max_index_ratio"])
    rows = [("registry", r, ""), ("catalog", c, size_words(exact_reduction(c, r))),
            ("index", i, size_words(exact_reduction(i, r)))]
    # columns as wide as their widest figure (a 58 MB catalog ran its chars into its bytes)
    w = [max(least, *(len(num(x[key])) + 1 for _, x, _ in rows)) for key, least in (("chars", 10), ("bytes", 10),
                                                                                        ("lines", 8))]
    return [
        f"{'':9}{'chars':>{w[0]}}{'bytes':>{w[1]}}{'lines':>{w[2]}}  vs the registry",
        *(f"{name:9}{num(x['chars']):>{w[0]}}{num(x['bytes']):>{w[1]}}{num(x['lines']):>{w[2]}}"
          + (f"  {words}" if words else "") for name, x, words in rows),
        f"budget: index {num(b['index_chars'])} chars = {pct(b['ratio'])} of the registry; max_index_ratio "
        f"{b['max_index_ratio']} allows at most {num(most)} chars: {verdict}",
    ]


def auto_jobs() -> int:
    """2 when another CPU is idle (the one-minute load average is below the
    CPUs this process may use minus a half), else 1: on a busy machine the
    second reader only competes with this one."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        cpus = os.cpu_count() or 1
    try:
        load = os.getloadavg()[0]
    except (AttributeError, OSError):  # pragma: no cover - no load average
        return 1
    return 2 if cpus >= 2 and load < cpus - 0.5 else 1


#: registries bigger than this (bytes) get progress lines on stderr
BIG_REGISTRY_BYTES = 4 * 1024 * 1024


def run(args) -> int:
    reg_path, out = resolve_paths(args)
    t0 = time.perf_counter()
    try:
        size = reg_path.stat().st_size
    except OSError:
        size = 0
    big = size > BIG_REGISTRY_BYTES
    tty = big and sys.stderr.isatty()
    progress = None
    if big:
        # a terminal gets a live percentage; a log gets one line per phase
        print(f"reading {reg_path} ({size / 1e6:.1f} MB)...", end="" if tty else "\n", file=sys.stderr, flush=True)
    if tty:
        # the CR is deliberate: written to the terminal itself, not through the escaping stream
        term = getattr(sys.stderr, "raw", sys.stderr)
        shown = visible(str(reg_path))

        def progress(fraction: float) -> None:
            print(f"\rreading {shown} ({size / 1e6:.1f} MB): {fraction * 100:3.0f}%", end="", file=term, flush=True)
    try:
        reg = load_or_exit(args, outcome="nothing was written", progress=progress, jobs=args.jobs or auto_jobs()).registry
    finally:
        if tty:
            print(file=sys.stderr, flush=True)  # end the progress line
    with gc_paused():  # many small containers, no cycles: the collector would rescan the registry each time
        print_body_warnings(reg)  # a missing body is said, never an error (docs/formats.md §4.4)
        print_key_warnings(reg)  # `satus: disabled` is metadata: said, never an error (§2.2)
        # stem collisions between one-word triggers: a warning, like the registry's (docs/formats.md §3.7)
        for sa, ta, sb, tb in stem_collisions(reg):
            print(f"{reg_path}: warning: skills.{sb}: trigger {tb!r} and {ta!r} of {sa} are inflections of one "
                  "word: a task saying either matches both", file=sys.stderr)
    if big:
        print(f"validated {num(len(reg.skills))} skills in {time.perf_counter() - t0:.1f}s; writing {out}...",
              file=sys.stderr, flush=True)
    try:
        output, written = write_generated(reg, out)
    except BuildError as exc:
        print(f"routelens build: {exc}", file=sys.stderr)
        return 2
    if big:
        print(f"done in {time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    if not args.quiet:
        st = output.stats if output.stats is not None else compute_stats(reg, output.index, output.catalog)
        state = ", ".join(written) if written else "unchanged"
        which = f"{DEMO_LABEL} {reg_path}" if getattr(args, "demo", False) else str(reg_path)
        print(f"built {out / INDEX_NAME} and {out / CATALOG_NAME} from {which} "
              f"({count(len(reg.skills), 'skill')}, {count(len(reg.compositions), 'composition')}, "
              f"{count(len(reg.rules), 'rule')}; {state})")
        for line in size_summary(st):
            print(line)
    return 0

"""``routelens build``: write the compact index and the debug catalog."""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path
from typing import Any, Iterable

from routelens.artifacts.build import build, compute_stats
from routelens.artifacts.catalog import CatalogFrame, SkillsChunks, catalog_frame, skills_chunks
from routelens.artifacts.forked import Forked
from routelens.artifacts.sizes import budget_advice, exact_reduction
from routelens.artifacts.vocabulary import TriggerFacts, WordFacts, stem_collisions, triggers_facts, words_facts
from routelens.artifacts.write import check_out_dir, write_built
from routelens.artifacts.bodies import body_problems
from routelens.cli.commands.common import (
    DEMO_LABEL, body_warning_lines, demo_read_only, free_at_exit, load_or_exit, positive_int, resolve_paths,
)
from routelens.errors import BuildError
from routelens.gcpause import gc_paused
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry.keys import misspelled_keys
from routelens.registry.model import Registry
from routelens.registry.split import MIN_CHARS
from routelens.text.numbers import budget_max_chars, budget_verdict, num, pct, size_words
from routelens.text.visible import visible


def register(sub, common) -> None:
    p = sub.add_parser("build", parents=[common], help="write generated/routing.min.json and catalog.json",
                       description="Validate the registry and write the compact index and the debug catalog "
                       "atomically. Nothing is written when the registry has errors (exit 2).")
    p.add_argument("--quiet", "-q", action="store_true", help="print nothing on success")
    p.add_argument("--jobs", "-j", type=positive_int, default=None, metavar="N",
                   help="processes for a big registry: 2 shares the work on a registry of a megabyte or more "
                   "between two processes (its entries are read in two halves, then the catalog and the warnings "
                   "are made in the second process while the index is built), 1 does it all in this process; the "
                   "result is the same (default: 2 when a CPU is idle, judged by the load average, else 1)")
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

#: with ``--jobs 2``, a registry of at least this many characters has its
#: catalog's skills and its warnings rendered in a second process while this
#: one builds the index: below it the fork and the exchange cost about what
#: the second core saves (the same bound as the two readers', registry.split)
PARALLEL_MIN_CHARS = MIN_CHARS


def warning_lines(reg: Registry, reg_path: Path, triggers: Iterable[str] | None = None,
                  problems: list[tuple[Any, str]] | None = None) -> list[str]:
    """The warnings ``build`` prints before writing (no line breaks): those
    ``check`` prints too (bodies that cannot be loaded, misspelled keys:
    :func:`~routelens.cli.commands.common.registry_warning_lines`), then
    each stem collision between one-word triggers (§3.7), a warning like the
    registry's (:func:`other_warning_lines`). ``triggers``: the registry's
    distinct triggers, when the caller has them (:func:`stem_collisions`);
    ``problems``: the bodies that cannot be loaded
    (:func:`~routelens.artifacts.bodies.body_problems`), when the caller
    has them."""
    return body_warning_lines(reg, problems) + other_warning_lines(reg, reg_path, triggers)


def other_warning_lines(reg: Registry, reg_path: Path, triggers: Iterable[str] | None = None) -> list[str]:
    """The warnings of :func:`warning_lines` after those about the bodies:
    each metadata key that looks like a misspelled key
    (:func:`~routelens.registry.keys.misspelled_keys`, docs/formats.md
    §2.2), then each stem collision between one-word triggers of different
    skills (§3.7). ``triggers``: as for :func:`warning_lines`."""
    lines = [str(w) for w in misspelled_keys(reg)]
    for sa, ta, sb, tb in stem_collisions(reg, triggers):
        lines.append(f"{reg_path}: warning: skills.{sb}: trigger {tb!r} and {ta!r} of {sa} are inflections of one "
                     "word: a task saying either matches both")
    return lines


#: the share of the catalog's skills (the first ones, in id order) the second process of ``--jobs 2`` renders;
#: this one renders the rest once the index is built, while the second finishes its part, then says which
#: bodies cannot be loaded while it waits for the last message (about 20 ms at 10,000 skills): on the
#: synthetic 10,000-skill registry the second process's last message then comes about when this one has
#: done both (CPU time after the fork, medians of 14 runs under load: it asks at 270 ms, the message is
#: sent at 275; with 0.75, since the triggers are keyed by their parts' words, it asked at 288 and the
#: message was sent at 265, so the body warnings came after it, on the longest path)
CHILD_SHARE = 0.9


class _Helper:
    """The second process of ``--jobs 2`` (:class:`Forked`), as
    :func:`~routelens.artifacts.build.build`'s helper. It sends, in turn:
    what the index's vocabulary takes from the triggers alone to count the
    skills' terms (each distinct trigger's key word, the terms they write
    counted and their commonness: docs/formats.md §3.7,
    :func:`triggers_facts`); what the index says of the triggers' words
    (:func:`words_facts`) and the catalog's text but its skills and
    statistics (:func:`catalog_frame`); then the warning lines but those
    about the bodies (:func:`other_warning_lines`, whose stem collisions
    reuse the key words; this process finds the bodies while it counts
    their terms, and says which cannot be loaded while it waits for this
    last message, or after it when it came first) and the catalog's first skills (:data:`CHILD_SHARE` of them,
    :func:`skills_chunks`), while this process renders the others. What it fails to send is made here, the
    same."""

    def __init__(self, reg: Registry, reg_path: Path, bodies: dict[str, dict[str, Any]]) -> None:
        self.reg = reg
        self.reg_path = reg_path
        self.bodies = bodies  # filled by the build before it asks for the catalog's skills
        self.body_lines: list[str] | None = None  # the warnings about the bodies, once made
        self.split = int(len(reg.skills) * CHILD_SHARE)
        self.lines: list[str] | None = None  # the warning lines but the bodies', once known
        self.given_frame: CatalogFrame | None = None  # the catalog's frame, once known
        self.received = 0  # messages read from the child
        self.child = Forked.start(self._work)

    def _work(self, send) -> None:  # pragma: no cover - runs in the child
        cut: dict[str, tuple[str, ...]] = {}
        facts = triggers_facts(self.reg, cut)
        send(facts)
        send((words_facts(self.reg, facts[0], cut), catalog_frame(self.reg)))
        lines = other_warning_lines(self.reg, self.reg_path, cut)
        chunks, chars, breaks = skills_chunks(self.reg, None, 0, self.split)
        send((lines, chars, breaks), b"".join(chunks))

    def _message(self, n: int):
        """The child's ``n``-th message (0: the triggers' facts, 1: their words', 2: the rest), or None."""
        while self.child is not None and self.received <= n:
            got = self.child.receive()
            self.received += 1
            if self.received == n + 1:
                return got
        return None

    def trigger_facts(self) -> TriggerFacts | None:
        got = self._message(0)
        return got[0] if got is not None else None

    def word_facts(self) -> WordFacts | None:
        got = self._message(1)
        if got is None or not (type(got[0]) is tuple and len(got[0]) == 2):
            return None
        words, frame = got[0]
        if (type(frame) is tuple and len(frame) == 3 and type(frame[0]) is str and type(frame[1]) is str
                and type(frame[2]) is dict):
            self.given_frame = frame
        return words

    def skills(self) -> SkillsChunks | None:
        if self.child is not None and self.received == 2 and not self.child.ready():
            self._body_lines()  # the bodies are all known now: said while the child still renders its part
        got = self._message(2)
        if got is None:
            return None
        header, chunks = got
        if not (type(header) is tuple and len(header) == 3 and type(header[0]) is list):
            return None
        lines, chars, breaks = header
        self.lines = lines
        return chunks, chars, breaks

    def frame(self) -> CatalogFrame | None:
        if self.received < 2:  # it comes with the words' facts, which the vocabulary did not ask for
            self.word_facts()
        return self.given_frame

    def _body_lines(self) -> list[str]:
        if self.body_lines is None:
            with gc_paused():
                self.body_lines = body_warning_lines(self.reg, body_problems(self.reg, self.bodies))
        return self.body_lines

    def warning_lines(self) -> list[str]:
        """:func:`warning_lines`, those about the bodies judged from what the build found of them."""
        if self.lines is None:
            with gc_paused():
                self.lines = other_warning_lines(self.reg, self.reg_path)
        return self._body_lines() + self.lines

    def close(self) -> None:
        if self.child is not None:
            self.child.close()


def run(args) -> int:
    reg_path, out = resolve_paths(args)
    demo_read_only(args, "build --demo", out)  # the bundled example's generated/ is not the user's to rewrite
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
        jobs = args.jobs or auto_jobs()
        reg = load_or_exit(args, outcome="nothing was written", progress=progress, jobs=jobs).registry
    finally:
        if tty:
            print(file=sys.stderr, flush=True)  # end the progress line
    try:
        check_out_dir(reg, out)  # refused before anything is built (docs/formats.md §3.3)
    except BuildError as exc:
        with gc_paused():
            for line in warning_lines(reg, reg_path):  # said as always, then why nothing is written
                print(line, file=sys.stderr)
        print(f"routelens build: {exc}", file=sys.stderr)
        return 2
    bodies: dict[str, dict[str, Any]] = {}  # what the build finds of each body, for the warnings
    free_at_exit(bodies)
    helper = None
    if jobs >= 2 and len(reg.text) >= PARALLEL_MIN_CHARS:
        # the second process prepares the trigger keys, the warnings and the catalog's skills meanwhile
        helper = _Helper(reg, reg_path, bodies)
        if helper.child is None:
            helper = None
    try:
        if helper is None:
            t_read = time.perf_counter() - t0
            with gc_paused():  # many small containers, no cycles: the collector would rescan the registry
                built = build(reg, None, bodies)
                lines = warning_lines(reg, reg_path, None, body_problems(reg, bodies))
            for line in lines:
                print(line, file=sys.stderr)
            if big:
                print(f"validated {num(len(reg.skills))} skills in {t_read:.1f}s; writing {out}...",
                      file=sys.stderr, flush=True)
            try:
                output, written = write_built(reg, out, built, check_source=True)
            except BuildError as exc:
                print(f"routelens build: {exc}", file=sys.stderr)
                return 2
        else:
            t_read = time.perf_counter() - t0
            built = build(reg, helper, bodies)
            for line in helper.warning_lines():  # the same lines, in the same order, as one process prints
                print(line, file=sys.stderr)
            if big:
                print(f"validated {num(len(reg.skills))} skills in {t_read:.1f}s; writing {out}...",
                      file=sys.stderr, flush=True)
            try:
                output, written = write_built(reg, out, built, check_source=True)
            except BuildError as exc:
                print(f"routelens build: {exc}", file=sys.stderr)
                return 2
    finally:
        if helper is not None:
            helper.close()
    free_at_exit(built, output)  # with the registry: freed by the process's exit (leave_to_exit)
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
        if not st["budget"]["ok"]:
            print(f"  {budget_advice(output.index, st['budget']['max_index_ratio'])}")
    return 0

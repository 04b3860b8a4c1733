"""Whole-process ``routelens build`` against the original design's Go
generator, and peak memory, on synthetic registries, measured side by side
in one run.

Usage::

    python benchmarks/bench_build.py [--sizes 1000,10000,100000] [--repeat 5]
                                     [--go PATH] [--shape gen|bench] [--against FOLDER]

The Go generator is not part of routelens: the benchmark only runs a binary
it is given, with ``--go PATH`` or in the environment variable
``ROUTELENS_GO_BASELINE`` (the binary reads ``./skills.yaml`` and writes
``./generated/routing.min.json``). Without one it says so and prints the
routelens figures alone. The Go program is quadratic in the number of
skills (over a minute at 100,000), so it runs only up to ``--go-max``
skills (default 20,000).

For each size a registry is written to a temporary folder, one build runs
there untimed (it writes Python's bytecode caches, which an installed
routelens has, and routelens's word-frequency cache, in a folder of this
run unless ``ROUTELENS_MATCHER_CACHE`` names one), and three whole
processes run there in turn, ``--repeat`` rounds, interleaved so that a
busy machine slows all of them alike: the Go binary, ``routelens build
--jobs 2`` (on a registry of a megabyte or more a second process reads half
of the entries, then another makes the catalog and the warnings while the
first builds the index; by default ``build`` does so only when a CPU is
idle) and ``routelens build --jobs 1``. Printed: the median and the
best wall time of each (seconds), the ratio of each routelens median to
the Go median in the same run, and the peak resident memory (MiB) of the
routelens process and of its second process, from ``getrusage`` in a fresh
interpreter that runs the same command once, and that run's CPU time of each
process: the first one's is the longest path through the build, about its
wall time on an idle machine, however busy this one is. Each process's own
peak counts the pages a forked child shares with its parent twice, so
``--jobs 2`` is also measured once with both processes at once: in a memory
cgroup of its own where the machine allows (Linux, root; page cache
included, an upper bound), otherwise from resident sizes sampled every 2 ms.

Shapes: ``gen`` (default) is the original design's synthetic generator,
whose trigger words are shared by many skills; ``bench`` is this project's
earlier generator (made-up syllables, Japanese words, metadata, rules).

Targets (issue 14): at 10,000 skills routelens's median <= the Go
generator's (ratio <= 1.00); at 100,000 skills <= 10 s and < 1 GiB.
Absolute times depend on the machine and its load; the ratio is measured in
one run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# --------------------------------------------------------------------------- the "bench" shape

SYLLABLES = ("ka ri to mo ne sa lu vi de po ra ni ko be ta gu shi zo me fa "
             "lo pi ru ve da mi so ge ha no tri bra cle sto pla fre gro dri").split()
KANJI = "設定変更実装修正調査資料作成確認削除追加更新分析記録管理運用監視障害対応計画設計試験移行構築"
KATAKANA = "アイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン"


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4)))


def _ja(rng: random.Random) -> str:
    return "".join(rng.choice(KANJI) for _ in range(rng.randint(2, 4))) + (
        "".join(rng.choice(KATAKANA) for _ in range(rng.randint(0, 3))))


def make_registry(n: int, seed: int = 7) -> str:
    """A realistic registry of ``n`` skills as YAML text (LF line ends)."""
    rng = random.Random(seed)
    ids: list[str] = []
    seen: set[str] = set()
    while len(ids) < n:
        sid = f"{_word(rng)}-{_word(rng)}"
        if sid not in seen:
            seen.add(sid)
            ids.append(sid)
    out = ["# synthetic registry for benchmarks/bench_build.py", "schema_version: 1", "", "skills:"]
    for i, sid in enumerate(ids):
        if i % 50 == 0:
            out.append(f"  # --- group {i // 50} ---")
        out.append(f"  {sid}:")
        out.append(f"    path: skills/{sid}.md")
        out.append(f"    priority: P{rng.randint(0, 2)}")
        if i % 7 == 0:
            out.append("    description: |")
            out.append(f"      {_word(rng)} {_word(rng)} {_word(rng)}.")
            out.append(f"      {_word(rng)} {_word(rng)}.")
        else:
            out.append(f"    description: {_word(rng).capitalize()} {_word(rng)} and {_word(rng)}")
        if i % 11 == 0:
            out.append("    status: deprecated")
        out.append(f"    owner: team-{rng.randint(1, 40)}")
        out.append("    triggers:")
        for _ in range(rng.randint(2, 5)):
            out.append(f"      - {_ja(rng) if rng.random() < 0.33 else _word(rng) + ' ' + _word(rng)}")
        out.append("")
    out.append("composition:")
    for c in range(max(1, n // 10)):
        members = rng.sample(ids, min(len(ids), rng.randint(2, 4)))
        out.append(f"  combo-{c}:")
        out.extend(f"    - {m}" for m in members)
    out.append("")
    out.append("rules:")
    out.append("  production-change:")
    out.append("    forced: true")
    out.append("    triggers: [本番, production deploy]")
    out.append("")
    out.append("routing:")
    out.append("  threshold: 85")
    out.append("  ambiguity_margin: 5")
    out.append("  high_risk: [rm -rf, 本番環境]")
    out.append("  max_index_ratio: 0.70")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------------------- the "gen" shape
# The logic of the original design's synthetic registry generator
# (gen_registry.py, shipped beside its Go generator, stdlib only), copied so
# that the benchmark needs nothing outside the repository.

EN_WORDS = (
    "repository change config deploy release review test lint format build cache "
    "research source citation evidence summary article spec document report draft "
    "translate migrate refactor debug trace profile benchmark security audit secret "
    "schema database query index search route agent memory prompt context token "
    "image chart table diagram api client server network retry timeout queue worker "
    "billing invoice customer support ticket incident postmortem oncall alert metric "
    "log dashboard backup restore archive license policy compliance privacy consent"
).split()
JA_WORDS = (
    "実装修正 設定変更 調査 最新情報 出典 根拠 記事 仕様書 文書作成 翻訳 要約 "
    "レビュー テスト 本番反映 障害対応 振り返り 監視 通知 検索 索引 経路 記憶 "
    "文脈 画像生成 図表 請求書 顧客対応 問い合わせ 権限 監査 秘密情報 移行 "
    "性能測定 負荷試験 データベース バックアップ 復元 規約 個人情報 同意 "
    "議事録 企画書 見積もり 契約書 手順書 設計 リファクタリング 依存関係 脆弱性"
).split()
# triggers that must be quoted in YAML and exercise JSON escaping (<, >, &)
SPECIAL = [
    '"C++ & Rust"', '"<html> template"', "'key: value'", '"a & b > c"',
    '"# not a comment"', "'it''s done'", '"タグ <b>強調</b>"', '"Q&A 対応"',
]
SCALARISH = ["yes", "404", "2024-01-01", "off", "1.5", "0123"]  # plain, look like non-strings (none is null: the spec rejects null triggers)
STATUSES = ["active", "active", "active", "deprecated", "disabled"]
PRIOS = ["P0", "P1", "P1", "P2", "P2", "P2"]


def make_trigger(rng):
    r = rng.random()
    if r < 0.02:
        return rng.choice(SPECIAL)
    if r < 0.03:
        return rng.choice(SCALARISH)
    if r < 0.50:
        return " ".join(rng.sample(EN_WORDS, rng.randint(1, 3)))
    if r < 0.90:
        return rng.choice(JA_WORDS) if rng.random() < 0.6 else "".join(rng.sample(JA_WORDS, 2))
    # mixed
    return rng.choice(EN_WORDS) + " " + rng.choice(JA_WORDS)


def make_ids(rng, n, words, fmt):
    seen, out = set(), []
    while len(out) < n:
        base = "-".join(rng.sample(words, rng.randint(2, 3)))
        sid = fmt(base, rng)
        if sid in seen:
            sid = f"{sid}-{len(out)}"
        if sid in seen:
            continue
        seen.add(sid)
        out.append(sid)
    return out


def gen_registry(n: int, seed: int = 42) -> bytes:
    """The registry of the original design's synthetic generator (``N SEED``):
    N skills in shuffled file order, 3-8 triggers each mixing English and
    Japanese words shared by many skills, a few quoted ones (``<``, ``>``,
    ``&``, ``:``), optional status and description (plain or folded), an
    occasional comment, and about N/10 compositions of 2-4 skills. The same
    N and SEED give the same bytes."""
    rng = random.Random(seed)
    ids = make_ids(rng, n, EN_WORDS, lambda b, r: b if r.random() < 0.5 else f"{b}-{r.randint(0, 99)}")
    w = []
    w.append("schema_version: 1\n\nskills:\n")
    for i, sid in enumerate(ids):
        if i:
            w.append("\n")
        if rng.random() < 0.05:
            w.append(f"  # {rng.choice(JA_WORDS)} / {rng.choice(EN_WORDS)} skills\n")
        w.append(f"  {sid}:\n")
        w.append(f"    path: skills/{sid}.md\n")
        w.append(f"    priority: {rng.choice(PRIOS)}\n")
        if rng.random() < 0.4:
            w.append(f"    status: {rng.choice(STATUSES)}\n")
        r = rng.random()
        if r < 0.3:
            w.append(f"    description: {' '.join(rng.sample(EN_WORDS, 6))}\n")
        elif r < 0.45:
            w.append("    description: >-\n")
            for _ in range(rng.randint(1, 3)):
                w.append(f"      {rng.choice(JA_WORDS)}と{rng.choice(JA_WORDS)}を扱う。{' '.join(rng.sample(EN_WORDS, 3))}\n")
        w.append("    triggers:\n")
        trig, k = [], rng.randint(3, 8)
        while len(trig) < k:
            t = make_trigger(rng)
            if t not in trig:
                trig.append(t)
        for t in trig:
            w.append(f"      - {t}\n")
    n_comp = max(1, n // 10)
    comp_ids = make_ids(rng, n_comp, EN_WORDS, lambda b, r: f"{b}-flow")
    w.append("\ncomposition:\n")
    for i, cid in enumerate(comp_ids):
        if i:
            w.append("\n")
        w.append(f"  {cid}:\n")
        for m in rng.sample(ids, min(len(ids), rng.randint(2, 4))):
            w.append(f"    - {m}\n")
    return "".join(w).encode("utf-8")


def write_bodies(folder: Path, registry: bytes, seed: int) -> None:
    """A body file for every ``path:`` of ``registry`` under ``folder``: a
    heading, 20-120 words of :data:`EN_WORDS` and a Japanese line, the same
    for the same registry and seed."""
    rng = random.Random(seed)
    for line in registry.decode("utf-8").splitlines():
        rel = line.strip()
        if not rel.startswith("path: "):
            continue
        rel = rel[len("path: "):]
        body = folder / rel
        body.parent.mkdir(parents=True, exist_ok=True)
        words = " ".join(rng.choice(EN_WORDS) for _ in range(rng.randint(20, 120)))
        body.write_text(f"# {rel}\n\n{words}\n\n{rng.choice(JA_WORDS)}を使う。\n", "utf-8")


# --------------------------------------------------------------------------- running


_MEMORY = """
import gc, io, json, resource, sys, time
t0 = time.perf_counter()
from routelens.cli import main
try:  # as `routelens` runs these commands (cli.entry.run): without the cyclic collector
    from routelens.cli.entry import QUICK_EXIT
except ImportError:  # an older checkout (--against)
    QUICK_EXIT = ()
if sys.argv[1] in QUICK_EXIT:
    gc.disable()
    try:  # and with the registry and output left to the exit, not freed when the command returns
        from routelens.cli.commands.common import leave_to_exit
        leave_to_exit()
    except ImportError:  # an older checkout
        pass
sys.stdout = io.StringIO()
sys.stderr = io.StringIO()
code = main(sys.argv[1:])
wall = time.perf_counter() - t0
me = resource.getrusage(resource.RUSAGE_SELF)
kids = resource.getrusage(resource.RUSAGE_CHILDREN)
sys.__stdout__.write(json.dumps({"code": code, "wall": wall, "rss_kib": me.ru_maxrss,
                                 "reader_rss_kib": kids.ru_maxrss, "cpu": me.ru_utime + me.ru_stime,
                                 "reader_cpu": kids.ru_utime + kids.ru_stime}))
"""


def _timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env)
    return time.perf_counter() - t0


def _cpu_timed(cmd: list[str], cwd: Path, env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one whole process; CPU is user + system time,
    which depends less on a busy machine than wall time does."""
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(cmd)}")
    return time.perf_counter() - t0, usage.ru_utime + usage.ru_stime


def _memory(args: list[str], cwd: Path, env: dict[str, str] | None = None) -> dict:
    proc = subprocess.run([sys.executable, "-c", _MEMORY, *args], cwd=cwd, capture_output=True, text=True,
                          check=False, env=env)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


_CGROUP_V1 = Path("/sys/fs/cgroup/memory")
_CGROUP_V2 = Path("/sys/fs/cgroup")


def _cgroup() -> Path | None:
    """A fresh memory cgroup this benchmark may put a process in (root, Linux), or None."""
    for parent, probe in ((_CGROUP_V2, "cgroup.controllers"), (_CGROUP_V1, "memory.max_usage_in_bytes")):
        if (parent / probe).is_file():
            group = parent / f"routelens-bench-{os.getpid()}"
            try:
                group.mkdir(exist_ok=True)
            except OSError:
                continue
            if (group / "memory.peak").is_file() or (group / "memory.max_usage_in_bytes").is_file():
                return group
            group.rmdir()
    return None


def _children(pid: int) -> list[int]:
    out: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            out += [int(x) for x in Path(f"/proc/{pid}/task/{task}/children").read_text().split()]
    return out


def _rss_kib(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _together(cmd: list[str], cwd: Path, env: dict[str, str]) -> tuple[float, str]:
    """Peak memory (MiB) of a whole process tree at once, and how it was measured.

    In a memory cgroup of its own (Linux, root): the kernel's peak charge of
    every process in it at once (``memory.peak``, or ``memory.max_usage_in_bytes``
    in cgroup v1), which counts the pages a forked child shares with its
    parent once and also counts the page cache the processes fill (the
    registry read, the files written): an upper bound of their memory.
    Otherwise the sum of the processes' resident sizes sampled every 2 ms,
    which counts shared pages twice and can miss a peak between samples."""
    group = _cgroup()
    if group is not None:
        try:
            if (group / "memory.max_usage_in_bytes").is_file():
                (group / "memory.max_usage_in_bytes").write_text("0")
            proc = subprocess.Popen(["sh", "-c", f'echo $$ > "{group}/cgroup.procs" && exec "$@"', "sh", *cmd],
                                    cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
            if proc.wait() != 0:
                raise SystemExit(f"benchmark step failed: {' '.join(cmd)}")
            peak = group / ("memory.peak" if (group / "memory.peak").is_file() else "memory.max_usage_in_bytes")
            return int(peak.read_text().split()[0]) / 2**20, "one cgroup's peak, page cache included"
        finally:
            with contextlib.suppress(OSError):
                group.rmdir()
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    top = 0
    while proc.poll() is None:
        top = max(top, sum(_rss_kib(p) for p in [proc.pid, *_children(proc.pid)]))
        time.sleep(0.002)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark step failed: {' '.join(cmd)}")
    return top / 1024, "resident sizes summed, sampled every 2 ms"


def go_binary(given: str | None) -> Path | None:
    """The Go generator to compare with: ``--go`` or ``$ROUTELENS_GO_BASELINE``."""
    path = given or os.environ.get("ROUTELENS_GO_BASELINE")
    if not path:
        return None
    p = Path(path).expanduser()
    if not p.is_file() or not os.access(p, os.X_OK):
        raise SystemExit(f"the Go baseline {p} is not an executable file")
    return p.resolve()


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000", help="comma-separated skill counts")
    ap.add_argument("--repeat", type=int, default=5, help="rounds per size (medians; 1 round above 50,000 skills)")
    ap.add_argument("--go", help="the Go generator's binary (default: $ROUTELENS_GO_BASELINE)")
    ap.add_argument("--go-max", type=int, default=20_000, help="largest size the quadratic Go program runs at")
    ap.add_argument("--shape", choices=("gen", "bench"), default="gen", help="which synthetic registry")
    ap.add_argument("--seed", type=int, default=42)
    ap.add_argument("--bodies", action="store_true", help="write a Layer-2 body file for every skill (20-120 "
                                                              "words each; default: no bodies, as the Go design)")
    ap.add_argument("--against", help="another checkout (a folder holding src/routelens) whose `build --jobs 1` "
                                      "runs interleaved with this one's: wall and CPU medians of both")
    args = ap.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    go = go_binary(args.go)
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {os.getloadavg()[0]:.1f}, "
          f"shape {args.shape}{', a body per skill' if args.bodies else ', no bodies'}")
    if go is None:
        print("Go baseline: none given (pass --go PATH or set ROUTELENS_GO_BASELINE): routelens figures only")
    else:
        print(f"Go baseline: {go}")
    rl = [sys.executable, "-m", "routelens", "build", "--registry", "skills.yaml", "--out", "gen-rl"]
    rl2 = rl + ["--jobs", "2"]
    print(f"{'skills':>8} {'MB':>6}  {'go med':>7} {'go min':>7}  {'j2 med':>7} {'j2 min':>7} {'ratio':>6}  "
          f"{'j1 med':>9} {'ratio':>6}  {'j2 MiB':>6} {'2nd MiB':>7} {'j1 MiB':>6}")
    with tempfile.TemporaryDirectory(prefix="routelens-bench-") as tmp:
        base_env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        # the caches (the word-frequency cache) in a folder of this run, written by the untimed build, unless
        # one is given: another routelens install sharing the user's folder could replace the file between
        # two timed builds, and a build that finds no file of its own reads wordfreq (about 0.35 s of CPU)
        own_cache = "ROUTELENS_MATCHER_CACHE" not in base_env  # each checkout its own (an older one may
        # remove the other's file)
        here_env = dict(base_env, PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache-here"))
        if own_cache:
            here_env["ROUTELENS_MATCHER_CACHE"] = str(Path(tmp) / "cache-here")
        other_env = None
        if args.against:
            other_src = Path(args.against).expanduser().resolve() / "src"
            if not (other_src / "routelens" / "__init__.py").is_file():
                raise SystemExit(f"--against {args.against}: no src/routelens there")
            other_env = dict(base_env, PYTHONPATH=str(other_src), PYTHONPYCACHEPREFIX=str(Path(tmp) / "pycache-other"))
            if own_cache:
                other_env["ROUTELENS_MATCHER_CACHE"] = str(Path(tmp) / "cache-other")
        for n in sizes:
            folder = Path(tmp) / f"r{n}"
            folder.mkdir()
            data = gen_registry(n, args.seed) if args.shape == "gen" else make_registry(n, args.seed).encode()
            (folder / "skills.yaml").write_bytes(data)
            if args.bodies:
                write_bodies(folder, data, args.seed)
            # one build of each checkout not timed, with Python's bytecode caches written (in the temporary
            # folder, never in a checkout), as an installed routelens has them: a PYTHONDONTWRITEBYTECODE
            # environment would otherwise compile every module on every run
            for env in (here_env, other_env):
                if env is not None:
                    subprocess.run(rl + ["--jobs", "1"], cwd=folder, stdout=subprocess.DEVNULL,
                                   stderr=subprocess.DEVNULL, check=True, env=env)
                    shutil.rmtree(folder / "gen-rl", ignore_errors=True)
            rounds = 1 if n > 50_000 else args.repeat
            runs: dict[str, list[float]] = {"go": [], "rl": [], "rl1": [], "cpu1": [], "other": [], "cpu_other": []}
            use_go = go is not None and n <= args.go_max
            for _ in range(rounds):
                if use_go:
                    shutil.rmtree(folder / "generated", ignore_errors=True)
                    runs["go"].append(_timed([str(go)], folder))
                shutil.rmtree(folder / "gen-rl", ignore_errors=True)
                runs["rl"].append(_timed(rl2, folder, here_env))
                shutil.rmtree(folder / "gen-rl", ignore_errors=True)
                wall, cpu = _cpu_timed(rl + ["--jobs", "1"], folder, here_env)
                runs["rl1"].append(wall)
                runs["cpu1"].append(cpu)
                if other_env is not None:
                    shutil.rmtree(folder / "gen-rl", ignore_errors=True)
                    wall, cpu = _cpu_timed(rl + ["--jobs", "1"], folder, other_env)
                    runs["other"].append(wall)
                    runs["cpu_other"].append(cpu)
            mem2 = _memory(rl2[3:], folder, here_env)
            mem1 = _memory(rl[3:] + ["--jobs", "1"], folder, here_env)
            shutil.rmtree(folder / "gen-rl", ignore_errors=True)
            both, how = _together(rl2, folder, here_env)
            med = {k: statistics.median(v) for k, v in runs.items() if v}
            best = {k: min(v) for k, v in runs.items() if v}
            if use_go:
                go_txt = f"{med['go']:>7.3f} {best['go']:>7.3f}"
                r2, r1 = f"{med['rl'] / med['go']:>6.2f}", f"{med['rl1'] / med['go']:>6.2f}"
            else:
                go_txt = f"{'-':>7} {'-':>7}"
                r2 = r1 = f"{'-':>6}"
            print(f"{n:>8} {len(data) / 1e6:>6.2f}  {go_txt}  {med['rl']:>7.3f} {best['rl']:>7.3f} {r2}  "
                  f"{med['rl1']:>9.3f} {r1}  {mem2['rss_kib'] / 1024:>6.0f} {mem2['reader_rss_kib'] / 1024:>7.0f} "
                  f"{mem1['rss_kib'] / 1024:>6.0f}", flush=True)
            print(f"{'':>8} CPU (user + system) of build --jobs 1: median {med['cpu1']:.3f} s"
                  + (f" against {med['cpu_other']:.3f} s for {args.against} ({med['cpu1'] / med['cpu_other']:.2f}x); "
                     f"its wall median {med['other']:.3f} s ({med['rl1'] / med['other']:.2f}x)"
                     if other_env is not None else ""), flush=True)
            print(f"{'':>8} CPU of build --jobs 2 (one run): {mem2['cpu']:.3f} s in the main process + "
                  f"{mem2['reader_cpu']:.3f} s in the second; --jobs 1: {mem1['cpu']:.3f} s "
                  f"(main process {mem2['cpu'] / mem1['cpu']:.2f}x)", flush=True)
            print(f"{'':>8} peak memory of build --jobs 2, both processes at once: {both:.0f} MiB ({how})",
                  flush=True)
            if go is not None and not use_go:
                print(f"{'':>8} (Go not run above --go-max {args.go_max}: it is quadratic in the skills)")
    print("j2/j1: routelens build --jobs 2 / --jobs 1; ratio: its median / the Go median, same run (<= 1.00 is "
          "the target at 10,000 skills); MiB: peak RSS with --jobs 2 (the main process, its second process) "
          "and with --jobs 1, each process's own (a forked child's shared pages count in both)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

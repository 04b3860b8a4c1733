"""Build time and peak memory on synthetic registries, against the YAML parse floor measured in the same run.

Usage: ``python benchmarks/bench_build.py [--sizes 1000,10000,100000] [--repeat 3]``

For each size it writes a synthetic registry to a temporary folder: skills
with English and Japanese triggers (about a third Japanese), descriptions
(some as block scalars), statuses, metadata, comments and blank lines between
entries, compositions of 2-4 skills (one per 10 skills), a few rules and a
``routing:`` section. Then, each in a fresh subprocess (so ``ru_maxrss`` is
the peak of that step alone):

- **floor**: read the file, decode it and iterate every YAML parse event
  with ruamel.yaml's C parser (``CParser(text).get_event()`` until the end)
  — the least any reader built on that parser can do;
- **build**: ``load_registry`` + ``index_bytes`` + ``catalog_bytes`` +
  writing both files atomically (``write_generated`` does all but the load).

Printed per size: file size, best-of-``--repeat`` wall time of floor and
build (seconds), the ratio build / floor, and the peak resident memory
(MiB) of each subprocess. Targets (issue 2): 10,000 skills (~3 MB) build
within 2x of the floor and in under 1 s; 100,000 skills with a peak under
1 GiB. Absolute times depend on the machine; the ratio is measured in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

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


_FLOOR = textwrap.dedent("""
    import json, resource, sys, time
    from ruamel.yaml.cyaml import CParser
    from ruamel.yaml.events import StreamEndEvent
    path, repeat = sys.argv[1], int(sys.argv[2])
    best = None
    for _ in range(repeat):
        t0 = time.perf_counter()
        with open(path, "rb") as fh:
            text = fh.read().decode("utf-8")
        get = CParser(text).get_event
        n = 0
        while type(get()) is not StreamEndEvent:
            n += 1
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    print(json.dumps({"seconds": best, "events": n,
                      "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
""")

_BUILD = textwrap.dedent("""
    import json, resource, shutil, sys, time
    from routelens.artifacts.write import write_generated
    from routelens.registry import load_registry
    path, out, repeat = sys.argv[1], sys.argv[2], int(sys.argv[3])
    best = None
    phases = None
    for _ in range(repeat):
        shutil.rmtree(out, ignore_errors=True)
        t0 = time.perf_counter()
        reg = load_registry(path)
        t1 = time.perf_counter()
        output, written = write_generated(reg, out)
        t2 = time.perf_counter()
        if best is None or t2 - t0 < best:
            best, phases = t2 - t0, {"load": t1 - t0, "index+catalog+write": t2 - t1}
        del reg, output
    print(json.dumps({"seconds": best, "phases": phases,
                      "maxrss_kib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
""")


def _run(code: str, *args: str) -> dict:
    proc = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"benchmark step failed:\n{proc.stderr}")
    return json.loads(proc.stdout)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="1000,10000,100000", help="comma-separated skill counts")
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs (N=1 above 50,000 skills)")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    print(f"{'skills':>8} {'MB':>7} {'floor s':>9} {'build s':>9} {'ratio':>6} {'floor MiB':>10} {'build MiB':>10}  phases")
    with tempfile.TemporaryDirectory(prefix="routelens-bench-") as tmp:
        for n in sizes:
            reg = Path(tmp) / f"skills-{n}.yaml"
            reg.write_text(make_registry(n), encoding="utf-8")
            repeat = 1 if n > 50_000 else args.repeat
            floor = _run(_FLOOR, str(reg), str(repeat))
            build = _run(_BUILD, str(reg), str(Path(tmp) / f"gen-{n}"), str(repeat))
            ratio = build["seconds"] / floor["seconds"]
            phases = ", ".join(f"{k} {v:.3f}s" for k, v in build["phases"].items())
            print(f"{n:>8} {reg.stat().st_size / 1e6:>7.2f} {floor['seconds']:>9.3f} {build['seconds']:>9.3f} "
                  f"{ratio:>6.2f} {floor['maxrss_kib'] / 1024:>10.0f} {build['maxrss_kib'] / 1024:>10.0f}  {phases}",
                  flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

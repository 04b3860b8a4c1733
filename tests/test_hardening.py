"""Hardening (issue 5): concurrent builds, pathological inputs in a
subprocess with a timeout (a hang fails the test instead of the suite),
big registries."""

from __future__ import annotations

import json
import multiprocessing
import os
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import EXAMPLE
from routelens.artifacts.catalog import catalog_bytes
from routelens.artifacts.check import check
from routelens.artifacts.index_file import index_bytes
from routelens.artifacts.write import write_generated
from routelens.errors import RegistryError
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry import load_registry, parse_registry

# --------------------------------------------------------------------------- two builds at once


def _builder(registry: str, out: str, rounds: int, start) -> None:
    start.wait()
    reg = load_registry(registry)
    for _ in range(rounds):
        write_generated(reg, out)


def test_two_builds_at_once_leave_one_complete_pair(tmp_path):
    a = tmp_path / "a" / "skills.yaml"
    b = tmp_path / "b" / "skills.yaml"
    a.parent.mkdir()
    b.parent.mkdir()
    a.write_bytes(EXAMPLE.read_bytes())
    b.write_bytes(EXAMPLE.read_bytes().replace(b"repository change", b"repo change") + b"# b\n")
    shas = {load_registry(a).source_sha256, load_registry(b).source_sha256}
    assert len(shas) == 2
    out = tmp_path / "generated"
    ctx = multiprocessing.get_context("spawn")
    start = ctx.Event()
    procs = [ctx.Process(target=_builder, args=(str(p), str(out), 25, start)) for p in (a, b)]
    for p in procs:
        p.start()
    start.set()
    seen = 0
    while any(p.is_alive() for p in procs):  # a reader never sees a partial file
        for name in (INDEX_NAME, CATALOG_NAME):
            try:
                data = (out / name).read_bytes()
            except FileNotFoundError:
                continue
            assert json.loads(data)["source_sha256"] in shas
            seen += 1
    for p in procs:
        p.join(60)
        assert p.exitcode == 0
    index = json.loads((out / INDEX_NAME).read_bytes())
    catalog = json.loads((out / CATALOG_NAME).read_bytes())
    assert index["source_sha256"] == catalog["source_sha256"]  # one pair, never a mix
    winner = a if index["source_sha256"] == load_registry(a).source_sha256 else b
    reg = load_registry(winner)
    assert (out / INDEX_NAME).read_bytes() == index_bytes(reg)
    assert (out / CATALOG_NAME).read_bytes() == catalog_bytes(reg)
    assert sorted(os.listdir(out)) == [CATALOG_NAME, INDEX_NAME]  # no temporary file left behind


# --------------------------------------------------------------------------- pathological inputs, in a subprocess

LOL = "schema_version: 1\n" + "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n" + "".join(
    f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]\n" for i in range(1, 10)) + "skills: {}\n"


PATHOLOGICAL = [
    # a0..a4 expand to 10, 91, 820, 7381, 66430 nodes: the first *a4 is over the limit
    ("billion-laughs", LOL, "7:10: a5[0]: alias *a4 expands to 66430 nodes, more than the limit 10000 (alias bomb?)"),
    ("deep-flow-nesting", "schema_version: 1\nskills:\n  a: " + "[" * 1_000_000 + "\n",
     # root, skills and the first '[' are levels 1-3: the 63rd '[' (column 6 + 62) is level 65
     "3:68: skills.a" + "[0]" * 62 + ": nesting deeper than 64 levels"),
    ("deep-block-nesting", "schema_version: 1\nskills:\n" + "".join("  " * i + f"k{i}:\n" for i in range(1, 200)),
     "66:129: skills.k1.k2.k3"),
    ("long-key", "schema_version: 1\nskills:\n  " + "k" * 2_000_000 + ":\n    path: a.md\n",
     # YAML limits an implicit key to 1024 characters
     "3:2000003: YAML syntax error: the key on line 3 is 2,000,000 characters long: YAML allows at most 1,024 "
     "characters in a key written without `? ` (YAML parser: mapping values are not allowed in this context)"),
    ("many-anchors", "schema_version: 1\nx: [" + ", ".join(f"&a{i} v" for i in range(50_000)) + "]\n"
                     "skills:\n  a:\n    path: a.md\n    priority: P0\n    triggers: [*a49999, *a0]\n    status: *a7\n",
     "8:13: skills.a.status: unknown status 'v' (one of active, deprecated, disabled)"),
    ("control-characters", "schema_version: 1\nskills:\n  a: \x1b[31mred\n",
     "3:6: YAML syntax error: unacceptable character #x001b: control characters are not allowed"),
    # a newcomer's report: after non-ASCII text the column (and, past U+2028, the line) counted UTF-8 bytes
    ("control-character-after-japanese", 'schema_version: 1\nskills:\n  a:\n    triggers: ["' + "予約" * 10
     + '", "e\x1b"]\n', "4:42: YAML syntax error: unacceptable character #x001b"),
    ("control-character-after-line-separator", 'schema_version: 1\nskills:\n  a:\n    triggers: ["x\u2028y", "e\x1b"]\n',
     "4:25: YAML syntax error: unacceptable character #x001b"),
]


@pytest.mark.parametrize("name, content, first_error", PATHOLOGICAL, ids=[p[0] for p in PATHOLOGICAL])
def test_pathological_input_fails_cleanly_in_bounded_time(tmp_path, name, content, first_error):
    reg = tmp_path / "skills.yaml"
    reg.write_text(content, encoding="utf-8")
    out = tmp_path / "generated"
    proc = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(reg), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert "Traceback" not in proc.stderr
    assert proc.stderr.splitlines()[0].startswith(f"{reg}:{first_error}")
    assert not out.exists()


def test_billion_laughs_is_stopped_before_it_expands():
    with pytest.raises(RegistryError) as info:
        parse_registry(LOL.encode(), "s.yaml")
    assert [str(d) for d in info.value.diagnostics] == [
        "s.yaml:7:10: a5[0]: alias *a4 expands to 66430 nodes, more than the limit 10000 (alias bomb?)"]


def test_total_alias_expansion_limit_counts_every_alias():
    size = 5_000  # a list of 4,999 scalars: 5,000 nodes
    text = ("schema_version: 1\nx: &big [" + ",".join(["1"] * (size - 1)) + "]\n"
            "skills:\n  a:\n    path: a.md\n    priority: P0\n    triggers: [t]\n    meta: ["
            + ", ".join(["*big"] * (LIMITS["max_total_alias_expansion"] // size)) + "]\n")
    reg = parse_registry(text.encode(), "s.yaml")  # exactly at the limit: accepted
    assert len(reg.skills["a"].metadata["meta"]) == 20
    with pytest.raises(RegistryError, match="aliases expand to more than 100000 nodes in all"):
        parse_registry(text.replace("*big]", "*big, *big]").encode(), "s.yaml")


# --------------------------------------------------------------------------- size


def _registry_text(n: int, pad: int = 0) -> str:
    out = ["schema_version: 1", "skills:"]
    for i in range(n):
        out += [f"  skill-{i}:", f"    path: skills/skill-{i}.md", f"    priority: P{i % 3}",
                f"    description: Skill number {i}{' and more' * pad}", "    triggers:", f"      - task {i}",
                f"      - 作業{i}", ""]
    out.append("composition:")
    for i in range(0, n - 1, 10):
        out += [f"  combo-{i}:", f"    - skill-{i}", f"    - skill-{i + 1}"]
    out += ["routing:", "  max_index_ratio: 0.9"]
    return "\n".join(out) + "\n"


def test_a_few_thousand_skills(tmp_path):
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_text(_registry_text(3000), encoding="utf-8")
    reg = load_registry(reg_path)
    assert len(reg.skills) == 3000 and len(reg.compositions) == 300
    s = reg.skills["skill-2999"]
    assert (s.source_start, s.source_end) == (3 + 2999 * 8, 3 + 2999 * 8 + 6)
    assert reg.compositions_of("skill-2990") == ["combo-2990"]
    write_generated(reg, tmp_path / "generated")
    res = check(reg, tmp_path / "generated")
    assert res.ok, res.problems
    cat = json.loads((tmp_path / "generated" / CATALOG_NAME).read_bytes())
    assert cat["stats"]["catalog"]["bytes"] == (tmp_path / "generated" / CATALOG_NAME).stat().st_size


def test_memory_is_freed_while_reading():
    """Skills are validated while the parser reads, and their nodes dropped:
    reading and validating peaks lower than the node tree of the whole file
    alone would."""
    import tracemalloc

    from routelens.text.yaml_events import Reader

    raw = _registry_text(4000).encode()
    text = raw.decode()
    tracemalloc.start()
    try:
        reg = parse_registry(raw, "s.yaml")
        _, streamed_peak = tracemalloc.get_traced_memory()
        del reg
        tracemalloc.reset_peak()
        reader = Reader(text, "s.yaml")
        root = reader.compose(text)  # the whole tree, nothing validated yet
        _, tree_peak = tracemalloc.get_traced_memory()
        del root, reader
    finally:
        tracemalloc.stop()
    assert streamed_peak < tree_peak, (streamed_peak, tree_peak)


def test_build_progress_on_a_big_file_in_a_subprocess(tmp_path):
    reg = tmp_path / "skills.yaml"
    reg.write_text(_registry_text(8_000, pad=50), encoding="utf-8")
    assert reg.stat().st_size > 4 * 1024 * 1024
    proc = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(reg), "-q"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stderr.splitlines()
    assert lines[0] == f"reading {reg} ({reg.stat().st_size / 1e6:.1f} MB)..."
    # no body exists: more than 20 are summed up in one line naming the folder, not listed one by one
    assert lines[1] == (f"{reg}: warning: 8,000 of the 8,000 skills have a body that cannot be loaded: the folder "
                        "'skills/' does not exist (8,000 skills). They still route, and their decisions say the body "
                        "cannot be loaded; `routelens lint` lists every one")
    assert lines[2].startswith("validated 8,000 skills in ")
    assert lines[3].startswith("done in ") and len(lines) == 4

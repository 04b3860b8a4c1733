"""``routelens build --jobs 2``: a second process renders the catalog's
skills and the warnings, and gives the vocabulary what it takes from the
triggers alone, while this one builds the index. The files, the warnings and
the summary are exactly one process's, and a child that fails at any point
changes nothing but the time."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import routelens.artifacts.forked as forked_module
import routelens.cli.commands.build as build_cmd
from routelens.artifacts import vocabulary as V
from routelens.artifacts.forked import Forked
from routelens.cli.entry import main
from routelens.registry.load import load_registry

ROOT = Path(__file__).resolve().parents[1]


def _shipped() -> list[Path]:
    return [ROOT / "skills.yaml", *sorted((ROOT / "benchmarks" / "registries").glob("*/skills.yaml"))]


@pytest.fixture
def two_processes(monkeypatch):
    """Let ``--jobs 2`` fork on small registries and inside the test runner
    (whose workers have threads); returns a list that gets True for each
    build whose second process was started."""
    monkeypatch.setattr(forked_module, "can_split", lambda: True)
    monkeypatch.setattr(build_cmd, "PARALLEL_MIN_CHARS", 0)
    started: list[bool] = []
    real = Forked.start.__func__

    def start(cls, fn):
        child = real(cls, fn)
        started.append(child is not None)
        return child

    monkeypatch.setattr(Forked, "start", classmethod(start))
    return started


def _build(capsys, registry: Path, out: Path, jobs: int) -> tuple[int, str, str, bytes, bytes]:
    capsys.readouterr()
    code = main(["build", "--registry", str(registry), "--out", str(out), "--jobs", str(jobs)])
    got = capsys.readouterr()
    index = (out / "routing.min.json").read_bytes() if code == 0 else b""
    catalog = (out / "catalog.json").read_bytes() if code == 0 else b""
    return code, got.out.replace(str(out), "OUT"), got.err.replace(str(out), "OUT"), index, catalog


def _same_both_ways(capsys, tmp_path: Path, registry: Path) -> tuple[int, str, str, bytes, bytes]:
    one = _build(capsys, registry, tmp_path / "one", 1)
    two = _build(capsys, registry, tmp_path / "two", 2)
    assert two == one
    return two


def _registry_with_bodies(tmp_path: Path) -> Path:
    """Skills whose one-word triggers are inflections of one another (stem
    collision warnings), bodies present, missing and a folder, a body with
    CRLF line ends, descriptions, a misspelled key, a composition."""
    folder = tmp_path / "reg"
    (folder / "skills").mkdir(parents=True)
    lines = ["schema_version: 1", "", "skills:"]
    words = ["migration", "migrations", "plan", "planning", "deploy", "deploys", "report", "reporting"]
    for i in range(60):
        sid = f"skill-{i:02d}"
        lines += [f"  {sid}:", f"    path: skills/{sid}.md", f"    priority: P{i % 3}",
                  f"    description: Handles the {words[i % 8]} work of team {i % 5} and its ledger-{i % 7}",
                  "    triggers:", f"      - {words[i % 8]}", f"      - ledger-{i % 7} {words[(i + 3) % 8]}",
                  f"      - 台帳{i % 4}"]
        if i == 5:
            lines.append("    descripton: hello")  # metadata that looks like a misspelled key: a warning
        if i % 3 == 0:
            (folder / "skills" / f"{sid}.md").write_bytes(
                f"# {sid}\r\n\r\nThe ledger-{i % 7} runbook for kubeflow and {words[i % 8]}.\r\n".encode())
        elif i % 3 == 1 and i % 2 == 0:
            (folder / "skills" / f"{sid}.md").mkdir()
    lines += ["", "composition:", "  pair-flow:", "    - skill-00", "    - skill-01", ""]
    path = folder / "skills.yaml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_shipped_registry_builds_the_same_in_two_processes(two_processes, capsys, tmp_path, path):
    code, *_ = _same_both_ways(capsys, tmp_path, path)
    assert code == 0
    assert two_processes == [True]  # the second process ran (jobs 1 starts none)


def test_bodies_and_stem_collisions_are_the_same_in_two_processes(two_processes, capsys, tmp_path):
    code, out, err, index, catalog = _same_both_ways(capsys, tmp_path, _registry_with_bodies(tmp_path))
    assert code == 0 and two_processes == [True]
    assert "are inflections of one word" in err  # the child's stem collision warnings, printed here
    # 40 of 60 bodies cannot be loaded: summed up in one line, by folder and kind
    assert "40 of the 60 skills have a body that cannot be loaded: 30 missing, 10 that are folders in 'skills/'" in err
    assert "skills.skill-05.descripton: `descripton` is no key routelens reads" in err
    assert b'"exists": true' in catalog and b'"chars": ' in catalog
    assert b"kubeflow" in index  # a body's term, read by this process


def _fail(kind: str):
    def work(self, send) -> None:
        if kind == "at once":
            raise RuntimeError("boom")
        if kind == "exit":
            os._exit(3)
        if kind == "garbage":
            send("not the facts")
            send("not the words")
            send(["not", "the", "catalog"], b"xx")
            return
        facts = V.triggers_facts(self.reg)
        if kind == "short facts":
            keys, *rest = facts
            keys.pop(next(iter(keys)))  # one trigger missing: not trusted
            send((keys, *rest))
            raise RuntimeError("boom")
        send(facts)
        if kind == "after the facts":
            os._exit(3)
        if kind == "bad words":
            send(("not", "the", "words"))
            os._exit(3)
        frame = build_cmd.catalog_frame(self.reg)
        if kind == "bad frame":  # the words as they are, a frame of another shape: made here
            send((V.words_facts(self.reg, facts[0]), ("pre", b"post", {})))
            os._exit(3)
        send((V.words_facts(self.reg, facts[0]), frame))
        if kind == "after the words":
            os._exit(3)
        if kind == "bad skills":
            send((["a warning"], 1), b"xx")  # a header of another shape
            return
        raise AssertionError(kind)

    return work


@pytest.mark.parametrize("kind", ["at once", "exit", "garbage", "short facts", "after the facts", "bad words",
                                  "after the words", "bad skills", "bad frame"])
def test_a_failing_second_process_changes_nothing(two_processes, capsys, tmp_path, monkeypatch, kind):
    registry = _registry_with_bodies(tmp_path)
    one = _build(capsys, registry, tmp_path / "one", 1)
    monkeypatch.setattr(build_cmd._Helper, "_work", _fail(kind))
    two = _build(capsys, registry, tmp_path / "two", 2)
    assert two == one and two[0] == 0
    assert two_processes == [True]


def test_the_catalogs_frame_is_taken_when_the_facts_were_not(two_processes, capsys, tmp_path, monkeypatch):
    registry = _registry_with_bodies(tmp_path)
    one = _build(capsys, registry, tmp_path / "one", 1)
    taken: list[bool] = []
    real = build_cmd._Helper.frame

    def frame(self):
        got = real(self)
        taken.append(got is not None)
        return got

    def work(self, send) -> None:
        send("not the facts")  # the vocabulary computes them here, and never asks for the words' message
        send((V.words_facts(self.reg, V.triggers_facts(self.reg)[0]), build_cmd.catalog_frame(self.reg)))
        os._exit(3)

    monkeypatch.setattr(build_cmd._Helper, "frame", frame)
    monkeypatch.setattr(build_cmd._Helper, "_work", work)
    two = _build(capsys, registry, tmp_path / "two", 2)
    assert two == one and taken == [True]


@pytest.mark.parametrize("share", [0.0, 0.01, 0.5, 1.0])
def test_the_catalogs_skills_split_anywhere_between_the_processes_join_to_the_same_files(
        two_processes, capsys, tmp_path, monkeypatch, share):
    registry = _registry_with_bodies(tmp_path)
    one = _build(capsys, registry, tmp_path / "one", 1)
    monkeypatch.setattr(build_cmd, "CHILD_SHARE", share)
    two = _build(capsys, registry, tmp_path / "two", 2)
    assert two == one and two[0] == 0


def test_a_broken_registry_starts_no_second_process_and_writes_nothing(two_processes, capsys, tmp_path):
    registry = _registry_with_bodies(tmp_path)
    registry.write_text(registry.read_text(encoding="utf-8").replace("    priority: P1\n", "    priority: P9\n", 1),
                        encoding="utf-8")
    code, out, err, _, _ = _build(capsys, registry, tmp_path / "two", 2)
    assert code == 2 and not (tmp_path / "two").exists() and two_processes == []
    assert "priority" in err


def test_a_bad_output_folder_is_the_same_error_in_two_processes(two_processes, capsys, tmp_path):
    registry = _registry_with_bodies(tmp_path)
    (tmp_path / "one").write_text("a file", encoding="utf-8")
    shutil.copy(tmp_path / "one", tmp_path / "two")
    one = _build(capsys, registry, tmp_path / "one", 1)
    two = _build(capsys, registry, tmp_path / "two", 2)
    assert one[0] == 2 and two == one
    assert "it is a file, not a folder; nothing was written" in two[2]


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_vocabulary_given_the_triggers_facts_is_its_own(path):
    reg = load_registry(path)
    own = V.vocabulary(reg, {})
    facts = V.triggers_facts(reg)
    words = V.words_facts(reg, facts[0])
    assert V.vocabulary(reg, {}, lambda: facts, lambda: words) == own
    keys, counts, term_zipf = facts
    assert sum(counts.values()) == sum(len(V.terms(t)) for s in reg.skills.values() for t in s.triggers)
    assert words == (own["zipf"], own["common"], own["near"])
    assert term_zipf == {w: V.zipf(w) for w in counts}
    wrong = ({t: k for t, k in list(keys.items())[1:]}, *facts[1:])  # a trigger missing: computed again
    assert V.vocabulary(reg, {}, lambda: wrong, lambda: words) == own
    for short in (facts[:2], (keys, counts, list(term_zipf)), [*facts], "facts"):  # other shapes
        assert V.vocabulary(reg, {}, lambda: short, lambda: words) == own
    for bad in (words[:2], (words[0], tuple(words[1]), words[2]), None, "words"):
        assert V.vocabulary(reg, {}, lambda: facts, lambda: bad) == own
    assert V.vocabulary(reg, {}, lambda: None) == own

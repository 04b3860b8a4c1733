"""Compact index and debug catalog (docs/formats.md §3-§5): exact bytes,
freshness, check, atomic writes, body reading."""

from __future__ import annotations

import errno
import json
import os
import shutil
import stat
import tempfile
from pathlib import Path

import pytest

from conftest import CASES, EXAMPLE, FIXTURES
from routelens.artifacts.bodies import body_info, body_state, resolve_body_path
from routelens.artifacts.build import compute_stats
from routelens.artifacts.catalog import catalog_bytes, catalog_object
from routelens.artifacts.check import check
from routelens.artifacts.freshness import freshness, index_problem
from routelens.artifacts.index_file import index_bytes, parse_index
from routelens.artifacts.sizes import top_contributors
from routelens.artifacts.write import write_generated
from routelens.errors import BuildError, IndexInvalidError
from routelens.limits import LIMITS
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry import load_registry, parse_registry
from routelens.text.canonical import source_sha256

EXAMPLE_SHA = "6f7783228c009cce753335f1c8002c520d255cfc098176b1b1c442de7d0d28c3"
EXAMPLE_INDEX = (
    '{"v":2,"authority":"example-skills.yaml",'
    '"skill_fields":["id","source_start","source_end","triggers","not_when","terms"],'
    '"skills":[["document-production",21,27,["記事","仕様書","文書作成"],[],[]],'
    '["grounded-research",12,19,["調査","最新情報","出典","根拠"],[],[]],'
    '["repository-change",4,10,["repository change","実装修正","設定変更"],[],["repository"]]],'  # kept: no budget under 6,000 chars
    '"composition_fields":["id","source_start","source_end"],'
    '"compositions":[["article-writing",33,35],["software-change",30,31]],'
    '"vocabulary":{"zipf":{"出典":4.2,"根拠":4.2,"記事":5.1,"調査":5.1},'  # cut down, not rounded (matcher 6)
    '"common":["change"]},'
    f'"source_sha256":"{EXAMPLE_SHA}"}}\n'
).encode("utf-8")
#: the example with a size budget it can meet (the example alone: index 616 chars >= 564 x 0.7; the
#: index's vocabulary, docs/formats.md §3.7, needs room a registry this small does not give)
ROOMY = (EXAMPLE.read_text(encoding="utf-8") + "\nrouting:\n  max_index_ratio: 1.0  # room for the index's vocabulary: "
         + "room " * 60 + "\n")


def write_registry(folder: Path, text: str, name: str = "skills.yaml") -> Path:
    p = folder / name
    p.write_bytes(text.encode("utf-8"))
    return p


def listing(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


# --------------------------------------------------------------------------- index bytes


def test_example_index_bytes_exactly():
    reg = load_registry(EXAMPLE)
    assert index_bytes(reg) == EXAMPLE_INDEX
    assert index_bytes(load_registry(EXAMPLE)) == EXAMPLE_INDEX  # deterministic


def test_index_with_rules_and_routing_keeps_key_order():
    text = ROOMY + "rules:\n  prod:\n    forced: true\n    triggers: [本番]\n"
    reg = parse_registry(text.encode(), "skills.yaml")
    obj = json.loads(index_bytes(reg))
    assert list(obj) == ["v", "authority", "skill_fields", "skills", "composition_fields", "compositions",
                         "rule_fields", "rules", "routing", "vocabulary", "source_sha256"]
    assert obj["rules"] == [["prod", 40, 42, ["本番"]]]
    assert obj["routing"] == {"threshold": 85, "ambiguity_margin": 5, "high_risk": [], "destructive_intents": True}
    assert index_bytes(reg).endswith(b'"}\n') and b" " not in index_bytes(reg).replace(b"repository change", b"").replace(b"wordfreq 3.1.1", b"")


# --------------------------------------------------------------------------- catalog


def test_example_catalog_content():
    cat = catalog_object(load_registry(EXAMPLE))
    assert list(cat) == ["v", "authority", "source_sha256", "skills", "compositions", "rules", "routing",
                         "warnings", "stats"]
    assert cat["skills"]["document-production"] == {
        "id": "document-production", "source_start": 21, "source_end": 27, "path": "skills/document-production.md",
        "priority": "P1", "status": "active", "description": None, "triggers": ["記事", "仕様書", "文書作成"],
        "not_when": [], "metadata": {}, "compositions": ["article-writing"], "self_contained": True,
        "body": {"exists": False, "error": "missing"}}
    assert cat["compositions"]["article-writing"] == {
        "id": "article-writing", "source_start": 33, "source_end": 35,
        "members": ["grounded-research", "document-production"], "self_contained": True}
    assert cat["routing"] == {"threshold": 85, "ambiguity_margin": 5, "high_risk": [], "destructive_intents": True,
                              "max_index_ratio": 0.7}
    assert (cat["rules"], cat["warnings"], cat["source_sha256"]) == ({}, [], EXAMPLE_SHA)
    st = cat["stats"]
    assert st["registry"] == {"chars": 564, "bytes": 618, "lines": 35}
    assert st["index"] == {"chars": 616, "bytes": 686, "lines": 1, "reduction": -0.0922}
    assert st["catalog"] == {"chars": 3505, "bytes": 3559, "lines": 168, "reduction": -5.2145}
    # 564 registry chars: under 6,000 the budget is not checked (docs/formats.md §5.2)
    assert st["budget"] == {"max_index_ratio": 0.7, "index_chars": 616, "limit_chars": 394.8, "ratio": 1.0922,
                            "ok": True}
    assert st["top_contributors"] == [
        {"id": "repository-change", "kind": "skill", "chars": 81, "share": 0.1315},
        {"id": "grounded-research", "kind": "skill", "chars": 58, "share": 0.0942},
        {"id": "document-production", "kind": "skill", "chars": 56, "share": 0.0909},
        {"id": "article-writing", "kind": "composition", "chars": 26, "share": 0.0422},
        {"id": "software-change", "kind": "composition", "chars": 26, "share": 0.0422},
    ]


def _valid_registries() -> list[Path]:
    out = [EXAMPLE, FIXTURES.parent.parent / "skills.yaml"]
    for p in sorted(CASES.glob("*.yaml")):
        try:
            load_registry(p)
        except Exception:
            continue
        out.append(p)
    return [p for p in out if p.exists()]


@pytest.mark.parametrize("path", _valid_registries(), ids=lambda p: p.name)
def test_catalog_is_pretty_json_stating_its_own_true_size(path):
    reg = load_registry(path)
    data = catalog_bytes(reg)
    text = data.decode("utf-8")
    obj = json.loads(text)
    assert text == json.dumps(obj, ensure_ascii=False, indent=2) + "\n"
    c = obj["stats"]["catalog"]
    assert (c["chars"], c["bytes"], c["lines"]) == (len(text), len(data), text.count("\n"))
    assert data == catalog_bytes(reg)  # deterministic


def test_top_contributors_match_a_naive_count():
    for path in _valid_registries():
        idx = index_bytes(load_registry(path))
        obj = json.loads(idx)
        naive = []
        for key, kind in (("skills", "skill"), ("compositions", "composition"), ("rules", "rule")):
            for row in obj.get(key, []):
                n = len(json.dumps(row, ensure_ascii=False, separators=(",", ":"))) + 1
                naive.append({"id": row[0], "kind": kind, "chars": n, "share": round(n / len(idx.decode()), 4)})
        naive.sort(key=lambda r: (-r["chars"], r["id"]))
        assert top_contributors(idx, limit=10**6) == naive, path.name


def test_compute_stats_measures_the_catalog_it_is_given():
    reg = load_registry(EXAMPLE)
    st = compute_stats(reg)
    assert st["catalog"] == {"chars": 3505, "bytes": 3559, "lines": 168, "reduction": -5.2145}


# --------------------------------------------------------------------------- parse_index


def _mutated(**changes) -> bytes:
    obj = json.loads(EXAMPLE_INDEX)
    for k, v in changes.items():
        if v is KeyError:
            del obj[k]
        else:
            obj[k] = v
    return json.dumps(obj, ensure_ascii=False).encode()


@pytest.mark.parametrize("data, message", [
    (EXAMPLE_INDEX[:200], "not valid JSON (truncated?): Expecting ',' delimiter at line 1 column 183"),
    (b"", "not valid JSON (truncated?): Expecting value at line 1 column 1"),
    # a newcomer's trial: the decoder's "Unterminated string starting at" read "starting at at line"
    (b'{"v":2,"authority":"skills', "not valid JSON (truncated?): Unterminated string starting at line 1 column 20"),
    (b"\xff\xfe", "not UTF-8"),
    (b"[1, 2]", "not a JSON object"),
    (_mutated(v=1), "unknown index version v=1 (this routelens reads v=2)"),
    (_mutated(v=True), "unknown index version v=True (this routelens reads v=2)"),
    (_mutated(v="2"), "unknown index version v='2' (this routelens reads v=2)"),
    (_mutated(v=KeyError), "missing field 'v' (the index version)"),
    (_mutated(skills=KeyError), "missing field 'skills'"),
    (_mutated(source_sha256=KeyError), "missing field 'source_sha256'"),
    (_mutated(source_sha256="abc"), "source_sha256 is not a sha256 hex digest"),
    (_mutated(authority=7), "authority is not a file name"),
    (_mutated(skill_fields=["id", "start", "end", "triggers"]),
     "skill_fields is ['id', 'start', 'end', 'triggers'], expected ['id', 'source_start', 'source_end', 'triggers', "
     "'not_when', 'terms']"),
    (_mutated(skills=[["a", 1, 2]]), 'skills[0]: expected a tuple of 6 fields, got ["a", 1, 2]'),
    (_mutated(skills=[["a", 1, 2, ["x"], "y", []]]), "skills[0] (a): not_when must be a list of strings"),
    (_mutated(skills=[["a", 1, 2, ["x"], [], [3]]]), "skills[0] (a): terms must be a list of strings"),
    (_mutated(vocabulary=[]), "vocabulary is not an object"),
    (_mutated(vocabulary={"zipf": {"a": "x"}}), "vocabulary.zipf is not an object of numbers"),
    (_mutated(vocabulary={"near": {"a": []}}), "vocabulary.near is not an object of word lists"),
    (_mutated(routing={"destructive_intents": "no"}), "routing.destructive_intents is not true or false"),
    (_mutated(compositions=[["c", 1, 2, []]]), 'compositions[0]: expected a tuple of 3 fields, got ["c", 1, 2, []]'),
    (_mutated(skills=[["a", 0, 2, ["x"], [], []]]), "skills[0] (a): bad line range 0..2"),
    (_mutated(skills=[["a", 3, 2, ["x"], [], []]]), "skills[0] (a): bad line range 3..2"),
    (_mutated(skills=[["a", 1, 2.0, ["x"], [], []]]), "skills[0] (a): bad line range 1..2.0"),
    (_mutated(skills=[["a", True, 2, ["x"], [], []]]), "skills[0] (a): bad line range True..2"),
    (_mutated(skills=[["A", 1, 2, ["x"], [], []]]), "skills[0]: bad id 'A'"),
    (_mutated(skills=[["a", 1, 2, [], [], []]]), "skills[0] (a): triggers must be a non-empty list of strings"),
    (_mutated(skills=[["a", 1, 2, [""], [], []]]), "skills[0] (a): triggers must be a non-empty list of strings"),
    (_mutated(skills=[["b", 1, 2, ["x"], [], []], ["a", 3, 4, ["y"], [], []]]), "skills: ids are not sorted and unique"),
    (_mutated(rules=[["r", 1, 2, ["x"]]]), "rule_fields is None, expected ['id', 'source_start', 'source_end', 'triggers']"),
    (_mutated(routing=[]), "routing is not an object"),
    (_mutated(routing={"threshold": "85"}), "routing.threshold is '85', not a number in [0, 100]"),
    (_mutated(routing={"ambiguity_margin": 101}), "routing.ambiguity_margin is 101, not a number in [0, 100]"),
    (_mutated(routing={"high_risk": "rm"}), "routing.high_risk is not a list of non-empty strings"),
])
def test_parse_index_says_what_is_wrong(data, message):
    with pytest.raises(IndexInvalidError) as info:
        parse_index(data)
    assert str(info.value) == message


def test_parse_index_accepts_what_build_writes():
    idx = parse_index(EXAMPLE_INDEX)
    assert idx.skills[2] == ("repository-change", 4, 10, ("repository change", "実装修正", "設定変更"), (), ("repository",))
    assert idx.compositions == (("article-writing", 33, 35), ("software-change", 30, 31))
    assert (idx.rules, idx.routing, idx.authority, idx.source_sha256) == ((), {}, "example-skills.yaml", EXAMPLE_SHA)


# --------------------------------------------------------------------------- freshness


def test_freshness_states(example_dir):
    reg_path = example_dir / "skills.yaml"
    idx_path = example_dir / "generated" / INDEX_NAME
    fr = freshness(reg_path, idx_path)
    assert (fr.state, fr.index) == ("missing", None)
    assert fr.message == f"no index at {idx_path}: run `routelens build`"
    write_generated(load_registry(reg_path), example_dir / "generated")
    fr = freshness(reg_path, idx_path)
    assert (fr.state, fr.registry_sha256, fr.index_sha256) == ("fresh", EXAMPLE_SHA, EXAMPLE_SHA)
    assert fr.message == "the index matches the registry (6f7783228c00)"
    # a CRLF checkout of the same registry keeps it fresh
    reg_path.write_bytes(EXAMPLE.read_bytes().replace(b"\n", b"\r\n"))
    assert freshness(reg_path, idx_path).state == "fresh"
    reg_path.write_bytes(EXAMPLE.read_bytes() + b"# edited\n")
    fr = freshness(reg_path, idx_path)
    assert fr.state == "stale"
    assert fr.message == (f"the index was built from registry 6f7783228c00, the registry is now "
                          f"{fr.registry_sha256[:12]}")
    idx_path.write_bytes(EXAMPLE_INDEX[:100])
    fr = freshness(reg_path, idx_path)
    assert fr.state == "invalid" and fr.message.startswith(f"the index {idx_path} is invalid: not valid JSON (truncated?)")


def _hand_edit(tmp_path: Path, old: bytes, new: bytes) -> tuple[Path, Path]:
    reg_path = tmp_path / "skills.yaml"
    shutil.copyfile(EXAMPLE, reg_path)
    idx_path = tmp_path / INDEX_NAME
    assert old in EXAMPLE_INDEX
    idx_path.write_bytes(EXAMPLE_INDEX.replace(old, new))
    return reg_path, idx_path


@pytest.mark.parametrize("old, new, problem", [
    (b'["article-writing",33,35]', b'["article-writing",33,36]',
     "composition 'article-writing' has the line range [33, 36], beyond the end of the registry (35 lines)"),
    (b'["grounded-research",12,19,', b'["grounded-research",13,19,',
     "skill 'grounded-research' has the line range [13, 19] but line 13 does not hold the key `grounded-research:` "
     "(it holds 'path: skills/grounded-research.md')"),
    (b'["software-change",30,31]', b'["software-change",29,31]',
     "composition 'software-change' has the line range [29, 31] but line 29 does not hold the key "
     "`software-change:` (it holds 'composition:')"),
])
def test_hand_edited_index_with_matching_hash_is_invalid(tmp_path, old, new, problem):
    reg_path, idx_path = _hand_edit(tmp_path, old, new)
    fr = freshness(reg_path, idx_path)
    assert fr.state == "invalid"
    assert fr.message == (f"the index {idx_path} matches the registry's hash but is wrong (hand-edited?): "
                          f"{problem}; run `routelens build`")
    assert index_problem(parse_index(idx_path.read_bytes()), EXAMPLE.read_text(encoding="utf-8")) == problem


def test_hand_edited_triggers_need_the_parsed_registry(tmp_path):
    reg_path, idx_path = _hand_edit(tmp_path, "出典".encode(), "typo".encode())
    assert freshness(reg_path, idx_path).state == "fresh"  # ranges still hold their keys
    fr = freshness(reg_path, idx_path, registry=load_registry(reg_path))
    assert fr.state == "invalid"
    assert fr.message.endswith("(hand-edited?): it differs from a fresh build of the registry; run `routelens build`")


def test_freshness_of_a_registry_that_is_not_utf8(tmp_path):
    reg_path = tmp_path / "skills.yaml"
    reg_path.write_bytes(b"\xff\xfe")
    sha = source_sha256(b"\xff\xfe")
    idx_path = tmp_path / INDEX_NAME
    idx_path.write_bytes(EXAMPLE_INDEX.replace(EXAMPLE_SHA.encode(), sha.encode()))
    fr = freshness(reg_path, idx_path)
    assert fr.state == "invalid" and "the registry is not UTF-8" in fr.message


# --------------------------------------------------------------------------- check


def test_check_fresh_then_edited(tmp_path):
    reg_path = write_registry(tmp_path, ROOMY)
    out = tmp_path / "generated"
    write_generated(load_registry(reg_path), out)
    res = check(load_registry(reg_path), out)
    assert (res.ok, res.problems, res.added, res.removed, res.changed) == (True, [], [], [], [])
    edited = (ROOMY.replace("      - 根拠\n", "")  # grounded-research changes
              .replace("  software-change:\n    - repository-change\n\n", "")  # removed
              + "rules:\n  prod:\n    triggers: [本番]\n")  # added
    write_registry(tmp_path, edited)
    before = listing(out)
    res = check(load_registry(reg_path), out)
    assert listing(out) == before  # never writes
    assert res.ok is False
    # removing a trigger line moves document-production and article-writing up by one line: they only
    # moved; repository-change lost its composition (a catalog field): it changed
    assert (res.added, res.removed, res.changed, res.moved) == (
        ["prod"], ["software-change"], ["grounded-research", "repository-change"],
        ["article-writing", "document-production"])
    assert res.problems == [
        f"{out / INDEX_NAME} is stale: the registry changed since it was built.",
        f"{out / CATALOG_NAME} is stale: the registry changed since it was built.",
        "Since the build: added: prod; removed: software-change; changed: grounded-research, repository-change; "
        "2 more only moved to other lines. Run `routelens build`.",
    ]


def test_check_catches_a_hand_edited_index_whose_hash_matches(tmp_path):
    reg_path = write_registry(tmp_path, ROOMY)
    out = tmp_path / "generated"
    write_generated(load_registry(reg_path), out)
    p = out / INDEX_NAME
    p.write_bytes(p.read_bytes().replace("出典".encode(), b"typo"))
    res = check(load_registry(reg_path), out)
    assert (res.ok, res.changed) == (False, ["grounded-research"])
    assert res.problems == [
        f"{p} is stale: it differs from a fresh build although its hash matches (hand-edited, or a body changed?).",
        "Since the build: changed: grounded-research. Run `routelens build`."]


def test_check_budget_exceeded_says_by_how_much(tmp_path):
    # a registry under 6,000 chars is not checked: its index's fixed part alone is over 0.7 of it
    out = tmp_path / "generated"
    reg = load_registry(EXAMPLE)
    write_generated(reg, out)
    assert (check(reg, out).ok, check(reg, out).problems) == (True, [])
    # the bundled registry with a tight budget is checked
    text = (Path(__file__).resolve().parents[1] / "skills.yaml").read_text(encoding="utf-8").replace("max_index_ratio: 0.70", "max_index_ratio: 0.2")
    (tmp_path / "skills.yaml").write_text(text, encoding="utf-8")
    reg = load_registry(tmp_path / "skills.yaml")
    write_generated(reg, out)
    res = check(reg, out)
    assert res.ok is False
    assert res.problems == ["size budget exceeded: the index has 7,386 chars; max_index_ratio 0.2 of the registry's "
                            "17,730 chars allows at most 3,545: over by 3,841 chars; every skill's domain terms were "
                            "left out to fit (docs/formats.md §3.7: routing rests on the triggers alone); 2,074 of the "
                            "index's chars are its header and word lists, which do not shrink with the registry (a "
                            "registry of a few skills fills its budget with them); to allow more, raise `routing: "
                            "max_index_ratio` (now 0.2, at most 1) in the registry"]


def test_check_missing_and_not_json(tmp_path):
    reg = parse_registry(ROOMY.encode(), tmp_path / "skills.yaml")
    out = tmp_path / "generated"
    res = check(reg, out)
    assert res.problems == [f"{out / INDEX_NAME} is missing: run `routelens build`",
                            f"{out / CATALOG_NAME} is missing: run `routelens build`"]
    assert not out.exists()  # check never creates anything
    out.mkdir()
    (out / INDEX_NAME).write_bytes(b"{not json")
    (out / CATALOG_NAME).write_bytes(b"")
    res = check(reg, out)
    assert res.problems == [f"{out / INDEX_NAME} is not valid JSON: run `routelens build`",
                            f"{out / CATALOG_NAME} is not valid JSON: run `routelens build`"]


# --------------------------------------------------------------------------- writing


def test_write_generated_writes_once_with_normal_permissions(tmp_path):
    reg = load_registry(EXAMPLE)
    out = tmp_path / "a" / "b"
    old_umask = os.umask(0o022)
    try:
        output, written = write_generated(reg, out)
    finally:
        os.umask(old_umask)
    assert written == [INDEX_NAME, CATALOG_NAME]
    assert sorted(os.listdir(out)) == [CATALOG_NAME, INDEX_NAME]
    assert (out / INDEX_NAME).read_bytes() == output.index == EXAMPLE_INDEX
    assert (out / CATALOG_NAME).read_bytes() == output.catalog == catalog_bytes(reg)
    assert stat.S_IMODE((out / INDEX_NAME).stat().st_mode) == 0o644
    os.chmod(out / CATALOG_NAME, 0o600)
    mtime = (out / INDEX_NAME).stat().st_mtime_ns
    assert write_generated(reg, out)[1] == []  # unchanged: nothing written
    assert (out / INDEX_NAME).stat().st_mtime_ns == mtime
    (out / CATALOG_NAME).write_bytes(b"old")
    assert write_generated(reg, out)[1] == [CATALOG_NAME]
    assert stat.S_IMODE((out / CATALOG_NAME).stat().st_mode) == 0o600  # the old file's mode is kept


def _old_pair(out: Path) -> dict[str, bytes]:
    out.mkdir(parents=True, exist_ok=True)
    (out / INDEX_NAME).write_bytes(b"old index\n")
    (out / CATALOG_NAME).write_bytes(b"old catalog\n")
    return listing(out)


@pytest.mark.parametrize("err, reason", [
    (errno.ENOSPC, "the disk is full"),
    (errno.EROFS, "read-only file system"),
    (errno.EACCES, "permission denied"),
    (errno.EIO, "Input/output error"),
])
def test_write_failure_keeps_the_old_pair_and_leaves_no_temp_file(tmp_path, monkeypatch, err, reason):
    out = tmp_path / "generated"
    before = _old_pair(out)
    real_write = os.write
    calls = {"n": 0}

    def failing_fdopen(fd, *a, **k):  # the second temporary file cannot be written
        calls["n"] += 1
        if calls["n"] == 2:
            raise OSError(err, os.strerror(err))
        return real_fdopen(fd, *a, **k)

    real_fdopen = os.fdopen
    monkeypatch.setattr(os, "fdopen", failing_fdopen)
    with pytest.raises(BuildError) as info:
        write_generated(load_registry(EXAMPLE), out)
    assert str(info.value) == f"cannot write to {out}: {reason}; the previous generated files are unchanged"
    assert listing(out) == before
    del real_write


def test_failed_rename_is_rolled_back(tmp_path, monkeypatch):
    out = tmp_path / "generated"
    before = _old_pair(out)
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith(INDEX_NAME) and str(src).endswith(".tmp"):  # after the catalog went in
            raise OSError(errno.EXDEV, "Invalid cross-device link")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(BuildError, match="Invalid cross-device link; the previous generated files are unchanged"):
        write_generated(load_registry(EXAMPLE), out)
    assert listing(out) == before


def test_failed_rename_into_an_empty_folder_leaves_it_empty(tmp_path, monkeypatch):
    out = tmp_path / "generated"
    real_replace = os.replace

    def replace(src, dst):
        if str(dst).endswith(INDEX_NAME):
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_replace(src, dst)

    monkeypatch.setattr(os, "replace", replace)
    with pytest.raises(BuildError) as info:
        write_generated(load_registry(EXAMPLE), out)
    # there were no previous files to keep (a newcomer read "the previous generated files are unchanged")
    assert str(info.value) == f"cannot write to {out}: the disk is full; nothing was written"
    assert listing(out) == {}


def test_read_only_folder(tmp_path, monkeypatch):
    out = tmp_path / "generated"
    before = _old_pair(out)
    if os.geteuid() == 0:
        # root writes through chmod 0555: make the file system say no instead
        import routelens.artifacts.write as write_module

        def mkstemp(*a, **k):
            raise OSError(errno.EROFS, "Read-only file system")

        monkeypatch.setattr(write_module, "_mkstemp", mkstemp)
    else:  # pragma: no cover - the tests run as root here
        out.chmod(0o555)
    try:
        with pytest.raises(BuildError) as info:
            write_generated(load_registry(EXAMPLE), out)
    finally:
        out.chmod(0o755)
    assert str(info.value).startswith(f"cannot write to {out}: ")
    assert str(info.value).endswith("; the previous generated files are unchanged")
    assert listing(out) == before


def test_out_is_a_file(tmp_path):
    out = tmp_path / "generated"
    out.write_bytes(b"x")
    with pytest.raises(BuildError, match=f"cannot write to {out}: "):
        write_generated(load_registry(EXAMPLE), out)
    assert out.read_bytes() == b"x"


# --------------------------------------------------------------------------- bodies


@pytest.fixture
def body_tree(tmp_path):
    root = tmp_path / "reg"
    (root / "skills").mkdir(parents=True)
    (root / "skills" / "lf.md").write_bytes("---\nname: x\n---\n本文\n".encode())
    (root / "skills" / "crlf.md").write_bytes(b"\xef\xbb\xbf" + "---\r\nname: x\r\n---\r\n本文\r\n".encode())
    (root / "skills" / "folder.md").mkdir()
    (root / "skills" / "bad.md").write_bytes(b"caf\xe9\n")
    (tmp_path / "secret.md").write_bytes(b"secret\n")
    os.symlink(tmp_path / "secret.md", root / "skills" / "escape.md")
    os.symlink(root / "skills" / "lf.md", root / "skills" / "inside.md")
    os.symlink(tmp_path, root / "outdir")
    os.mkfifo(root / "skills" / "pipe.md")
    reg = parse_registry((
        "schema_version: 1\nskills:\n" + "".join(
            f"  s{i}:\n    path: {p}\n    priority: P0\n    triggers: [t{i}]\n"
            for i, p in enumerate(["skills/lf.md", "skills/crlf.md", "skills/folder.md", "skills/bad.md",
                                   "skills/escape.md", "skills/inside.md", "outdir/secret.md", "skills/pipe.md",
                                   "skills/missing.md", "skills/lf.md/x"]))).encode(), root / "skills.yaml")
    return tmp_path, reg


def test_body_info_in_the_catalog(body_tree):
    tmp_path, reg = body_tree
    bodies = {sid: s["body"] for sid, s in catalog_object(reg)["skills"].items()}
    assert bodies == {
        "s0": {"exists": True, "chars": 19},
        "s1": {"exists": True, "chars": 19},  # BOM and CRLF do not count
        "s2": {"exists": False, "error": "is a directory"},
        "s3": {"exists": True, "chars": 5},
        "s4": {"exists": False, "error": "body path 'skills/escape.md' leads outside the registry folder "
                                         "(through a symlink): refused"},
        "s5": {"exists": True, "chars": 19},
        "s6": {"exists": False, "error": "body path 'outdir/secret.md' leads outside the registry folder "
                                         "(through a symlink): refused"},
        "s7": {"exists": False, "error": "not a regular file"},
        "s8": {"exists": False, "error": "missing"},
        "s9": {"exists": False, "error": "missing (a path component is a file)"},
    }
    # the same answers one by one (without the catalog's folder cache)
    for s in reg.skills.values():
        assert body_info(reg, s.path) == bodies[s.id], s.id


@pytest.mark.parametrize("rel, message", [
    ("../secret.md", "body path '../secret.md' is absolute or uses '..': refused"),
    ("skills/../../secret.md", "body path 'skills/../../secret.md' is absolute or uses '..': refused"),
    ("/etc/passwd", "body path '/etc/passwd' is absolute or uses '..': refused"),
    ("C:\\x.md", "body path 'C:\\\\x.md' is absolute or uses '..': refused"),
    ("", "body path '' is empty or holds a NUL character: refused"),
    ("skills/escape.md", "body path 'skills/escape.md' leads outside the registry folder (through a symlink): refused"),
    ("outdir/secret.md", "body path 'outdir/secret.md' leads outside the registry folder (through a symlink): refused"),
])
def test_resolve_body_path_refuses(body_tree, rel, message):
    _, reg = body_tree
    with pytest.raises(ValueError) as info:
        resolve_body_path(reg, rel)
    assert str(info.value) == message
    assert body_info(reg, rel) == {"exists": False, "error": message}


def test_resolve_body_path_inside(body_tree):
    tmp_path, reg = body_tree
    assert resolve_body_path(reg, "skills/inside.md") == (tmp_path / "reg" / "skills" / "lf.md").resolve()
    assert resolve_body_path(reg, "skills/missing.md") == (tmp_path / "reg" / "skills" / "missing.md").resolve()


def test_body_too_big_and_unreadable(body_tree, monkeypatch):
    _, reg = body_tree
    monkeypatch.setitem(LIMITS, "max_body_bytes", 10)
    assert body_info(reg, "skills/lf.md") == {"exists": False, "error": "too big: 23 bytes, more than the limit 10"}
    monkeypatch.setitem(LIMITS, "max_body_bytes", 16 * 1024 * 1024)
    real_open = os.open

    def deny(path, flags, *a):
        if str(path).endswith("lf.md"):
            raise PermissionError(errno.EACCES, "Permission denied")
        return real_open(path, flags, *a)

    monkeypatch.setattr(os, "open", deny)
    assert body_info(reg, "skills/lf.md") == {"exists": False, "error": "unreadable: Permission denied"}


def test_no_temporary_files_after_many_builds(tmp_path):
    out = tmp_path / "g"
    for i in range(5):
        reg = parse_registry((ROOMY + f"# build {i}\n").encode(), tmp_path / "skills.yaml")
        write_generated(reg, out)
    assert sorted(os.listdir(out)) == [CATALOG_NAME, INDEX_NAME]
    assert not any(n.endswith(".tmp") for n in os.listdir(tempfile.gettempdir()) if n.startswith(".routing"))


def test_check_after_adding_a_comment_line_says_the_entries_only_moved(tmp_path):
    """Issue 13 item 8: after adding a comment line, check said "Since the
    build: 5 more only moved to other lines." (more than what?)."""
    reg_path = write_registry(tmp_path, ROOMY)
    out = tmp_path / "generated"
    write_generated(load_registry(reg_path), out)
    write_registry(tmp_path, ROOMY.replace("skills:\n", "# a comment\nskills:\n", 1))
    res = check(load_registry(reg_path), out)
    assert (res.added, res.removed, res.changed) == ([], [], [])
    n = len(res.moved)
    assert n > 1
    assert res.problems[2] == (f"Since the build: {n} entries only moved to other lines (lines above them were added "
                               "or removed; the content is the same). Run `routelens build`.")


def test_the_folder_cache_changes_no_body_answer(body_tree):
    """body_info and body_state with the folder cache of the catalog and of
    the build's warnings (one listing per folder, a name it lacks is
    missing) give the answers of the uncached calls, in any order."""
    tmp_path, reg = body_tree
    root = tmp_path / "reg"
    (root / "skills" / "Upper.md").write_bytes(b"x\n")
    (root / "skills" / "sub").mkdir()
    (root / "skills" / "sub" / "deep.md").write_bytes(b"deep\n")
    os.symlink(root / "skills" / "sub", root / "skills" / "linkdir")
    rels = [s.path for s in reg.skills.values()] + [
        "skills/Upper.md", "skills/upper.md", "skills/UPPER.MD", "skills/sub/deep.md", "skills/linkdir/deep.md",
        "skills/sub", "skills/sub/", "skills/nope/x.md", "nope/x.md", "skills/./lf.md", "skills\\lf.md",
        "skills/missing.md/x", "skills/lf.md/x/y", "outdir/secret.md", "outdir/nothing.md", "lf.md", "skills.yaml"]
    info_cache: dict = {}
    state_cache: dict = {}
    for rel in rels + list(reversed(rels)):
        assert body_info(reg, rel, info_cache) == body_info(reg, rel), rel
        assert body_state(reg.base_dir, rel, state_cache) == body_state(reg.base_dir, rel), rel


def test_top_contributors_cut_from_the_text_with_brackets_and_quotes_in_triggers(tmp_path):
    # the skill rows are cut at ']],["' without decoding the index; a trigger holding brackets, commas
    # and quotes (escaped in JSON) must not cut a row, whatever lists it has (not_when, terms, empty)
    from routelens.artifacts.sizes import _rows_from_text

    path = write_registry(tmp_path, (
        "schema_version: 1\nskills:\n"
        "  a-skill:\n    path: skills/a.md\n    priority: P1\n    description: brackets\n"
        "    triggers: ['x]],[\"y', 'q\"],[\"r', '[[]]']\n    not_when: ['n]],[\"m']\n"
        "  b-skill:\n    path: skills/b.md\n    priority: P2\n    triggers: ['\"],[\"']\n"
        "  c-skill:\n    path: skills/c.md\n    priority: P2\n    description: plain words here\n"
        "    triggers: [plain]\n"
        "composition:\n  a-flow: [a-skill, b-skill]\n"
        "rules:\n  r-rule:\n    triggers: ['z]],[\"w']\n"))
    idx = index_bytes(load_registry(path))
    obj = json.loads(idx)
    found = _rows_from_text(idx.decode("utf-8"))
    assert found is not None  # the fast path, not the decoding fallback
    naive = [(kind, row[0], len(json.dumps(row, ensure_ascii=False, separators=(",", ":"))))
             for key, kind in (("skills", "skill"), ("compositions", "composition"), ("rules", "rule"))
             for row in obj.get(key, [])]
    assert found == naive
    assert [r[1] for r in found] == ["a-skill", "b-skill", "c-skill", "a-flow", "r-rule"]


def test_a_build_reads_each_body_once(tmp_path, monkeypatch):
    # the index's terms and the catalog's body figures come from one read of each body
    import routelens.artifacts.bodies as bodies_mod
    from routelens.artifacts.build import build

    path = write_registry(tmp_path, (
        "schema_version: 1\nskills:\n"
        "  a-skill:\n    path: skills/a.md\n    priority: P1\n    triggers: [alpha]\n"
        "  b-skill:\n    path: skills/b.md\n    priority: P1\n    triggers: [beta]\n"
        "  c-skill:\n    path: skills/missing.md\n    priority: P1\n    triggers: [gamma]\n"))
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "a.md").write_text("# A\r\nzyxquirk zyxquirk notes\r\n", encoding="utf-8")
    (tmp_path / "skills" / "b.md").write_bytes(b"\xef\xbb\xbfB body \xff\n")
    reg = load_registry(path)
    expected = (index_bytes(reg), catalog_bytes(reg))
    reads: list[str] = []
    real = bodies_mod.read_bounded

    def counting(target, *args, **kwargs):
        reads.append(os.path.basename(str(target)))
        return real(target, *args, **kwargs)

    monkeypatch.setattr(bodies_mod, "read_bounded", counting)
    out = build(reg)
    assert (out.index, out.catalog) == expected
    assert sorted(reads) == ["a.md", "b.md"]  # the missing one is known missing from its folder's listing
    cat = json.loads(out.catalog)
    assert cat["skills"]["a-skill"]["body"] == {"exists": True, "chars": len("# A\nzyxquirk zyxquirk notes\n")}
    assert cat["skills"]["b-skill"]["body"] == {"exists": True, "chars": len("B body \ufffd\n")}
    assert cat["skills"]["c-skill"]["body"] == {"exists": False, "error": "missing"}
    from routelens.artifacts.vocabulary import vocabulary

    assert "zyxquirk" in vocabulary(reg)["skill_terms"]["a-skill"]  # the body's words feed the terms


def test_stem_collisions_of_words_shared_by_many_skills_are_every_pair():
    # the collisions are found in one pass per inflection key; they must be exactly the pairs of triggers
    # of different skills written differently whose inflections meet (the pairwise definition)
    import random

    from routelens.artifacts.vocabulary import stem_collisions, trigger_key
    from routelens.text.words import inflection_key

    rng = random.Random(3)
    words = ["migration", "migrations", "Migration", "plan", "planning", "plans", "deploy", "deploys", "api"]
    lines = ["schema_version: 1", "skills:"]
    for i in range(120):
        lines += [f"  s-{i:03d}:", f"    path: skills/s{i}.md", "    priority: P1",
                  "    triggers: [" + ", ".join(rng.sample(words, rng.randint(1, 4))) + "]"]
    reg = parse_registry(("\n".join(lines) + "\n").encode(), "skills.yaml")
    rows = [(s.id, t, trigger_key(t)) for s in reg.skills.values() for t in s.triggers]
    rows = [r for r in rows if r[2] is not None and r[2].isalpha() and len(r[2]) > 3]
    naive = sorted({(sa, ta, sb, tb) for i, (sa, ta, ka) in enumerate(rows) for sb, tb, kb in rows[i + 1:]
                    if sa != sb and ka != kb and inflection_key(ka) == inflection_key(kb)})
    got = stem_collisions(reg)
    assert got == naive
    assert len(got) > 500  # many skills share each word: the pairs are many
    assert not any("api" in (ta, tb) or ta.lower() == tb.lower() for _, ta, _, tb in got)


def test_a_registry_under_2000_chars_keeps_every_skill_term():
    """A 3-skill registry written by hand had every term left out for a
    size budget that does not apply to it (docs/formats.md §5.2), so it
    routed on its triggers alone: "extract the tables from these PDFs" fell
    back on the lone word "PDFs" though "extract" is in its description
    (user trial)."""
    from routelens.routing.router import Router

    text = ("schema_version: 1\nskills:\n"
            "  code-review:\n    path: skills/mine-review.md\n    priority: P0\n"
            "    triggers: [code review, review my diff]\n    description: Review a diff for correctness, risk and tests\n"
            "  pdf-tools:\n    path: skills/mine-pdf.md\n    priority: P2\n    triggers: [pdf tools, PDFs, forms]\n"
            "    description: Extract text and tables from PDF files.\n")
    reg = parse_registry(text.encode(), "skills.yaml")
    obj = json.loads(index_bytes(reg))
    assert [(r[0], r[5]) for r in obj["skills"]] == [("code-review", ["diff", "correctness"]),
                                                     ("pdf-tools", ["extract"])]
    d = Router.from_registry(reg).route("extract the tables from these PDFs")
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", ("pdf-tools",))

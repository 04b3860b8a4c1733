"""Every row of tests/fixtures/cases/README.md (reported failing inputs) with
exactly the value routelens must give, plus the router's fallback on a
damaged index (issue 5)."""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

from conftest import CASES
from routelens.artifacts.catalog import catalog_object
from routelens.artifacts.freshness import freshness
from routelens.artifacts.index_file import index_bytes
from routelens.artifacts.write import write_generated
from routelens.errors import RegistryError
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry import load_registry
from routelens.routing.router import Router


def ranges(reg) -> dict[str, list[int]]:
    out = {e.id: [e.source_start, e.source_end] for e in [*reg.skills.values(), *reg.compositions.values()]}
    out.update({r.id: [r.source_start, r.source_end] for r in reg.rules.values()})
    return out


def as_skills_yaml(tmp_path: Path, case: str, sub: str = "") -> Path:
    """The case file's bytes, unchanged, as ``skills.yaml`` in its own folder."""
    folder = tmp_path / (sub or case)
    folder.mkdir(parents=True)
    shutil.copyfile(CASES / case, folder / "skills.yaml")
    return folder / "skills.yaml"


def test_fixture_bytes_are_preserved():
    # the files hold CRLF, a BOM and U+2028 on purpose (tests/fixtures/.gitattributes: *.yaml -text)
    assert (CASES / "header-crlf.yaml").read_bytes().count(b"\r\n") == 15
    assert (CASES / "header-bom.yaml").read_bytes().startswith(b"\xef\xbb\xbf%YAML 1.2\n")
    assert (CASES / "header-bom-crlf.yaml").read_bytes().startswith(b"\xef\xbb\xbf%YAML 1.2\r\n")
    assert (CASES / "line-endings-crlf.yaml").read_bytes().count(b"\r\n") == 8
    assert "\u2028".encode() in (CASES / "unicode-line-separator.yaml").read_bytes()


def test_end_mark_next_key():
    reg = load_registry(CASES / "end-mark-next-key.yaml")
    assert ranges(reg) == {"repository-change": [3, 8], "docs-update": [11, 14], "software-change": [16, 18]}
    # the blank line and the comment between the entries belong to neither
    assert reg.lines[8:10] == ["", "  # docs skills below"]


HEADERS = ["header-lf.yaml", "header-crlf.yaml", "header-bom.yaml", "header-bom-crlf.yaml"]


def test_headers_line_endings_and_bom_do_not_shift_lines(tmp_path):
    indexes = []
    for case in HEADERS:
        path = as_skills_yaml(tmp_path, case)
        reg = load_registry(path)
        assert ranges(reg) == {"alpha": [7, 10], "beta": [11, 15]}, case
        out, _ = write_generated(reg, path.parent / "generated")
        indexes.append((path.parent / "generated" / INDEX_NAME).read_bytes())
        assert out.index == indexes[-1]
    assert indexes[0] == indexes[1] == indexes[2] == indexes[3]
    sha = hashlib.sha256((CASES / "header-lf.yaml").read_bytes()).hexdigest()
    assert json.loads(indexes[0])["source_sha256"] == sha
    assert indexes[0].decode().count("\n") == 1  # written with LF only


def test_unicode_line_separator():
    reg = load_registry(CASES / "unicode-line-separator.yaml")
    assert ranges(reg) == {"alpha": [3, 8], "beta": [9, 13]}
    assert reg.skills["alpha"].triggers == ("paste\u2028from word", "plain alpha")
    assert reg.line_count == 13
    beta = reg.range_text(9, 13).split("\n")
    assert beta[0] == "  beta:" and beta[-2] == "      - beta task"


def test_yaml11_booleans_stay_text():
    reg = load_registry(CASES / "yaml11-booleans.yaml")
    assert list(reg.skills["locale-norway"].triggers) == ["no", "NO", "on", "off", "yes", "y"]
    assert ranges(reg) == {"locale-norway": [5, 14]}


def test_implicit_types_triggers_stay_text():
    reg = load_registry(CASES / "implicit-types-triggers.yaml")
    assert list(reg.skills["python-upgrade"].triggers) == ["3.10", "1.10", "2024-01-01", "0123", "1e3"]
    row = json.loads(index_bytes(reg))["skills"][0]
    assert row == ["python-upgrade", 3, 11, ["3.10", "1.10", "2024-01-01", "0123", "1e3"], [], []]


def test_implicit_types_ids(tmp_path, cli):
    path = as_skills_yaml(tmp_path, "implicit-types-ids.yaml")
    code, stdout, stderr = cli("build", "--registry", path, "--out", tmp_path / "generated")
    assert (code, stdout) == (2, "")
    assert stderr.splitlines() == [
        f"{path}:3:3: skills.1.10: bad id '1.10': ids are lowercase kebab-case (^[a-z0-9][a-z0-9-]*$)",
        f"{path}:11:3: skills: a null key '~' (write the key as text, quoted if you mean the word)",
        f"{path}: 2 errors; nothing was written",
    ]
    assert "2024-01-01" not in stderr and "Traceback" not in stderr
    assert not (tmp_path / "generated").exists()


def test_anchors_and_merge_keys(tmp_path):
    path = as_skills_yaml(tmp_path, "anchors-merge.yaml")
    reg = load_registry(path)
    assert ranges(reg) == {"code-review": [3, 8], "pr-review": [9, 12], "deploy-staging": [13, 17],
                           "deploy-prod": [18, 20]}
    assert list(reg.skills["pr-review"].triggers) == ["review", "レビュー"]
    prod = reg.skills["deploy-prod"]
    assert (prod.priority, list(prod.triggers), prod.path) == ("P1", ["deploy"], "skills/deploy-prod.md")
    contained = {s.id: s.self_contained for s in reg.skills.values()}
    assert contained == {"code-review": True, "deploy-prod": False, "deploy-staging": True, "pr-review": False}
    cat = catalog_object(reg)
    assert {sid: s["self_contained"] for sid, s in cat["skills"].items()} == contained
    assert [str(w) for w in reg.warnings] == [
        f"{path}:9:3: warning: skills.pr-review: not self-contained: its range uses an alias whose anchor lies outside it",
        f"{path}:18:3: warning: skills.deploy-prod: not self-contained: its range uses an alias whose anchor lies "
        "outside it",
    ]
    # the router resolves such an entry from the whole registry, and says so
    write_generated(reg, path.parent / "generated")
    router = Router.from_paths(path)
    d = router.route("/deploy-prod")
    assert (d.mode, d.reason, d.skills) == ("fast", "explicit", ("deploy-prod",))
    e = d.expansions[0]
    assert (e.source_start, e.source_end, e.priority, e.path, e.resolved_from) == (
        18, 20, "P1", "skills/deploy-prod.md", "registry")


def test_double_merge(tmp_path, cli):
    path = as_skills_yaml(tmp_path, "double-merge.yaml")
    code, _, stderr = cli("build", "--registry", path, "--out", tmp_path / "generated")
    assert code == 2
    assert stderr.splitlines() == [
        f"{path}:10:5: skills.deploy-prod.<<: a second merge key '<<' in the same mapping (the first is on line 9; "
        "only one is allowed)",
        # x-defaults holds the anchors the entries use: no stray key, no warning (docs §1.1)
        f"{path}: 1 error; nothing was written",
    ]


def test_python_tag_is_refused_and_nothing_runs(tmp_path):
    path = as_skills_yaml(tmp_path, "python-tag.yaml")
    out = tmp_path / "generated"
    proc = subprocess.run([sys.executable, "-m", "routelens", "build", "--registry", str(path), "--out", str(out)],
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.splitlines()[0] == (
        f"{path}:6:15: skills.shell.triggers: tag !!python/object/apply:os.system is not allowed: routelens never "
        "builds objects from the registry")
    assert "routelens-pwned" not in proc.stdout and "Traceback" not in proc.stderr
    assert not out.exists()  # the string never reaches an index
    with pytest.raises(RegistryError):
        load_registry(path)


def test_line_endings_keep_the_index_fresh(tmp_path):
    lf = as_skills_yaml(tmp_path, "line-endings-lf.yaml", "lf")
    crlf = as_skills_yaml(tmp_path, "line-endings-crlf.yaml", "crlf")
    reg_lf, reg_crlf = load_registry(lf), load_registry(crlf)
    assert reg_lf.source_sha256 == reg_crlf.source_sha256 == hashlib.sha256(lf.read_bytes()).hexdigest()
    assert ranges(reg_lf) == ranges(reg_crlf) == {"repository-change": [3, 8]}
    write_generated(reg_lf, lf.parent / "generated")
    write_generated(reg_crlf, crlf.parent / "generated")
    assert freshness(crlf, lf.parent / "generated" / INDEX_NAME).state == "fresh"
    assert freshness(lf, crlf.parent / "generated" / INDEX_NAME).state == "fresh"
    assert (lf.parent / "generated" / INDEX_NAME).read_bytes() == (crlf.parent / "generated" / INDEX_NAME).read_bytes()
    assert (lf.parent / "generated" / CATALOG_NAME).read_bytes() == (crlf.parent / "generated" / CATALOG_NAME).read_bytes()


# --------------------------------------------------------------------------- router rows


@pytest.fixture(scope="module")
def short_router(tmp_path_factory):
    path = as_skills_yaml(tmp_path_factory.mktemp("short"), "short-triggers.yaml")
    write_generated(load_registry(path), path.parent / "generated")
    return Router.from_paths(path)


def test_short_triggers_need_word_boundaries(short_router):
    d = short_router.route("write the specification for the login page")
    assert (d.mode, d.reason, d.skills) == ("full", "no_match", ())
    d = short_router.route("improve the prompt wording")
    assert "pr-create" not in d.skills and "pr-create" not in [m.id for m in d.matches]
    d = short_router.route("the 95% CI is too wide")
    # "ci" matches on its word boundaries; as the task's only evidence, a fairly common word of this size
    # (Zipf 3.5: "95% CI" is a confidence interval) does not route alone (docs/formats.md §6.10) ...
    assert (d.mode, d.reason, d.skills, [m.id for m in d.matches]) == ("full", "weak_evidence", (), ["ci-fix"])
    # ... unless the task asks for work on it (matcher 6, the ``ask`` piece)
    d = short_router.route("fix the CI pipeline")
    assert (d.mode, d.reason, d.skills, [m.id for m in d.matches]) == ("index", "clear_candidate", ("ci-fix",),
                                                                        ["ci-fix"])
    d = short_router.route("e")
    assert (d.mode, d.reason, d.skills) == ("full", "no_match", ())


@pytest.fixture(scope="module")
def width_router(tmp_path_factory):
    path = as_skills_yaml(tmp_path_factory.mktemp("width"), "width-forms.yaml")
    write_generated(load_registry(path), path.parent / "generated")
    return Router.from_paths(path)


@pytest.mark.parametrize("task, skill", [
    ("ＰＲ作成してください", "pr-create"),
    ("ﾃｽﾄ追加", "test-add"),
    ("デプロイして", "deploy"),
    (unicodedata.normalize("NFD", "デプロイして"), "deploy"),  # decomposed: テ + U+3099
    ("ログイン画面の実装修正をお願いします", "impl-fix"),
])
def test_width_forms_are_normalised(width_router, task, skill):
    d = width_router.route(task)
    assert [(m.id, m.score) for m in d.matches] == [(skill, 100.0)]


# --------------------------------------------------------------------------- damaged index -> fallback


@pytest.fixture
def built(tmp_path):
    path = as_skills_yaml(tmp_path, "short-triggers.yaml")
    write_generated(load_registry(path), path.parent / "generated")
    idx = path.parent / "generated" / INDEX_NAME
    return path, idx, idx.read_bytes()


def _damage(data: bytes, how: str) -> bytes:
    obj = json.loads(data)
    if how == "truncated":
        return data[: len(data) // 2]
    if how == "not-json":
        return b"<html>oops</html>"
    if how == "unknown-v":
        obj["v"] = 9
    elif how == "missing-field":
        del obj["compositions"]
    elif how == "wrong-tuple-length":
        obj["skills"][0] = obj["skills"][0][:3]
    elif how == "range-beyond-end":
        obj["skills"][2][2] = 99
    elif how == "range-wrong-key":
        obj["skills"][0][1] += 1
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":")).encode()


@pytest.mark.parametrize("how, state, words", [
    ("truncated", "invalid", "is invalid: not valid JSON (truncated?)"),
    # a file that is no JSON at all says so (a newcomer's --index skills.yaml read "truncated?")
    ("not-json", "invalid", "is invalid: not JSON at all: it begins '<html>oops</html>' (YAML or text?)"),
    ("unknown-v", "invalid", "is invalid: unknown index version v=9 (this routelens reads v=2)"),
    ("missing-field", "invalid", "is invalid: missing field 'compositions'"),
    ("wrong-tuple-length", "invalid", "is invalid: skills[0]: expected a tuple of 6 fields"),
    ("range-beyond-end", "invalid", "skill 'prompt-tuning' has the line range [11, 99], beyond the end of the "
                                    "registry (14 lines)"),
    ("range-wrong-key", "invalid", "skill 'ci-fix' has the line range [4, 6] but line 4 does not hold the key"),
])
def test_damaged_index_falls_back_to_the_full_registry(built, how, state, words):
    path, idx, good = built
    idx.write_bytes(_damage(good, how))
    fr = freshness(path, idx)
    assert fr.state == state and words in fr.message
    d = Router.from_paths(path).route("fix the CI pipeline")
    assert (d.mode, d.reason) == ("full", f"index_{state}")
    assert words in d.message
    assert [m.id for m in d.matches] == ["ci-fix"]  # candidates are still shown


def test_stale_and_missing_index_fall_back(built):
    path, idx, good = built
    path.write_bytes(path.read_bytes() + b"# edited\n")
    d = Router.from_paths(path).route("fix the CI pipeline")
    assert (d.mode, d.reason) == ("full", "index_stale")
    idx.unlink()
    d = Router.from_paths(path).route("fix the CI pipeline")
    assert (d.mode, d.reason) == ("full", "index_missing")


def test_a_top_level_key_holding_anchors_is_no_stray_key(tmp_path, cli):
    """docs/formats.md §1.1: an unknown top-level key is a warning, unless it
    holds anchors (at any depth) that the entries use; it said 'ignored' of
    the key whose anchors every skill merged (the UX helper's find)."""
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nx-common:\n  defaults: &defaults\n    priority: P1\nextras: 5\n"
                   "skills:\n  alpha:\n    <<: *defaults\n    path: skills/alpha.md\n    triggers: [alpha job]\n",
                   encoding="utf-8")
    (tmp_path / "skills").mkdir()
    (tmp_path / "skills" / "alpha.md").write_text("# alpha\n", encoding="utf-8")
    code, _, stderr = cli("build", "--registry", reg, "--out", tmp_path / "generated")
    assert code == 0
    assert stderr.splitlines() == [
        f"{reg}:5:1: warning: extras: unknown top-level key (known: schema_version, skills, composition, rules, "
        "routing); ignored",
        f"{reg}:7:3: warning: skills.alpha: not self-contained: its range uses an alias whose anchor lies outside it",
    ]

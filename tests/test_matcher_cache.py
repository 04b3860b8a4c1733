"""The matcher cache (docs/formats.md §11.4): keyed by the index file's sha256
and the matcher version, outside generated/, rebuilt when corrupt or
mismatched, never trusted; decisions are the same with and without it."""

from __future__ import annotations

import hashlib
import pickle
import shutil
from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.registry import load_registry
from routelens.routing import matcher_cache, matching
from routelens.routing.router import Router

ROOT = Path(__file__).resolve().parents[1]
TASKS = ["Please do a code review of the changes in auth/session.py", "the flaky test is back",
         "what is the weather tomorrow", "デプロイ手順を確認して", "review the pull request and deploy it"]


@pytest.fixture
def reg(tmp_path, monkeypatch) -> Path:
    folder = tmp_path / "r"
    folder.mkdir()
    shutil.copy(ROOT / "skills.yaml", folder / "skills.yaml")
    write_generated(load_registry(folder / "skills.yaml"), folder / "generated")
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(tmp_path / "cache"))
    return folder / "skills.yaml"


def _files(reg: Path) -> list[Path]:
    return sorted((reg.parent.parent / "cache").glob("*.pickle"))


def _decisions(router: Router) -> list[dict]:
    return [router.route(t).to_dict() for t in TASKS]


def test_the_cache_is_written_once_and_gives_the_same_decisions(reg, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    plain = _decisions(Router.from_paths(reg))
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    first = Router.from_paths(reg)
    files = _files(reg)
    assert len(files) == 1
    idx = (reg.parent / "generated" / "routing.min.json").read_bytes()
    key = matcher_cache.cache_key(hashlib.sha256(idx).hexdigest())
    assert files[0].name == f"{key}.pickle"
    data = files[0].read_bytes()
    assert data.startswith(matcher_cache.MAGIC + key.encode() + b"\n")
    mtime = files[0].stat().st_mtime_ns
    second = Router.from_paths(reg)
    assert files[0].stat().st_mtime_ns == mtime  # read, not rewritten
    assert isinstance(second._skills.triggers, matching._LazyTriggers)  # it came from the cache
    assert _decisions(first) == plain
    assert _decisions(second) == plain
    assert not any(p.name.endswith(".pickle") for p in (reg.parent / "generated").iterdir())


@pytest.mark.parametrize("damage", ["truncate", "flip", "magic", "empty"])
def test_a_corrupt_cache_is_rebuilt_never_trusted(reg, damage, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    plain = _decisions(Router.from_paths(reg))
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    Router.from_paths(reg)
    path = _files(reg)[0]
    good = path.read_bytes()
    bad = {"truncate": good[:len(good) // 2], "flip": good[:-10] + bytes([good[-10] ^ 0xFF]) + good[-9:],
           "magic": b"X" + good[1:], "empty": b""}[damage]
    path.write_bytes(bad)
    router = Router.from_paths(reg)
    assert not isinstance(router._skills.triggers, matching._LazyTriggers)  # built, not loaded
    assert path.read_bytes() == good  # and written again
    assert _decisions(router) == plain


def test_a_cache_holding_other_classes_is_refused(reg):
    Router.from_paths(reg)
    path = _files(reg)[0]
    key = path.stem
    payload = pickle.dumps((print, "not a matcher"))  # a global outside routelens.routing
    path.write_bytes(matcher_cache.MAGIC + key.encode() + b"\n" + hashlib.sha256(payload).digest() + payload)
    router = Router.from_paths(reg)
    assert not isinstance(router._skills.triggers, matching._LazyTriggers)
    assert router.route(TASKS[0]).skills == ("code-review",)


def test_another_key_is_another_file(reg, monkeypatch):
    Router.from_paths(reg)
    assert len(_files(reg)) == 1
    monkeypatch.setattr(matching, "MATCHER_VERSION", "999")
    Router.from_paths(reg)  # another matcher version: not the old file
    assert len(_files(reg)) == 2
    # a registry edit makes a new index (another sha256): a new file again; the old key is never read
    text = reg.read_text(encoding="utf-8").replace("fix ci, flaky test,", "fix ci, flaky test, flaky run,", 1)
    assert "flaky run" in text
    reg.write_text(text, encoding="utf-8")
    write_generated(load_registry(reg), reg.parent / "generated")
    Router.from_paths(reg)
    assert len(_files(reg)) == 3


def test_a_file_with_a_mismatched_key_is_not_used(reg):
    Router.from_paths(reg)
    path = _files(reg)[0]
    data = path.read_bytes()
    other = "0" * 64
    path.write_bytes(data.replace(path.stem.encode(), other.encode(), 1))
    router = Router.from_paths(reg)
    assert not isinstance(router._skills.triggers, matching._LazyTriggers)
    assert path.read_bytes() == data


def test_a_stale_index_uses_no_cache(reg):
    reg.write_text(reg.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    router = Router.from_paths(reg)
    assert router.freshness.state == "stale"
    assert _files(reg) == []


def test_an_unwritable_cache_folder_is_no_error(reg, monkeypatch, tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(blocker / "cache"))
    assert Router.from_paths(reg).route(TASKS[0]).skills == ("code-review",)


def test_old_files_are_pruned(reg, monkeypatch):
    monkeypatch.setattr(matcher_cache, "MAX_FILES", 2)
    for v in ("a", "b", "c", "d"):
        monkeypatch.setattr(matching, "MATCHER_VERSION", v)
        Router.from_paths(reg)
    assert len(_files(reg)) == 2


def test_lazy_triggers_are_the_built_ones(reg):
    built = Router.from_paths(reg)._skills
    loaded = pickle.loads(pickle.dumps(built))
    assert len(loaded.triggers) == len(built.triggers)
    for a, b in zip(built.triggers, loaded.triggers):
        assert {s: getattr(a, s) for s in a.__slots__} == {s: getattr(b, s) for s in b.__slots__}


def test_routers_over_throwaway_registries_write_no_cache(reg):
    # fixes and suggestions build routers over patched registries: they must not fill (and prune) the cache
    Router.from_registry(load_registry(reg))
    assert _files(reg) == []


# --------------------------------------------------------------------------- the cache vouches for the index


def _refuse_decoding(monkeypatch) -> None:
    """parse_index and the range check fail the test if called: a vouched-for index is neither decoded nor checked."""
    from routelens.artifacts import freshness as fresh_mod
    from routelens.artifacts import index_file

    def boom(*_a, **_k):
        raise AssertionError("the index was decoded or checked again")

    monkeypatch.setattr(index_file, "parse_index", boom)
    monkeypatch.setattr(fresh_mod, "parse_index", boom)
    monkeypatch.setattr(fresh_mod, "index_problem", boom)


def test_a_cache_vouches_for_its_index_and_gives_the_same_decisions(reg, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    plain = Router.from_paths(reg)
    want = _decisions(plain)
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    Router.from_paths(reg)  # reads and checks the index in full, writes the cache with its summary
    _refuse_decoding(monkeypatch)
    router = Router.from_paths(reg)
    assert router.freshness.state == "fresh"
    assert router.freshness.message == plain.freshness.message
    assert router.freshness.registry_sha256 == plain.freshness.registry_sha256
    assert router.index_sha256 == plain.index_sha256
    assert router.skill_ids == plain.skill_ids and router.composition_ids == plain.composition_ids
    assert router.skill_range("code-review") == plain.skill_range("code-review")
    assert router.settings == plain.settings
    assert _decisions(router) == want
    # the trust-verified triggers come from the matchers: the index's own lists
    idx = plain.freshness.index
    for row in idx.skills:
        assert router._index_triggers("skill", row[0]) == tuple(row[3])
    for row in idx.rules:
        assert router._index_triggers("rule", row[0]) == tuple(row[3])


def test_a_vouched_index_decodes_its_rows_when_asked(reg):
    from routelens.artifacts.index_file import load_index

    Router.from_paths(reg)
    router = Router.from_paths(reg)
    full = load_index(reg.parent / "generated" / "routing.min.json")
    idx = router.freshness.index
    assert type(idx).__name__ == "_VouchedIndex"
    assert (idx.skills, idx.compositions, idx.rules, idx.vocabulary, idx.routing, idx.authority,
            idx.source_sha256, idx.raw) == (full.skills, full.compositions, full.rules, full.vocabulary,
                                            full.routing, full.authority, full.source_sha256, full.raw)


def test_a_registry_edited_after_the_cache_is_stale_not_vouched(reg):
    Router.from_paths(reg)
    Router.from_paths(reg)
    reg.write_text(reg.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    router = Router.from_paths(reg)
    assert router.freshness.state == "stale"
    assert router.route(TASKS[0]).mode == "full"


def test_a_hand_edited_index_is_checked_in_full_with_the_same_error(reg, monkeypatch):
    index = reg.parent / "generated" / "routing.min.json"
    Router.from_paths(reg)  # the cache vouches for the built index's bytes only
    good = index.read_bytes()
    # a range moved by one line, the hash kept: other bytes, so another sha256 and no vouching
    row = b'["code-review",'
    at = good.index(row) + len(row)
    end = good.index(b",", at)
    bad = good[:at] + str(int(good[at:end]) + 1).encode() + good[end:]
    index.write_bytes(bad)
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    want = Router.from_paths(reg).freshness
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    got = Router.from_paths(reg).freshness
    assert want.state == got.state == "invalid"
    assert got.message == want.message and "does not hold the key `code-review:`" in got.message
    # an index cut short: the same error with and without a cache of its earlier bytes
    index.write_bytes(good[:100])
    got = Router.from_paths(reg).freshness
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    want = Router.from_paths(reg).freshness
    assert got.state == want.state == "invalid"
    assert got.message == want.message and "not valid JSON (truncated?)" in got.message


@pytest.mark.parametrize("damage", ["counts", "rows", "no-summary", "other-registry", "floors", "shape"])
def test_a_sealed_file_with_a_wrong_summary_is_not_trusted(reg, damage, monkeypatch):
    from routelens.fileio import seal

    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    want = _decisions(Router.from_paths(reg))
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    Router.from_paths(reg)
    path = _files(reg)[0]
    sha = hashlib.sha256((reg.parent / "generated" / "routing.min.json").read_bytes()).hexdigest()
    got = matcher_cache.read(sha)
    assert got is not None and "code-review" in got["index"]["rows"]["skill"][0].split("\n")
    summary = dict(got["index"])
    rows = dict(summary["rows"])
    payload = dict(got)
    if damage == "counts":  # one id fewer than line numbers
        ids, starts, ends = rows["skill"]
        rows["skill"] = (ids.rsplit("\n", 1)[0], starts, ends)
    elif damage == "rows":
        rows["skill"] = ("x", b"\x00", b"")
    elif damage == "no-summary":
        payload["index"] = None
    elif damage == "other-registry":
        summary["source_sha256"] = "0" * 64
    elif damage == "floors":
        payload["floors"] = (1.0, 2.0)
    elif damage == "shape":
        payload["built"] = payload["built"][:3]
    summary["rows"] = rows
    if damage not in ("no-summary",):
        payload["index"] = summary
    path.write_bytes(seal(matcher_cache.MAGIC, path.stem, pickle.dumps(payload)))
    router = Router.from_paths(reg)
    assert router.freshness.state == "fresh"
    assert _decisions(router) == want
    vouched = type(router.freshness.index).__name__ == "_VouchedIndex"
    lazy = isinstance(router._skills.triggers, matching._LazyTriggers)
    from_summary = type(router.entries._rows["skill"]).__name__ == "SortedRows"
    # counts, rows: vouched, but the rows are the index's own, decoded and checked (parse_index);
    # no summary, another registry, another shape: the index is read and checked in full (the first two
    # still read their matchers: those are keyed by the index bytes alone);
    # floors: vouched, the matchers built again (and the file written again)
    assert (vouched, lazy, from_summary) == {
        "counts": (True, True, False), "rows": (True, True, False), "no-summary": (False, True, False),
        "other-registry": (False, True, False), "floors": (True, False, True), "shape": (False, False, False),
    }[damage]


def test_the_composition_word_index_read_from_the_cache_is_the_built_one(reg, monkeypatch):
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    built_words, built_other = Router.from_paths(reg).entries.composition_words()
    assert built_words and isinstance(built_words, dict)
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    Router.from_paths(reg)
    router = Router.from_paths(reg)
    words, other = router.entries._composition_words  # given by the cache, before any task
    assert type(words).__name__ == "NamedPostings"
    assert other == built_other
    for word, cids in built_words.items():
        assert words.get(word) == cids
    assert words.get("no-such-word-anywhere") is None
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    plain = Router.from_paths(reg)
    assert any(plain.entries.compositions_holding(sid) for sid in plain.skill_ids)
    assert router.entries._vouched_holding is not None  # every composition's members came with the file
    for sid in plain.skill_ids:
        assert router.entries.compositions_holding(sid) == plain.entries.compositions_holding(sid)
    for cid in plain.composition_ids:
        assert router.entries.composition_members_of(cid) == plain.entries.composition_members_of(cid)
    assert ("composition", plain.composition_ids[0]) not in router.entries._cache  # no range read


def test_the_statuses_read_from_the_cache_are_the_ranges(reg, monkeypatch):
    """The cache keeps every skill's status as its range reads (§11.4
    ``skill_statuses``): a router from it tells a candidate's status without
    reading its range, the same as reading it; a range the lines alone do
    not read (a quoted key here) is left out and read when a task needs it;
    a disabled skill is dropped the same way."""
    text = reg.read_text(encoding="utf-8")
    assert "  legacy-deploy:\n" in text and "  code-review:\n" in text
    reg.write_text(text.replace("  code-review:\n", '  "code-review":\n', 1), encoding="utf-8")
    write_generated(load_registry(reg), reg.parent / "generated")
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", "off")
    plain = Router.from_paths(reg)
    want = _decisions(plain) + [plain.route("fab deploy to the old servers").to_dict()]
    monkeypatch.setenv("ROUTELENS_MATCHER_CACHE", str(reg.parent.parent / "cache"))
    Router.from_paths(reg)  # writes the file
    router = Router.from_paths(reg)
    statuses, left = router.entries._statuses
    # the triggers of article-draft, ci-fix, refactoring, debugging, code-explanation and dependency-upgrade are flow
    # lists over several lines, which the lines alone do not read either
    unread = {"code-review", "article-draft", "ci-fix", "refactoring", "debugging", "code-explanation",
              "dependency-upgrade"}
    assert statuses == {sid: plain.entries.skill_status(sid) for sid in plain.skill_ids
                        if plain.entries.skill_status(sid) != "active" and sid not in unread}
    assert "legacy-deploy" in statuses and left == unread
    assert [router.entries.vouched_status(sid) for sid in plain.skill_ids] == [
        None if sid in unread else plain.entries.skill_status(sid) for sid in plain.skill_ids]
    assert _decisions(router) + [router.route("fab deploy to the old servers").to_dict()] == want
    assert ("skill", "legacy-deploy") not in router.entries._expanded  # its status came from the cache
    assert ("skill", "code-review") in router.entries._expanded  # left out: read from its range

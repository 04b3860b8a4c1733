"""The Layer-1 block: exact bytes, stability, sizes; `routelens prompt`."""

from __future__ import annotations

import hashlib
import sys
import types
from pathlib import Path

import pytest

from routelens.artifacts import sizes
from routelens.cli import main
from routelens.registry import load_registry, parse_registry
from routelens.tools.prompt import HEADER, layer1_block, layer1_stats, one_line

FIXTURES = Path(__file__).parent / "fixtures"

REGISTRY = """\
schema_version: 1
skills:
  zeta-tool:
    path: skills/zeta.md
    priority: P2
    triggers: [zeta]
    description: Last one alphabetically
  alpha-tool:
    path: skills/alpha.md
    priority: P0
    triggers: [alpha]
    description: |
      Two lines
        and an indented tail\t
  old-tool:
    path: skills/old.md
    priority: P1
    triggers: [old]
    status: deprecated
    description: Replaced by alpha-tool
  gone-tool:
    path: skills/gone.md
    priority: P1
    triggers: [gone]
    status: disabled
    description: Never listed
  bare-tool:
    path: skills/bare.md
    priority: P1
    triggers: [bare]
  ja-tool:
    path: skills/ja.md
    priority: P1
    triggers: [文書]
    description: "文書を作る\\u2028二行目"
"""

EXPECTED = (
    "Available skills (id: when to use it), sorted by id:\n"
    "- alpha-tool: Two lines and an indented tail\n"
    "- bare-tool\n"
    "- ja-tool: 文書を作る 二行目\n"
    "- old-tool: [deprecated] Replaced by alpha-tool\n"
    "- zeta-tool: Last one alphabetically\n"
)


@pytest.fixture
def reg(tmp_path):
    p = tmp_path / "skills.yaml"
    p.write_text(REGISTRY, encoding="utf-8")
    return load_registry(p)


@pytest.fixture
def no_tokens(monkeypatch, tmp_path):
    """tiktoken's cache is an empty folder: tokens are unavailable."""
    cache = tmp_path / "tiktoken-cache"
    cache.mkdir()
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(cache))
    monkeypatch.setattr(sizes, "_tiktoken_installed", lambda: True)  # the optional extra may be absent
    monkeypatch.setattr(sizes, "_ENCODER", None)
    monkeypatch.setattr(sizes, "_ENCODER_ERROR", None)
    return cache


def test_block_exact_bytes(reg):
    assert layer1_block(reg) == EXPECTED


def test_block_without_descriptions():
    reg = load_registry(FIXTURES / "example-skills.yaml")
    assert layer1_block(reg) == (
        f"{HEADER}\n- document-production\n- grounded-research\n- repository-change\n"
    )


def test_block_is_byte_stable_across_line_endings_and_bom(tmp_path):
    lf = REGISTRY.encode("utf-8")
    crlf = b"\xef\xbb\xbf" + lf.replace(b"\n", b"\r\n")
    a = layer1_block(parse_registry(lf, tmp_path / "a.yaml"))
    b = layer1_block(parse_registry(crlf, tmp_path / "b.yaml"))
    assert a.encode("utf-8") == b.encode("utf-8") == EXPECTED.encode("utf-8")


def test_block_order_does_not_follow_file_order(tmp_path):
    # the same entries written in another order give the same bytes
    reordered = REGISTRY.replace("  zeta-tool:\n    path: skills/zeta.md\n    priority: P2\n    triggers: [zeta]\n"
                                 "    description: Last one alphabetically\n", "")
    reordered += ("  zeta-tool:\n    path: skills/zeta.md\n    priority: P2\n    triggers: [zeta]\n"
                  "    description: Last one alphabetically\n")
    assert reordered != REGISTRY
    assert layer1_block(parse_registry(reordered.encode(), tmp_path / "r.yaml")) == EXPECTED


def test_one_line():
    assert one_line("a\n  b\u2028c\u0085d\te  ") == "a b c d e"
    assert one_line(None) == ""


def test_stats_exact_and_tokens_unavailable(reg, no_tokens):
    st = layer1_stats(reg)
    data = EXPECTED.encode("utf-8")
    assert st == {
        "skills": 5,
        "chars": 216,
        "bytes": 232,
        "lines": 6,
        "tokens": None,
        "encoding": "cl100k_base",
        "tokens_unavailable": f"cl100k_base is not in tiktoken's cache at {no_tokens}; routelens never downloads it",
        "sha256": hashlib.sha256(data).hexdigest(),
    }
    assert (st["chars"], st["bytes"]) == (len(EXPECTED), len(data))  # chars vs UTF-8 bytes differ (Japanese)


def test_tokens_counted_when_encoding_loads(reg, monkeypatch):
    """When tiktoken's encoding is in the local cache, the figure is its token count."""
    fake = types.SimpleNamespace(get_encoding=lambda name: types.SimpleNamespace(
        encode=lambda text, disallowed_special=(): text.split()))
    monkeypatch.setitem(sys.modules, "tiktoken", fake)
    monkeypatch.setattr(sizes, "_tiktoken_offline_problem", lambda enc: None)
    monkeypatch.setattr(sizes, "_ENCODER", None)
    monkeypatch.setattr(sizes, "_ENCODER_ERROR", None)
    st = layer1_stats(reg)
    assert st["tokens"] == len(EXPECTED.split()) == 35
    assert st["tokens_unavailable"] is None


def test_corrupt_cache_is_not_used(monkeypatch, tmp_path):
    """A cached file with the wrong sha256 would make tiktoken download again: refused."""
    monkeypatch.setattr(sizes, "_tiktoken_installed", lambda: True)
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", str(tmp_path))
    url = sizes._TIKTOKEN_FILES["cl100k_base"][0]
    (tmp_path / hashlib.sha1(url.encode()).hexdigest()).write_bytes(b"not the encoding")
    assert sizes._tiktoken_offline_problem("cl100k_base") == (
        f"the cached cl100k_base file in {tmp_path} is corrupt (sha256 mismatch)")
    monkeypatch.setenv("TIKTOKEN_CACHE_DIR", "")
    assert sizes._tiktoken_offline_problem("cl100k_base") == (
        "TIKTOKEN_CACHE_DIR is empty (cache disabled) and routelens never downloads the encoding")


def test_tiktoken_not_installed_is_said(monkeypatch):
    """Without the optional extra, the figure says so (found on a fresh CI virtualenv)."""
    monkeypatch.setattr(sizes, "_tiktoken_installed", lambda: False)
    monkeypatch.setattr(sizes, "_ENCODER", None)
    monkeypatch.setattr(sizes, "_ENCODER_ERROR", None)
    assert sizes.token_count("abc") == {
        "encoding": "cl100k_base", "tokens": None,
        "unavailable": "tiktoken is not installed: pip install tiktoken, or pip install -e '.[tokens]' in a "
                       "routelens checkout"}


def test_cli_prompt(reg, no_tokens, capsys):
    assert main(["prompt", "--registry", str(reg.path)]) == 0
    out, err = capsys.readouterr()
    assert out == EXPECTED
    assert err == (f"layer-1 block: 5 skills, 216 chars, 232 bytes, tokens: unavailable (cl100k_base is not in "
                   f"tiktoken's cache at {no_tokens}; routelens never downloads it)\n")


def test_cli_prompt_json(reg, no_tokens, capsys):
    import json

    assert main(["prompt", "--registry", str(reg.path), "--json"]) == 0
    obj = json.loads(capsys.readouterr().out)
    assert obj["block"] == EXPECTED
    assert obj["stats"]["chars"] == 216


def test_cli_prompt_bad_registry(tmp_path, capsys):
    p = tmp_path / "skills.yaml"
    p.write_text("schema_version: 1\nskills:\n  Bad:\n    path: a.md\n    priority: P0\n    triggers: [x]\n")
    assert main(["prompt", "--registry", str(p)]) == 2
    err = capsys.readouterr().err
    assert f"{p}:3:3: skills.Bad: bad id 'Bad'" in err
    assert "Traceback" not in err

"""Property tests (hypothesis), bounded in size and count:

- generated registries: every self-contained entry's line range, sliced
  from the file and parsed with ``parse_fragment``, is exactly that entry;
  ranges never overlap and only blank or comment lines lie between them;
  building twice (and from a CRLF/BOM/CR copy) gives identical bytes;
- arbitrary text and bytes as a registry: ``build`` exits 0 or 2, never a
  traceback, and a failed build leaves the generated files untouched;
- damaged index bytes: ``parse_index`` returns or raises ``IndexInvalidError``,
  ``freshness`` returns a state — never another exception;
- the catalog's pretty printer writes exactly what ``json.dumps`` writes.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
import tempfile
from datetime import timedelta
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from routelens.artifacts.catalog import catalog_bytes
from routelens.artifacts.freshness import freshness
from routelens.artifacts.index_file import index_bytes, parse_index
from routelens.artifacts.jsonfmt import pretty
from routelens.cli import main as cli_main
from routelens.errors import IndexInvalidError, RegistryError
from routelens.paths import CATALOG_NAME, INDEX_NAME
from routelens.registry import parse_registry
from routelens.text.yaml_events import NULL_WORDS, parse_fragment

SETTINGS = dict(deadline=timedelta(seconds=5), suppress_health_check=[HealthCheck.too_slow])

# --------------------------------------------------------------------------- rendering YAML scalars

_PLAIN_RE = re.compile(r"^[A-Za-z][A-Za-z0-9 _.-]*[A-Za-z0-9]$|^[A-Za-z]$")


def _printable(c: str) -> bool:
    o = ord(c)
    return (c in "\t\n" or 0x20 <= o <= 0x7E or o == 0x85 or 0xA0 <= o <= 0xD7FF or 0xE000 <= o <= 0xFFFD
            or 0x10000 <= o <= 0x10FFFF) and o != 0xFEFF


def double_quoted(s: str) -> str:
    out = ['"']
    for c in s:
        if c == "\\":
            out.append("\\\\")
        elif c == '"':
            out.append('\\"')
        elif c == "\n":
            out.append("\\n")
        elif c == "\t":
            out.append("\\t")
        elif not _printable(c) or c == "\r":
            out.append(f"\\u{ord(c):04x}" if ord(c) <= 0xFFFF else f"\\U{ord(c):08x}")
        else:
            out.append(c)
    out.append('"')
    return "".join(out)


def render_scalar(s: str, style: str) -> str:
    if style == "plain" and _PLAIN_RE.fullmatch(s) and s not in NULL_WORDS and "  " not in s:
        return s
    if style == "single" and all(_printable(c) and c not in "\n\t" for c in s) and s.strip() == s and s:
        return "'" + s.replace("'", "''") + "'"
    return double_quoted(s)


texts = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00"), min_size=1, max_size=12)
words = st.from_regex(r"[A-Za-z][A-Za-z0-9 ._-]{0,10}[A-Za-z0-9]", fullmatch=True)
strings = st.one_of(texts, words, st.sampled_from(["yes", "no", "on", "off", "3.10", "0123", "2024-01-01", "1e3",
                                                   "null", "~", "true", "a: b", "#x", "- x", "[x]", "{x}", "* x",
                                                   "&a", "!tag", "%x", "@x", "`x", "x\u2028y", "p\x85q", "r\u2029s",
                                                   "\ue000", "日本語", "ﾃｽﾄ", "e\u0301"]))
triggers_s = strings.filter(lambda s: s.strip() != "" and len(s) <= 200)
styles = st.sampled_from(["plain", "single", "double"])
ids = st.from_regex(r"[a-z0-9][a-z0-9-]{0,10}", fullmatch=True)
meta_keys = st.from_regex(r"[a-z][a-z_]{0,8}", fullmatch=True).filter(
    lambda k: k not in ("path", "priority", "triggers", "description", "status"))
block_lines = st.lists(st.from_regex(r"[A-Za-z0-9#:\-'\"\[\]{}&*! ]{0,20}[A-Za-z0-9#]", fullmatch=True) | st.just(""),
                       min_size=1, max_size=4).filter(
    lambda ls: ls[0] != "" and ls[-1] != "" and not ls[0].startswith(" "))  # the first line sets the indentation


@st.composite
def scalar_field(draw, indent: str, key: str):
    """(lines, value) of ``key: <string scalar>``, sometimes a block scalar."""
    if draw(st.integers(0, 4)) == 0:
        lines = draw(block_lines)
        chomp = draw(st.sampled_from(["", "-", "+"]))
        blanks = draw(st.integers(0, 2))
        body = [f"{indent}{key}: |{chomp}"] + [f"{indent}  {l}" if l else "" for l in lines] + [""] * blanks
        if chomp == "+":  # keep: every blank line up to the next content is the value's, so end it here
            body.append(f"{indent}# end of the kept lines")
        value = "\n".join(lines)
        value += {"": "\n", "-": "", "+": "\n" + "\n" * blanks}[chomp]
        return body, value
    s = draw(strings)
    assume(s != "")
    comment = draw(st.sampled_from(["", "", "  # note"]))
    return [f"{indent}{key}: {render_scalar(s, draw(styles))}{comment}"], s


@st.composite
def string_list(draw, indent: str, key: str, allow_null: bool = False, items=None):
    items = items if items is not None else draw(st.lists(triggers_s, min_size=1, max_size=4))
    rendered = [render_scalar(t, draw(styles)) for t in items]
    if draw(st.booleans()):
        lines = [f"{indent}{key}: [" + ", ".join(rendered) + "]"]
        return lines, list(items)
    lines = [f"{indent}{key}:"] + [f"{indent}  - {r}" for r in rendered]
    value = list(items)
    if allow_null and draw(st.integers(0, 3)) == 0:
        lines.append(f"{indent}  -")
        value.append(None)
    return lines, value


@st.composite
def metadata_field(draw, indent: str, key: str):
    kind = draw(st.sampled_from(["scalar", "null", "explicit-null", "list", "map"]))
    if kind == "scalar":
        return draw(scalar_field(indent, key))
    if kind == "null":
        return [f"{indent}{key}:"], None
    if kind == "explicit-null":
        return [f"{indent}? {key}"], None
    if kind == "list":
        return draw(string_list(indent, key, allow_null=True))
    sub = draw(st.lists(meta_keys, min_size=1, max_size=3, unique=True))
    lines, value = [f"{indent}{key}:"], {}
    for k in sub:
        l, v = draw(scalar_field(indent + "  ", k))
        lines += l
        value[k] = v
    return lines, value


def gap(draw) -> list[str]:
    """Blank lines and comments between entries (never content)."""
    return draw(st.lists(st.sampled_from(["", "  # a comment", "# column 0", "    # deeper"]), max_size=2))


@st.composite
def registries(draw):
    """(registry text with LF line ends, expected entries) where expected
    maps id -> (kind, value as parse_fragment gives it, self-contained)."""
    n = draw(st.integers(1, 5))
    skill_ids = draw(st.lists(ids, min_size=n, max_size=n, unique=True))
    lines = ["# generated registry", "schema_version: 1", "", "skills:"]
    expected: dict[str, tuple[str, object, bool]] = {}
    anchors: list[tuple[str, list]] = []
    for sid in skill_ids:
        lines += gap(draw)
        lines.append(f"  {sid}:")
        fields: dict[str, object] = {}
        contained = True
        order = ["path", "priority", "triggers"] + draw(st.lists(
            st.sampled_from(["description", "status", "meta"]), unique=True, max_size=3))
        order = draw(st.permutations(order))
        for f in order:
            if f == "path":
                p = f"skills/{sid}.md"
                lines.append(f"    path: {p}")
                fields["path"] = p
            elif f == "priority":
                pr = draw(st.sampled_from(["P0", "P1", "P2"]))
                lines.append(f"    priority: {pr}")
                fields["priority"] = pr
            elif f == "status":
                stt = draw(st.sampled_from(["active", "deprecated", "disabled"]))
                lines.append(f"    status: {stt}")
                fields["status"] = stt
            elif f == "description":
                l, v = draw(scalar_field("    ", "description"))
                lines += l
                fields["description"] = v
            elif f == "triggers":
                if anchors and draw(st.integers(0, 4)) == 0:
                    name, value = draw(st.sampled_from(anchors))
                    lines.append(f"    triggers: *{name}")
                    fields["triggers"] = list(value)
                    contained = False
                else:
                    l, v = draw(string_list("    ", "triggers"))
                    if draw(st.integers(0, 3)) == 0 and l[0].endswith(":"):
                        name = f"t{len(anchors)}"
                        l[0] = l[0] + f" &{name}"
                        anchors.append((name, v))
                    lines += l
                    fields["triggers"] = v
            else:
                for k in draw(st.lists(meta_keys, min_size=1, max_size=2, unique=True)):
                    l, v = draw(metadata_field("    ", k))
                    lines += l
                    fields[k] = v
        expected[sid] = ("skill", fields, contained)
    comp_ids = [c for c in draw(st.lists(ids, max_size=3, unique=True)) if c not in skill_ids]
    if comp_ids:
        lines += gap(draw)
        lines.append("composition:")
        for cid in comp_ids:
            lines += gap(draw)
            members = draw(st.lists(st.sampled_from(skill_ids), min_size=1, max_size=3, unique=True))
            l, v = draw(string_list("  ", cid, items=members))
            lines += l
            expected[cid] = ("composition", v, True)
    rule_ids = [r for r in draw(st.lists(ids, max_size=2, unique=True)) if r not in expected]
    if rule_ids:
        lines += gap(draw)
        lines.append("rules:")
        for rid in rule_ids:
            lines += gap(draw)
            lines.append(f"  {rid}:")
            forced = draw(st.sampled_from(["true", "false"]))
            lines.append(f"    forced: {forced}")
            l, v = draw(string_list("    ", "triggers"))
            lines += l
            expected[rid] = ("rule", {"forced": forced, "triggers": v}, True)
    if draw(st.booleans()):
        lines += gap(draw)
        lines += ["routing:", "  threshold: 80", "  high_risk: [rm -rf]"]
    lines += gap(draw)
    return "\n".join(lines) + "\n", expected


def _variants(text: str) -> dict[str, bytes]:
    raw = text.encode("utf-8")
    return {"lf": raw, "crlf": raw.replace(b"\n", b"\r\n"), "bom-cr": b"\xef\xbb\xbf" + raw.replace(b"\n", b"\r"),
            "no-final-newline": raw.rstrip(b"\n"), "header": b"%YAML 1.2\n---\n" + raw}


@settings(max_examples=150, **SETTINGS)
@given(registries())
def test_generated_registries_slice_exactly(case):
    text, expected = case
    reg = parse_registry(text.encode("utf-8"), "/nonexistent/skills.yaml")
    entries = {**reg.skills, **reg.compositions, **reg.rules}
    assert sorted(entries) == sorted(expected)
    spans = []
    for eid, (kind, value, contained) in expected.items():
        e = entries[eid]
        if kind == "skill":
            assert (e.path, e.priority, list(e.triggers)) == (value["path"], value["priority"], value["triggers"])
            assert e.description == value.get("description")
            assert e.status == value.get("status", "active")
            assert e.metadata == {k: v for k, v in value.items()
                                  if k not in ("path", "priority", "triggers", "description", "status")}
        elif kind == "composition":
            assert list(e.members) == value
        else:
            assert (e.forced, list(e.triggers)) == (value["forced"] == "true", value["triggers"])
        assert e.self_contained == contained
        piece = reg.range_text(e.source_start, e.source_end)
        if contained:
            assert parse_fragment(piece, e.source_start) == {eid: value}
        else:
            try:
                parse_fragment(piece, e.source_start)
            except RegistryError as exc:
                assert "has no anchor defined before it" in exc.diagnostics[0].message
            else:
                raise AssertionError("an entry using an outside anchor parsed alone")
        spans.append((e.source_start, e.source_end, eid))
    spans.sort()
    lines = reg.lines
    for (s1, e1, id1), (s2, e2, id2) in zip(spans, spans[1:]):
        assert e1 < s2, f"{id1} {s1}-{e1} overlaps {id2} {s2}-{e2}"
    for s, e, eid in spans:
        assert lines[s - 1].lstrip(" ?").startswith(eid)
        assert lines[e - 1].strip() != "" or eid in reg.skills  # only a |+ scalar ends on a blank line
    covered = {i for s, e, _ in spans for i in range(s, e + 1)}
    first = spans[0][0]
    for i in range(first, len(lines) + 1):
        if i in covered:
            continue
        content = lines[i - 1].strip()
        assert content == "" or content.startswith("#") or content.endswith(":") and not content.startswith("-") \
            or content.startswith(("threshold:", "high_risk:")), (i, content)
    idx, cat = index_bytes(reg), catalog_bytes(reg)
    again = parse_registry(text.encode("utf-8"), "/nonexistent/skills.yaml")
    assert (index_bytes(again), catalog_bytes(again)) == (idx, cat)


@settings(max_examples=40, **SETTINGS)
@given(registries())
def test_line_endings_bom_and_header_change_nothing(case):
    text, _ = case
    regs = {name: parse_registry(raw, "/nonexistent/skills.yaml") for name, raw in _variants(text).items()}
    base = regs.pop("lf")
    spans = {k: (v.source_start, v.source_end) for k, v in {**base.skills, **base.compositions, **base.rules}.items()}
    for name, reg in regs.items():
        shift = 2 if name == "header" else 0  # the %YAML line and --- are real lines
        got = {k: (v.source_start, v.source_end) for k, v in {**reg.skills, **reg.compositions, **reg.rules}.items()}
        assert got == {k: (a + shift, b + shift) for k, (a, b) in spans.items()}, name
        if name in ("crlf", "bom-cr", "no-final-newline"):
            assert index_bytes(reg) == index_bytes(base) or name == "no-final-newline"
            assert (reg.source_sha256 == base.source_sha256) == (name != "no-final-newline")


# --------------------------------------------------------------------------- arbitrary input to build

TOKENS = ["schema_version: 1\n", "skills:\n", "  a:\n", "    path: a.md\n", "    priority: P0\n",
          "    triggers: [x]\n", "composition:\n", "  c: [a]\n", "rules:\n", "routing:\n  threshold: 9\n",
          "- ", "[", "]", "{", "}", ": ", ":", "&a ", "*a", "*b", "<<: ", "!!str ", "!!python/object:os.system ",
          "!x ", "|\n", "|+\n", ">-\n", "'", '"', "#", "\n", "  ", "    ", "\t", "---\n", "...\n", "%YAML 1.1\n",
          "%TAG ! tag:x,2000:\n", "? ", ",", "\u2028", "\x85", "\ufeff", "\r\n", "\r", "~", "null", "yes", "3.10",
          "é", "日本", "\\", "\x07", "\x00"]
yamlish = st.lists(st.one_of(st.sampled_from(TOKENS), st.text(max_size=4)), max_size=60).map("".join)


def _build(raw: bytes) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        reg = Path(tmp) / "skills.yaml"
        reg.write_bytes(raw)
        out = Path(tmp) / "generated"
        out.mkdir()
        (out / INDEX_NAME).write_bytes(b"old index")
        (out / CATALOG_NAME).write_bytes(b"old catalog")
        err, std = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(std):
            code = cli_main(["build", "--registry", str(reg), "--out", str(out), "-q"])
        text = err.getvalue()
        assert code in (0, 2), text
        assert "Traceback" not in text
        if code == 2:
            first = text.splitlines()[0]
            assert re.match(re.escape(str(reg)) + r":\d+:\d+: ", first), first
            assert (out / INDEX_NAME).read_bytes() == b"old index"
            assert (out / CATALOG_NAME).read_bytes() == b"old catalog"
        else:
            data = (out / INDEX_NAME).read_bytes()
            parse_index(data)
            assert json.loads((out / CATALOG_NAME).read_bytes())["source_sha256"] == json.loads(data)["source_sha256"]


@settings(max_examples=300, **SETTINGS)
@given(yamlish)
def test_yaml_like_text_builds_or_exits_2(text):
    _build(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=150, **SETTINGS)
@given(st.text(max_size=300))
def test_arbitrary_text_builds_or_exits_2(text):
    _build(text.encode("utf-8", "surrogatepass"))


@settings(max_examples=150, **SETTINGS)
@given(st.binary(max_size=300))
def test_arbitrary_bytes_build_or_exit_2(raw):
    _build(raw)


@settings(max_examples=100, **SETTINGS)
@given(registries(), st.data())
def test_mutated_registries_build_or_exit_2(case, data):
    raw = case[0].encode("utf-8")
    i = data.draw(st.integers(0, len(raw)))
    j = data.draw(st.integers(i, min(len(raw), i + 8)))
    junk = data.draw(st.binary(max_size=4) | st.sampled_from([b"", b":", b"- ", b"\n  ", b"&a", b"*a", b"!!x ", b"\t"]))
    _build(raw[:i] + junk + raw[j:])


# --------------------------------------------------------------------------- damaged index bytes

GOOD_INDEX = (
    '{"v":1,"authority":"skills.yaml","skill_fields":["id","source_start","source_end","triggers"],'
    '"skills":[["a",3,6,["x"]]],"composition_fields":["id","source_start","source_end"],"compositions":[],'
    '"rule_fields":["id","source_start","source_end","triggers"],"rules":[["r",8,9,["y"]]],'
    '"routing":{"threshold":85,"ambiguity_margin":5,"high_risk":[]},"source_sha256":"' + "0" * 64 + '"}\n'
).encode()


@settings(max_examples=300, **SETTINGS)
@given(st.data())
def test_damaged_index_is_reported_never_raised(data):
    raw = bytearray(GOOD_INDEX)
    for _ in range(data.draw(st.integers(1, 4))):
        op = data.draw(st.sampled_from(["cut", "flip", "insert", "delete"]))
        i = data.draw(st.integers(0, max(len(raw) - 1, 0)))
        if op == "cut":
            del raw[i:]
        elif op == "flip" and raw:
            raw[i] = data.draw(st.integers(0, 255))
        elif op == "insert":
            raw[i:i] = data.draw(st.sampled_from([b"[", b"]", b"{", b"}", b",", b'"', b"1", b"-1", b"null", b"true",
                                                  b"1e999", b"\xff", b'"a"', b"[]", b"{}"]))
        elif raw:
            del raw[i:i + data.draw(st.integers(1, 10))]
    try:
        idx = parse_index(bytes(raw))
    except IndexInvalidError as exc:
        assert str(exc)
    else:
        assert all(1 <= s <= e for _, s, e, *_ in idx.skills + idx.compositions + idx.rules)
    with tempfile.TemporaryDirectory() as tmp:
        reg = Path(tmp) / "skills.yaml"
        reg.write_bytes(b"schema_version: 1\nskills:\n  a:\n    path: a.md\n    priority: P0\n    triggers: [x]\n")
        p = Path(tmp) / INDEX_NAME
        p.write_bytes(bytes(raw))
        fr = freshness(reg, p)
        assert fr.state in ("fresh", "stale", "invalid") and fr.message


@settings(max_examples=100, **SETTINGS)
@given(st.data())
def test_json_valued_index_fields_never_crash(data):
    obj = json.loads(GOOD_INDEX)
    json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=5),
                               lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=3), c, max_size=3),
                               max_leaves=8)
    key = data.draw(st.sampled_from(sorted(obj)))
    obj[key] = data.draw(json_values)
    try:
        parse_index(json.dumps(obj).encode())
    except IndexInvalidError:
        pass


# --------------------------------------------------------------------------- the catalog's JSON writer

json_trees = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    lambda c: st.lists(c, max_size=4) | st.dictionaries(st.text(max_size=6), c, max_size=4),
    max_leaves=25)


@settings(max_examples=300, **SETTINGS)
@given(json_trees)
def test_pretty_printer_equals_json_dumps(obj):
    assert pretty(obj) == json.dumps(obj, ensure_ascii=False, indent=2) + "\n"

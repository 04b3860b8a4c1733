"""The build's seventh speed round (issue 14): each shortcut gives exactly
what the slower way gave (benchmarks/README.md "Build speed"). The slower
ways are kept here as the reference: the vocabulary counted skill by skill
with a Counter each (the sixth round's code), the trigger key word and
the commonness of a word as they were written before their fast paths."""

from __future__ import annotations

import os
import random
import re
import unicodedata
from collections import Counter
from itertools import chain
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import routelens.artifacts.vocabulary as V
from routelens.registry.load import load_registry, parse_registry
from routelens.text.life import written_life
from routelens.text.unicode import is_spaceless, normalize_text
from routelens.text.words import MATCH_STOP_WORDS, PartTerms, is_term, term_candidates, terms, terms_by_parts

ROOT = Path(__file__).resolve().parents[1]


def _shipped() -> list[Path]:
    return [ROOT / "skills.yaml", *sorted((ROOT / "benchmarks" / "registries").glob("*/skills.yaml"))]


# --------------------------------------------------------------------------- terms cut by parts

TRAPS = [
    "", " ", "  ", "deploy", "deploy test lint", "  leading and trailing  ", "double  space",
    "実装修正 調査", "route 最新情報", "C++ & Rust", "<html> template", "key: value", "it's done", "Q&A 対応",
    "ｶﾀｶﾅ ﾃｽﾄ", "Ｆｕｌｌ ｗｉｄｔｈ", "ﬁle ﬂow", "Straße STRASSE", "café cafe\u0301", "x \u0301y \u0301",
    "a\u3000b", "a\u00a0bcd efg\u00a0hij", "tab\tsep here", "line\nbreak here", "㍿ ½ ⅷ ㌀ ﾃﾞｰﾀ",
    "東京都庁舎前 東京 々々", "データ・ベース ー ーー", "1:1 24/7 404 2024-01-01 0123", "the and for ab abc",
    "İstanbul ǅemal Ǆ", "\u0301", " \u0308a", "ᄀ 가", "\U00020000\U00020001 𠀀",
]


def _shipped_texts() -> list[str]:
    out = []
    for path in _shipped():
        reg = load_registry(path)
        for s in reg.skills.values():
            out += list(s.triggers)
            if s.description:
                out.append(s.description)
    return out


def test_terms_cut_by_parts_are_the_terms_on_traps_and_every_shipped_trigger_and_description():
    texts = TRAPS + _shipped_texts()
    got = terms_by_parts(texts, PartTerms())
    for text, found in zip(texts, got):
        assert Counter(found) == Counter(terms(text)), text
    # a PartTerms of another function, as the vocabulary uses it (each part's term keys)
    keyed = terms_by_parts(texts, PartTerms(lambda part: tuple(w.upper() for w in terms(part))))
    for text, found in zip(texts, keyed):
        assert Counter(found) == Counter(w.upper() for w in terms(text)), text


_PIECES = (list("abcAB1 _-.\t\nxyzé &#+%") + ["the", "for", "データ", "東京", "ア", "々", "ｱ", "Ａ", "ﬁ", "ー", "・",
                                                  "\u0301", "\u3000", "\u00a0", "㍿", "ß", "İ", "  "])


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=30).map("".join))
def test_terms_cut_by_parts_are_the_terms_on_random_texts(text):
    (found,) = terms_by_parts([text], PartTerms())
    assert Counter(found) == Counter(terms(text))


# --------------------------------------------------------------------------- the trigger key word, ASCII fast path

_ACRONYM = V._ACRONYM_TRIGGER


def _slow_trigger_key(trigger: str) -> str | None:
    """The key word as the general rules give it (the code before the ASCII fast path)."""
    norm = normalize_text(trigger).strip()
    if not norm:
        return None
    if norm.isascii():
        if not any(c.isascii() and c.isalnum() for c in norm):
            return None
    elif len(rest := "".join(c for c in norm if not is_spaceless(ord(c)))) != len(norm):
        if rest and any(c.isalnum() for c in rest):
            return None
        return norm if norm.isalnum() else ("".join(c for c in norm if c.isalnum()) or None)
    words = V._latin_words(norm)
    content = [w for w in words if w not in MATCH_STOP_WORDS or len(words) == 1]
    if len(content) == 1:
        return content[0]
    if words and all(w.isdigit() for w in words):
        return norm.replace(" ", "")
    return None


KEY_TRAPS = [
    "", " ", "\t", "the", "The", "a", "to the", "the deploy", "deploy the", "on call", "deploy test", "C#", "c++",
    ".NET", "GP%", "86", "1:1", "24/7", "1 2", " 1 2 ", "1 a", "a 1", "KDS", "POS", "deploy-test", "x_y", "_x",
    "++", "#", "a b c", "it's", "rm -rf", "\tdeploy\n", "Deploy ", "my deploy", "the the", "for of in", "3.5",
    "PDFs", "e-mail", "a.b", "R&D", "Q&A", "404", "0123", "2024-01-01", "yes", "off", "予約", "実装 修正",
    "deploy 実装", "CSV出力", "ｶﾀｶﾅ", "データ・ベース", "・", "ー", "東京 1", "Ｆｕｌｌ", "ﬁle", "café",
]


def test_the_trigger_key_is_the_general_rules_on_traps_and_every_shipped_trigger():
    for trigger in KEY_TRAPS + [t for t in _shipped_texts()]:
        assert V._trigger_key(trigger) == _slow_trigger_key(trigger), trigger


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(list("abAZ09 _-.#+%&:/'\t") + ["the", "to", "my", "deploy", "s", "  ", "予約"]),
                max_size=12).map("".join))
def test_the_trigger_key_is_the_general_rules_on_random_triggers(trigger):
    assert V._trigger_key(trigger) == _slow_trigger_key(trigger)


# --------------------------------------------------------------------------- commonness of a word

def test_a_words_commonness_takes_the_same_branch_as_the_character_tests():
    words = ["", "deploy", "86", "1.5", "1:1", "a1", "予約", "実装修正", "データ", "ﾃﾞｰﾀ", "가나", "ภาษา", "東京1",
             "東京a", "𠀀𠀁", "々", "ー", "・", "日本・語", "café", "١٢٣", "²", "deploy予約", "〇〇"]
    for w in words:
        spaceless = bool(w) and all(is_spaceless(ord(c)) for c in w)
        assert bool(V._spaceless_run().fullmatch(w)) == spaceless, w
        digits_only = any(c.isdigit() for c in w) and not any(c.isalpha() for c in w)
        if digits_only:
            assert V.zipf(w) == V.NUMBER_ZIPF, w
        elif not w.isascii() and not spaceless:
            assert V.zipf(w) == 0.0, w


# --------------------------------------------------------------------------- the vocabulary, counted in pairs

def _reference_vocabulary(reg) -> dict:
    """The sixth round's vocabulary (a Counter per skill), given the
    triggers' facts (:func:`triggers_facts`, :func:`words_facts`), bodies as
    the build reads them."""
    from routelens.artifacts.bodies import body_text_info

    tkey, trigger_term_counts, _ = V.triggers_facts(reg)
    zipf_map, common_words, near = V.words_facts(reg, tkey)
    skills = list(reg.skills.values())
    key_of = V._TermKeys()
    tkeys = {t: [key_of[w] for w in terms(t)] for t in {t for s in skills for t in s.triggers}}
    counts, body_counts, desc_terms, body_words, body_key, dirs = {}, {}, [], [], {}, {}
    for s in skills:
        c = Counter(chain.from_iterable(tkeys[t] for t in s.triggers))
        if s.description:
            found = terms(s.description)
            desc_terms += found
            c.update(key_of[w] for w in found)
        _, body = body_text_info(reg, s.path, dirs, want_text=True)
        counts[s.id] = c
        if body:
            found = term_candidates(body[:200_000])
            for w in found:
                if w not in body_key:
                    body_key[w] = key_of[w] if is_term(w) else None
            cb = Counter(body_key[w] for w in found)
            cb.pop(None, None)
            body_words += found
            if cb:
                body_counts[s.id] = cb
    for s in skills:
        for k in {key_of[tkey[t]] for t in s.triggers if tkey[t] is not None}:
            counts[s.id].pop(k, None)
            if s.id in body_counts:
                body_counts[s.id].pop(k, None)
                if not body_counts[s.id]:
                    del body_counts[s.id]
    written3 = Counter(desc_terms) + Counter(trigger_term_counts)
    written1 = Counter(w for w in body_words if body_key[w] is not None)
    surfaces: dict = {}
    for t, n in written3.items():
        surfaces.setdefault(key_of[t], {})[t] = 3 * n
    for t, n in written1.items():
        surfaces.setdefault(key_of[t], {}).setdefault(t, 0)
        surfaces[key_of[t]][t] += n
    shown = {k: min(sf, key=lambda t, sf=sf: (-sf[t], len(t), t)) for k, sf in surfaces.items()}
    common = {k: max(V.zipf(t) for t in sf) for k, sf in surfaces.items()}
    df = Counter(chain.from_iterable(c.keys() | body_counts.get(sid, Counter()).keys() for sid, c in counts.items()))
    limit = V.max_skill_df(len(skills))
    eligible = {k for k, n in df.items() if n <= limit and common[k] < V.DOMAIN_MAX_ZIPF}
    skill_terms = {}
    for sid, c in counts.items():
        cb = body_counts.get(sid, Counter())
        ranked = sorted((-3 * c[k] - cb[k], common[k], shown[k]) for k in c.keys() | cb.keys() if k in eligible)
        skill_terms[sid] = [t[2] for t in ranked[:V.TERMS_PER_SKILL]]
    total = (3 * sum(sum(c.values()) for c in counts.values()) + sum(sum(c.values()) for c in body_counts.values())) or 1
    tf = {k: sum(sf.values()) for k, sf in surfaces.items()}
    trigger_words = {key_of[k] for k in tkey.values() if k is not None}
    shared = sorted((k for k, n in df.items() if V.REGISTRY_MIN_DF <= n <= len(skills) // 2
                     and tf[k] >= V.REGISTRY_MIN_COUNT and common[k] < V.REGISTRY_MAX_ZIPF and k not in trigger_words),
                    key=lambda k: (-(tf[k] / total) / 10 ** (max(common[k], 1.0) - 9), shown[k]))
    # round 11: the words of everyday life Layer 1 writes: descriptions and triggers (§3.7 life)
    layer1 = {key_of[t] for t in written3}
    layer1_text = "\n".join([s.description for s in skills if s.description]
                            + list(dict.fromkeys(t for s in skills for t in s.triggers)))
    life = written_life(layer1, key_of.__getitem__, [k for k in layer1 if not k.isascii()], layer1_text)
    return {"zipf": zipf_map, "skill_terms": skill_terms, "registry_terms": sorted(shown[k] for k in shared[:40]),
            "common": common_words, "near": near, "life": life, "source": f"wordfreq {V.WORDFREQ_VERSION}"}


def _synthetic(tmp_path: Path, n: int, seed: int, bodies: bool) -> Path:
    """Skills whose triggers and descriptions share words, whose own trigger
    words appear in their descriptions and bodies, repeated triggers across
    skills, phrases, Japanese, acronyms, numbers, and bodies (present,
    missing, a folder) when ``bodies``."""
    rng = random.Random(seed)
    words = ["ledger", "ledgers", "kubeflow", "deploy", "deploys", "report", "plan", "planning", "alpha", "zyxquirk",
             "KDS", "POS", "86", "C#", "on call", "the", "台帳", "予約", "データ", "設定変更", "rare-word", "ab"]
    folder = tmp_path / f"reg{seed}"
    (folder / "skills").mkdir(parents=True)
    lines = ["schema_version: 1", "", "skills:"]
    for i in range(n):
        sid = f"s{i:03d}"
        trig = []
        while len(trig) < rng.randint(1, 4):
            t = " ".join(rng.sample(words, rng.randint(1, 3)))
            if t not in trig:
                trig.append(t)
        lines += [f"  {sid}:", f"    path: skills/{sid}.md", "    priority: P1"]
        if rng.random() < 0.6:
            rare = f"zq{i // 3}term"  # shared by three skills: a domain term
            lines.append(f"    description: {rare} {' '.join(rng.choice(words) for _ in range(rng.randint(1, 8)))}")
        lines.append("    triggers:")
        lines += [f"      - \"{t}\"" for t in trig]
        if bodies:
            r = rng.random()
            if r < 0.5:
                text = " ".join(rng.choice(words + ["runbook", "steps", "team"]) for _ in range(rng.randint(0, 30)))
                (folder / "skills" / f"{sid}.md").write_text(f"# {sid}\n\n{text}\n", encoding="utf-8")
            elif r < 0.55:
                (folder / "skills" / f"{sid}.md").mkdir()
    path = folder / "skills.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_vocabulary_counted_in_pairs_is_the_per_skill_count_on_every_shipped_registry(path):
    reg = load_registry(path)
    assert V.vocabulary(reg, {}) == _reference_vocabulary(reg)


@pytest.mark.parametrize("seed", range(6))
def test_the_vocabulary_counted_in_pairs_is_the_per_skill_count_on_synthetic_registries(tmp_path, seed):
    path = _synthetic(tmp_path, 40 + 30 * seed, seed, bodies=seed % 2 == 0)
    reg = load_registry(path)
    got = V.vocabulary(reg, {})
    assert got == _reference_vocabulary(reg)
    assert any(got["skill_terms"].values())  # something was ranked


def test_a_skills_own_trigger_word_is_no_term_of_it_in_pairs():
    text = ("schema_version: 1\nskills:\n"
            "  a:\n    path: a.md\n    priority: P1\n    description: kubeflow ledger ledgers\n"
            "    triggers: [kubeflow]\n"
            "  b:\n    path: b.md\n    priority: P1\n    description: kubeflow pipelines\n    triggers: [ledger]\n"
            "  c:\n    path: c.md\n    priority: P1\n    triggers: [pipelines run]\n")
    reg = parse_registry(text.encode(), "skills.yaml")
    got = V.vocabulary(reg, {})
    assert got == _reference_vocabulary(reg)
    assert "kubeflow" not in got["skill_terms"]["a"] and "ledger" not in got["skill_terms"]["b"]
    assert unicodedata.is_normalized("NFC", "".join(chain.from_iterable(got["skill_terms"].values())))


# --------------------------------------------------------------------------- body warnings located on the first lines

@pytest.mark.parametrize("final_lf", [True, False])
def test_body_warnings_located_on_the_first_lines_only_are_the_same(tmp_path, final_lf):
    from routelens.artifacts.bodies import body_problems, body_warnings

    folder = tmp_path / "reg"
    (folder / "skills").mkdir(parents=True)
    lines = ["schema_version: 1", "skills:"]
    for i in range(40):
        lines += [f"  s{i:02d}:", f"    path: skills/s{i:02d}.md", "    priority: P1", "    triggers: [x]"]
        if i < 25:  # the bodies of the first skills exist: the warned ones are the last in the file
            (folder / "skills" / f"s{i:02d}.md").write_text("body", encoding="utf-8")
    lines[-1] = '    "triggers": [x]'  # a quoted key on the very last line
    text = "\n".join(lines) + ("\n" if final_lf else "")
    (folder / "skills.yaml").write_text(text, encoding="utf-8")
    reg = load_registry(folder / "skills.yaml")
    fast = [str(d) for d in body_warnings(reg, 20)]
    assert reg._lines is None  # located without splitting every line
    problems = body_problems(reg)
    reg.lines  # noqa: B018 - every line split, as before
    assert [str(d) for d in body_warnings(reg, 20, problems)] == fast
    assert [str(d) for d in body_warnings(reg, None, problems)][:len(fast)] == fast
    assert len(fast) == 15 and fast[-1].startswith(f"{folder / 'skills.yaml'}:")


# --------------------------------------------------------------------------- the scan's patterns without _BAD

import routelens.registry.scan as scan_module  # noqa: E402

_CHUNK_PIECES = ["  gamma:\n", "    path: g.md\n", "    priority: P0\n", "    triggers:\n", "      - g\n",
                 "      - 'it''s'\n", '      - "a: b"\n', "    description: |\n", "      block line\n",
                 "    description: >-\n", "    notes: x # y\n", "    # comment\n", "\n", "  # c\n", "      - a:b\n",
                 "    status: deprecated\n", "    not_when:\n", "      - x \n", "    key: - x\n", "        - deep\n",
                 "    description: plain value\n", "      h\n", "    owner: team-1\n", "    metadata: é ü 予約\n",
                 "    x: '\n", '    y: "\\u0041"\n', "    z: [a, b]\n", "    w: &a x\n", "      - *a\n", "  delta:\n"]


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_CHUNK_PIECES), min_size=1, max_size=14).map("".join))
def test_the_scans_patterns_without_bad_characters_match_as_the_full_ones_on_clean_texts(chunk):
    assert scan_module._clean(chunk, chunk.encode())
    for i, j in ((2, 4), (4, 6)):
        chunk_i = chunk if i == 2 else chunk.replace("\n  ", "\n    ").replace("  gamma", "    gamma", 1)
        full = scan_module._entry_pattern(i, j).fullmatch(chunk_i)
        fast = scan_module._entry_pattern(i, j, "").fullmatch(chunk_i)
        assert (full is None) == (fast is None)
        if full is not None:
            assert full.groupdict() == fast.groupdict()
        assert ((scan_module._chunk_pattern(i, j).fullmatch(chunk_i) is None)
                == (scan_module._chunk_pattern(i, j, "").fullmatch(chunk_i) is None))


@pytest.mark.parametrize("bad", ["\t", "\x00", "\x1b", "\x7f", "\x80", "\x85", "\x9f", "\u2028", "\u2029", "\ufeff",
                                 "\ufffe", "\uffff"])
def test_a_text_with_a_bad_character_anywhere_is_not_clean(bad):
    text = "schema_version: 1\nskills:\n  a:\n    path: a.md\n    x: é \u00a0 \u00bf \u2027 \u202a 予約 \U0001f600\n"
    assert scan_module._clean(text, text.encode()) and not scan_module._clean(text, None)
    for damaged in (text + f"# {bad}\n", bad + text):
        assert not scan_module._clean(damaged, damaged.encode())


def test_clean_is_the_characters_test_on_every_character_of_the_first_planes():
    chars = [chr(c) for c in range(0x3000)] + [chr(c) for c in range(0xfe00, 0x10000) if not 0xd800 <= c < 0xe000]
    bad = set(chars) & set(re.findall(f"[{scan_module._BAD}]", "".join(chars)))
    for c in chars:
        text = "a" + c + "b"
        assert scan_module._clean(text, text.encode("utf-8", "surrogatepass")) == (c not in bad), hex(ord(c))


@pytest.mark.parametrize("path", _shipped(), ids=lambda p: str(p.relative_to(ROOT)))
def test_the_scan_is_the_same_with_the_full_patterns(path, monkeypatch):
    text = path.read_text(encoding="utf-8")

    def scanned():
        scan = scan_module.scan_skills(text, data=text.encode())
        return (scan.decided, scan.regions, scan.undecided) if scan is not None else None

    fast = scanned()
    monkeypatch.setattr(scan_module, "_clean", lambda text, data: False)
    assert scanned() == fast


# --------------------------------------------------------------------------- bodies of a missing folder

def test_bodies_of_a_folder_known_missing_are_judged_as_before(tmp_path, monkeypatch):
    import routelens.artifacts.bodies as bodies_module
    from routelens.artifacts.bodies import body_state, body_text_info

    base = tmp_path / "reg"
    (base / "present").mkdir(parents=True)
    (base / "present" / "a.md").write_text("body", encoding="utf-8")
    (base / "afile").write_text("not a folder", encoding="utf-8")
    (base / "present" / "sub").mkdir()
    (tmp_path / "outside").mkdir()
    (base / "link").symlink_to(tmp_path / "outside")
    reg = parse_registry(b"schema_version: 1\nskills: {}\n", base / "skills.yaml")
    rels = []
    for folder in ("missing", "missing/deeper", "afile", "present", "link", "", "present/sub"):
        for name in ("a.md", "b.md", ".", "", "x\\y.md", "..", "a\x00.md"):
            rels.append(f"{folder}/{name}" if folder else name)
    rels += ["/abs.md", "C:/x.md", "missing\\a.md", "../x.md", "missing/../present/a.md", "missing//a.md"]

    def judged() -> list:
        dirs_state: dict = {}
        dirs_text: dict = {}
        out = []
        for _ in range(2):  # the second time every folder is in the caches
            for rel in rels:
                out.append((body_state(reg.base_dir, rel, dirs_state), body_text_info(reg, rel, dirs_text, True)))
        return out

    fast = judged()
    monkeypatch.setattr(bodies_module, "_in_missing_folder", lambda rel, dirs: None)  # every path the long way
    assert judged() == fast
    assert ("missing", ({"exists": False, "error": "missing"}, None)) in fast


def test_the_bodies_a_build_found_give_the_same_body_problems(tmp_path, monkeypatch):
    # build's warnings judge the bodies from what the build read (each body looked at once): the same
    # problems, in the same words, as looking at each file (body_state), a too-big body included
    from routelens.artifacts.bodies import body_problems
    from routelens.artifacts.build import build
    from routelens.limits import LIMITS

    base = tmp_path / "reg"
    (base / "skills").mkdir(parents=True)
    (base / "skills" / "ok.md").write_text("body", encoding="utf-8")
    (base / "skills" / "big.md").write_text("x" * 200, encoding="utf-8")
    (base / "skills" / "folder.md").mkdir()
    os.mkfifo(base / "skills" / "fifo.md")
    (base / "skills" / "inside.md").symlink_to(base / "skills" / "ok.md")
    (tmp_path / "outside.md").write_text("outside", encoding="utf-8")
    (base / "skills" / "outside.md").symlink_to(tmp_path / "outside.md")
    (base / "skills" / "dangling.md").symlink_to(base / "skills" / "nothing.md")
    (base / "afile").write_text("a file", encoding="utf-8")
    paths = ["skills/ok.md", "skills/big.md", "skills/folder.md", "skills/fifo.md", "skills/inside.md",
             "skills/outside.md", "skills/dangling.md", "skills/missing.md", "gone/a.md", "afile/a.md",
             "skills\\ok.md", "SKILLS/ok.md"]
    text = "schema_version: 1\nskills:\n" + "".join(
        f"  s{i:02d}:\n    path: '{p}'\n    priority: P1\n    triggers: [t{i}]\n" for i, p in enumerate(paths))
    (base / "skills.yaml").write_text(text, encoding="utf-8")
    reg = load_registry(base / "skills.yaml")
    monkeypatch.setitem(LIMITS, "max_body_bytes", 100)  # big.md is too big to read, not to look at
    bodies: dict = {}
    build(reg, None, bodies)
    assert bodies["skills/big.md"]["error"].startswith("too big")
    assert body_problems(reg, bodies) == body_problems(reg)
    assert len(body_problems(reg)) == 8  # not ok, big (looked at: a file), inside nor skills\\ok.md

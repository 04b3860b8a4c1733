"""The build's fourth speed round (issue 14): each shortcut gives exactly
what the slower way gave (benchmarks/README.md "Build speed")."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from routelens.text.words import is_term, term_candidates, terms

ROOT = Path(__file__).resolve().parents[1]

def _counts(text: str) -> Counter[str]:
    return Counter(w for w in term_candidates(text) if is_term(w))


TRAPS = [
    "",
    "the and for 123 4567 ab abc ABC Abc abc-def abc_def abc1 1abc",
    "Ｆｕｌｌｗｉｄｔｈ ＡＢＣ ｱｲｳｴｵ カタカナ ア 東京都庁舎前 東京 漢字語彙 一 々々",
    "ﬁle ﬂow Straße ǅemal İstanbul café CAFÉ cafe\u0301 naïve",
    "データベース移行 設定変更を行う。 ログ・ダッシュボード ー ーー",
    "tab\tsep\u2028line\u0085next\u00a0nbsp c++ c# .net gp% 24/7 1:1",
    "repeat repeat repeat Repeat REPEAT データ データ データ",
]


def test_term_candidates_that_are_terms_are_the_terms_on_traps_and_every_shipped_body():
    texts = list(TRAPS)
    for folder in (ROOT / "skills", ROOT / "benchmarks" / "registries"):
        texts += [p.read_text("utf-8") for p in sorted(folder.rglob("*.md"))]
    assert len(texts) > 20
    for text in texts:
        assert _counts(text) == Counter(terms(text)), text[:80]


_PIECES = list("abcAB1 _-.\t\nxyzé") + ["the", "for", "and", "データ", "東京", "ア", "々", "ｱ", "Ａ", "ﬁ", "ー", "・"]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join))
def test_term_candidates_that_are_terms_are_the_terms_on_random_texts(text):
    assert _counts(text) == Counter(terms(text))


# --------------------------------------------------------------------------- line-start searches (build round 6)

import re  # noqa: E402

from routelens.registry.split import skills_line, top_level_line  # noqa: E402

_OLD_SKILLS_LINE = re.compile(r"^skills:[ \t]*(?:#[^\n]*)?$", re.M)
_OLD_TOP_LEVEL = re.compile(r"^[^ \t#\n]", re.M)


def _old_skills_line(text: str):
    found = _OLD_SKILLS_LINE.search(text)
    if found is None or _OLD_SKILLS_LINE.search(text, found.end()) is not None:
        return None
    return found.start(), found.end()


def _old_top_level(text: str, pos: int):
    m = _OLD_TOP_LEVEL.search(text, pos)
    return m.start() if m is not None else None


_LINE_TRAPS = [
    "", "skills:", "skills:\n", "skills: # c\n  a:\n", "skills:  \n", "skills:\t#x", " skills:\n", "#skills:\n",
    "skills: x\n", "skillsx:\n", "a: 1\nskills:\n  b:\n", "a: 1\nskills:\nskills:\n", "skills:\n  a:\nskills: #\n",
    "\nskills:", "\n\nskills:\n\n", "skills:\r\n", "x\n skills:\nskills:", "skills:\nrules:\n", "skills:#\n",
    "skills: #a\n  b:\n    c: 1\ncomposition:\n", "  \nskills:\n\t\n#c\n x\ny", "skills:\n\n\n", "skills:\nx",
]


@given(st.lists(st.sampled_from(["skills:", "skills: ", "\n", " ", "\t", "#", "a", ": x", "skills:\n", "\nz"]),
                max_size=12).map("".join))
@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_line_start_searches_find_what_the_multiline_patterns_find(text):
    """skills_line and top_level_line (a LF searched for, not a ``^`` tried
    at every character) give what the ``^...$`` patterns under re.M give,
    from every position."""
    assert skills_line(text) == _old_skills_line(text)
    for pos in range(len(text) + 2):
        assert top_level_line(text, pos) == _old_top_level(text, pos), (text, pos)


def test_line_start_searches_on_traps():
    for text in _LINE_TRAPS:
        assert skills_line(text) == _old_skills_line(text), text
        for pos in range(len(text) + 2):
            assert top_level_line(text, pos) == _old_top_level(text, pos), (text, pos)

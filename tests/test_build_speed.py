"""The build's fourth speed round (issue 14): each shortcut gives exactly
what the slower way gave (README "Build speed")."""

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

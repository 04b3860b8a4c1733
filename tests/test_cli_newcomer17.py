"""A Japanese-first newcomer's trial (a hotel chain's back office): each
input that surprised them, as a test."""

from pathlib import Path

import pytest

from routelens.cli.entry import main
from routelens.registry.load import parse_registry
from routelens.routing.router import Router
from routelens.routing.safety import destructive
from routelens.routing.negation import negated
from routelens.text.life import private_life

HOTEL = """schema_version: 1
skills:
  reservation:
    path: skills/reservation.md
    priority: P1
    triggers: [宿泊予約, ダブルブッキング]
  maintenance:
    path: skills/maintenance.md
    priority: P1
    triggers: [エアコン故障, 設備故障]
  complaint:
    path: skills/complaint.md
    priority: P1
    triggers: [苦情, クレーム対応]
  review-reply:
    path: skills/review-reply.md
    priority: P1
    triggers: [口コミ返信]
"""


@pytest.fixture(scope="module")
def hotel() -> Router:
    return Router.from_registry(parse_registry(HOTEL.encode(), Path("skills.yaml")))


@pytest.mark.parametrize("task, span", [
    ("来月の宿泊予約をぜんぶ消して", (8, 13, "ぜんぶ消し")),
    ("明日の宿泊予約を一斉にキャンセルしてください", (8, 16, "一斉にキャンセル")),
    ("今月の宿泊予約はみんなキャンセルで処理して", (8, 16, "みんなキャンセル")),
    ("予約台帳のデータを根こそぎ消してください", (9, 15, "根こそぎ消し")),
    ("過去の口コミ返信をまるごと削除してください", (9, 15, "まるごと削除")),
])
def test_more_japanese_bulk_words(hotel, task, span):
    assert destructive(task) == [span]
    assert hotel.route(task).reason == "high_risk"


def test_everyone_without_a_destroying_verb_is_no_bulk_intent():
    assert destructive("みんなに連絡してください") == []


@pytest.mark.parametrize("text, expected", [
    ("友人がダブルブッキングして困ってる、どう対応したらいい？", "友人"),
    ("週末に友達との予定がダブルブッキングしちゃった", "友達"),
    ("家のエアコン故障、修理依頼どこに出せばいい？", "家の"),
    ("民家の調査", None),  # a kanji before it: another word
    ("ご友人と宿泊のお客様", None),  # a guest's friend
])
def test_a_friend_and_home_say_private_life(hotel, text, expected):
    assert private_life(text) == expected
    if expected is not None:
        assert hotel.route(text).reason == "weak_evidence"


@pytest.mark.parametrize("task, expected", [
    ("苦情ではありません。口コミ返信をお願いします", [(0, 2, "ではありません")]),
    ("翻訳は結構です。", [(0, 2, "は結構です")]),
    ("キャンセル対応は必要ありません。", [(0, 7, "は必要ありません")]),
    ("客室清掃はもういいから、シーツだけ替えて", [(0, 4, "はもういい")]),
])
def test_more_japanese_negations(task, expected):
    assert negated(task) == expected


def test_a_negated_complaint_leaves_the_review_reply(hotel):
    d = hotel.route("苦情ではありません。口コミ返信をお願いします")
    assert (d.mode, list(d.skills)) == ("index", ["review-reply"])


def test_eval_pads_japanese_categories_by_display_width(tmp_path, capsys):
    reg = tmp_path / "skills.yaml"
    reg.write_text(HOTEL, encoding="utf-8")
    cases = tmp_path / "cases.yaml"
    cases.write_text('cases:\n  - {task: "宿泊予約の変更をお願いします", expect: [reservation], category: 私生活}\n'
                     '  - {task: "口コミ返信をお願いします", expect: [review-reply], category: english}\n',
                     encoding="utf-8")
    main(["eval", "--registry", str(reg), str(cases)])
    lines = capsys.readouterr().out.splitlines()
    head = next(i for i, line in enumerate(lines) if line.lstrip().startswith("category"))
    # no index was built: both fall back, which is all this test needs; the numbers start in one column
    assert lines[head + 1:head + 3] == ["  english            1       0      0      0       1",
                                        "  私生活             1       0      0      0       1"]


def test_a_negated_best_trigger_is_said_not_counted():
    reg = parse_registry(b"schema_version: 1\nskills:\n  billing:\n    path: b.md\n    priority: P1\n"
                         b"    triggers: [\xe8\xab\x8b\xe6\xb1\x82\xe6\x9b\xb8, \xe9\xa0\x98\xe5\x8f\x8e\xe6\x9b\xb8]\n",
                         Path("skills.yaml"))
    d = Router.from_registry(reg).route("請求書は不要です。領収書だけ再発行してください")
    assert (d.mode, list(d.skills)) == ("index", ["billing"])
    assert d.message.startswith('Routed to "billing": trigger "請求書" scored 100, negated: not counted (threshold 85); '
                                'evidence: the specific word "領収書"')

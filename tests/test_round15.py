"""Routing round 15 (matcher 18), judged on fresh blind cases of private
life and destructive intents for the seven benchmark registries:

- docs/formats.md §6.10 private: common words of one skill in a sentence
  about private life weigh 1 between them and name no composition; more
  words for family and home after "my", a child's age, and Japanese words
  for one's family or home put a task in private life;
- §6.11: more destroying verbs, bulk words that close a long clause, a
  status set in bulk, "bulk-"/"mass" verbs, alarms as a safeguard, skipped
  testing or approval, more Japanese verbs and 全 before a kanji noun.

Each task below is an input that routed confidently before this round (or,
for the negatives, one that must not change)."""

import pytest

from conftest import bench_router, pieces_of
from routelens.routing.safety import destructive
from routelens.text.life import private_life

REGS = ("airline-ops", "hospitality", "insurance", "newsroom", "research-lab", "retail-ops", "data-platform")


@pytest.fixture(scope="module")
def routers():
    return {name: bench_router(name) for name in REGS}


# ---------------------------------------------------------------- private life

@pytest.mark.parametrize("text, expected", [
    ("Can you translate this birthday card message for my Japanese mother-in-law?", "my Japanese mother-in-law"),
    ("Asking for my flatmate who's back on the apps", "my flatmate"),
    ("explain what a p-value is to my 15-year-old", "my 15-year-old"),
    ("my fifteen year old son", "my fifteen year old"),
    ("the supermarket near my house", "my house"),
    ("so my partner and I can finally go out", "my partner"),
    # after "our", house and partner are the business's
    ("Update our house wine list", None),
    ("Email our partner airline about the codeshare", None),
    ("夫のお弁当の献立を一週間分考えてほしい", "夫"),
    ("実家の父が釣り雑誌の購読をやめたい", "実家"),
    ("子供の夏休みの日記", "子供"),
    ("私の車の保険", "私の車"),
    # a kanji before the relative, a guest's family, a thing for children, a shop's season, our shop
    ("分母を計算して", None),
    ("工夫してください", None),
    ("ご家族のお客様の予約", None),
    ("子供用の椅子を3つ", None),
    ("母の日のギフトキャンペーン", None),
    ("うちの店の予約", None),
])
def test_private_life(text, expected):
    assert private_life(text) == expected


@pytest.mark.parametrize("reg, task", [
    ("airline-ops", "What's the fuel price at the supermarket near my house compared with the motorway services?"),
    ("airline-ops", "We're redoing the spare room at home and my partner wants a dashboard on the wall, a little screen "
                    "with bin days, the weather and the kids' after-school clubs. Which tablet would work best for that?"),
    ("hospitality", "夫のお弁当の献立を一週間分考えてほしい"),
    ("insurance", "Heave and subsidence: my daughter's geography homework asks for the difference, can you explain it "
                  "simply?"),
    ("insurance", "Red flags on a first date? Asking for my flatmate who's back on the apps."),
    ("newsroom", "Can you translate this birthday card message for my Japanese mother-in-law?"),
    ("newsroom", "子供の夏休みの日記に見出しをつけたいので、案を出してほしい"),
    ("newsroom", "実家の父が釣り雑誌の購読をやめたいと言っています。解約の電話番号を一緒に探して"),
    ("research-lab", "Booking a babysitter for Saturday so my partner and I can finally go out, which apps are any good?"),
    ("retail-ops", "My dad's hearing aid is still under warranty, how does he get it repaired at the optician?"),
    ("retail-ops", "My brother is moving to Osaka next month and wants to ship a container of his furniture; he asked me "
                   "how long customs usually takes for household goods and whether he'll pay duty on his own sofa."),
])
def test_private_life_falls_back(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "weak_evidence", [])


def test_common_words_of_one_skill_weigh_one_between_them(routers):
    d = routers["retail-ops"].route("My dad's hearing aid is still under warranty, how does he get it repaired at "
                                    "the optician?")
    said = ', in a sentence about private life ("My dad\'s")'
    assert pieces_of(d, "warranty-repairs") == [
        ("trigger", 1, 'the fairly common word "warranty" (Zipf 3.7)' + said),
        ("trigger", 0, 'the everyday word "repair" (Zipf 4.4), inflection' + said)]


def test_a_phrase_a_request_asks_for_still_adds_up(routers):
    # the booking's object is the skill's own instrument: work, though the week is a holiday
    d = routers["research-lab"].route("Booking the plate reader for my personal holiday week")
    assert (d.mode, d.reason, list(d.skills)) == ("index", "clear_candidate", ["equipment-booking"])
    assert [p[1] for p in pieces_of(d, "equipment-booking")] == [1, 1]


@pytest.mark.parametrize("reg, task, skill", [
    ("insurance", "My customer's van was written off in the M62 crash; please work out the pre-accident value and the "
                  "salvage category", "motor-total-loss"),
    ("research-lab", "My student's RNA-seq run is back; please set up the DESeq2 differential expression analysis",
     "rnaseq-analysis"),
    ("newsroom", "私の記事に誤りがありました。訂正記事を出してください", "corrections"),
    ("research-lab", "うちのグループの科研費の申請書を一緒に書いてください", "grant-writing"),
    ("hospitality", "うちの店の口コミに低評価がついたので、レビュー返信の文面を考えてください", "review-replies"),
])
def test_work_said_with_my_still_routes(routers, reg, task, skill):
    d = routers[reg].route(task)
    assert (d.mode, list(d.skills)) == ("index", [skill])


# ---------------------------------------------------------------- destructive intents

@pytest.mark.parametrize("task, spans", [
    ("Void every e-ticket issued on the KIX-HNL route since Monday", [(0, 10, "Void every")]),
    ("Hand back all our airport slots at HND for the winter season", [(0, 13, "Hand back all")]),
    ("Delete last year's timesheets and clock-ins, the lot, so payroll starts clean",
     [(0, 52, "Delete last year's timesheets and clock-ins, the lot")]),
    ("Turn off the fridge alarm on the walk-in units for good, they keep beeping",
     [(0, 25, "Turn off the fridge alarm")]),
    ("Apply a 30% base rate change to every product in the rating engine and release it today without testing",
     [(88, 103, "without testing")]),
    ("Mark all samples in the LIMS as destroyed and free up the box positions in one go",
     [(0, 41, "Mark all samples in the LIMS as destroyed")]),
    ("Cull the entire mouse colony for the Tg2576 line, the project is closing", [(0, 15, "Cull the entire")]),
    ("Overwrite the product attributes in the PIM for the entire catalogue with the supplier's spreadsheet",
     [(0, 58, "Overwrite the product attributes in the PIM for the entire")]),
    ("Close every open Zendesk ticket older than a week as solved without replying", [(0, 11, "Close every")]),
    ("bulk-delete the old drafts", [(0, 11, "bulk-delete")]),
    ("Evict every tenant in block C", [(0, 11, "Evict every")]),
    ("全店舗のギフトカードと商品券を一括で無効化してください", [(15, 21, "一括で無効化")]),
    ("アクセス権を全員分一括で剥奪してください", [(6, 14, "全員分一括で剥奪")]),
    ("全乗務員の乗務割をリセットして一から作り直してください", [(0, 13, "全乗務員の乗務割をリセット")]),
    ("JA802Aの整備記録を全て新しいデータで上書きしてください", [(12, 24, "全て新しいデータで上書き")]),
    ("過去記事を一括で非公開にしてください", [(5, 11, "一括で非公開")]),
    ("反社チェックを全件解除して、保険金支払をそのまま進めてください", [(7, 11, "全件解除")]),
    ("全会員のポイントを一括で失効させてください", [(9, 14, "一括で失効")]),
    # not destructive: a bulk word seven words on, a period of the books, a statement, one thing
    ("remove the blank line at the very top of each section", []),
    ("close the month for all three entities", []),
    ("Close out the books for every branch", []),
    ("All the flights were cancelled because of the fog", []),
    ("全部終わったら古いログを削除して", []),
    ("Void the duplicate line the server rang through twice on the till", []),
    ("Decline the card payment for table 4", []),
])
def test_destructive_intents(task, spans):
    assert destructive(task) == spans


@pytest.mark.parametrize("reg, task", [
    ("airline-ops", "Downgrade all elite status members who missed tier qualification, en masse"),
    ("airline-ops", "Close every open WorldTracer file older than 21 days as lost and settle the lot"),
    ("airline-ops", "Withdraw all our published fares from ATPCO for the whole Asia region"),
    ("hospitality", "Void all the gift cards and vouchers we sold before 2024, the old scheme is finished"),
    ("insurance", "Decline every open escape of water claim older than 90 days and close them"),
    ("insurance", "反社チェックを全件解除して、保険金支払をそのまま進めてください"),
    ("research-lab", "Withdraw all our preprints from bioRxiv, the lot"),
    ("research-lab", "すべてのフリーザーの温度アラームを無効化しておいて"),
    ("retail-ops", "Retire every SKU that hasn't sold in 12 months and pull their Amazon listings too"),
    ("retail-ops", "Write off the balances on all gift cards and store credit issued before 2023"),
    ("retail-ops", "Reject the pending warranty claims en masse for the old rice cooker model"),
    ("data-platform", "アクセス権を全員分一括で剥奪してください"),
])
def test_destructive_requests_fall_back(routers, reg, task):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, list(d.skills)) == ("full", "high_risk", [])

"""Routing round 20 (matcher 28): one everyday word in a clause of its own
that nothing asks for there is the scene of the best candidate's work, not a
rival, when that candidate keeps 2 or more of its own (docs/formats.md §6.3
step 9). Each trap below fell back ``ambiguous`` before this round (labelled
cases of the shipped sets); each control decides as it did: a request in the
word's clause, a word that adds an ask ("also"), an "and" opening a clause
whose subject holds the word, or a composition holding both keeps it a
rival."""

import pytest

from conftest import bench_router
from routelens.routing.several import adds_ask

SCENE = "not selected: an everyday word only, in a clause of its own that asks nothing of it, next to the evidence for "


@pytest.fixture(scope="module")
def routers():
    return {name: bench_router(name) for name in ("hospitality", "airline-ops", "retail-ops", "research-lab")}


@pytest.mark.parametrize("reg, task, selected, scene", [
    ("hospitality", "Fill in the accident book for Sam - he burnt his forearm on the salamander while plating for "
     "table 12.", "staff-accidents", "table-management"),
    ("hospitality", "Fill in the accident book for Sam - he burnt his forearm at table 12", "staff-accidents",
     "table-management"),
    ("hospitality", "Group booking for 15 on Saturday, they want a set menu and the back room", "private-events",
     None),
    ("airline-ops", "Recalculate the load sheet for ZN331 after the 14 extra bags and a late cargo pallet",
     "weight-balance", None),
    ("airline-ops", "重量重心の計算をやり直してください、貨物が200kg増えました", "weight-balance", None),
    ("retail-ops", "Customer on order UK-40417 changed her mind about the oak tray, please raise an RMA",
     "returns-rma", None),
    ("retail-ops", "Rakuten の商品ページ, main image is cropped - fix it in RMS", "rakuten-listings",
     "product-photography"),
])
def test_an_everyday_word_only_mentioned_apart_is_the_scene(routers, reg, task, selected, scene):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, d.skills) == ("index", "clear_candidate", (selected,))
    if scene is not None:
        why = {c["id"]: c["why"] for c in d.to_dict()["evidence"]}
        assert why[scene] == SCENE + f'"{selected}"'


@pytest.mark.parametrize("reg, task, mode, reason, skills", [
    # a word that adds an ask between them: still two asks the task does not tell apart
    ("hospitality", "Fill in the accident book for Sam - he burnt his forearm on the salamander, also table 12 please",
     "full", "ambiguous", ()),
    ("airline-ops", "Recalculate the load sheet for ZN331, and also book the cargo pallet", "full", "ambiguous", ()),
    # an "and" opening a clause whose subject holds the word: a need of its own, stated
    ("airline-ops", "Recalculate the load sheet for ZN331 and the cargo pallet is late", "full", "ambiguous", ()),
    ("research-lab", "The final report for the BBSRC grant is due and the budget doesn't add up.", "full",
     "ambiguous", ()),
    # a request in the word's clause asks for it: two needs, both selected
    ("hospitality", "Fill in the accident book for Sam - he burnt his forearm on the salamander; please move table 12",
     "index", "multi_need", ("staff-accidents", "table-management")),
])
def test_controls_keep_their_decision(routers, reg, task, mode, reason, skills):
    d = routers[reg].route(task)
    assert (d.mode, d.reason, d.skills) == (mode, reason, skills)


@pytest.mark.parametrize("text, start, end, expected", [
    ("Book the van, also the crane", 12, 28, True),
    ("Pay the claim. Separately, the customer wants to complain", 14, 58, True),
    ("返金してください。あと在庫も確認して", 9, 18, True),
    ("Fill in the accident book for Sam - he burnt his forearm", 25, 56, False),
    # only the text between the two triggers counts
    ("also book the van and the crane", 5, 31, False),
])
def test_adds_ask(text, start, end, expected):
    assert adds_ask(text, start, end) is expected

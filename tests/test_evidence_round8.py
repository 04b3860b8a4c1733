"""Routing round 8 (matcher 11): two candidates weighed against each other
("A or B?") fall back `ambiguous` whatever their weights (docs/formats.md
§6.3 step 8). Each failing input seen on a blind registry is kept here in a
registry of the same shape."""

import pytest

from routelens.registry.load import parse_registry
from routelens.routing.router import Router

REGISTRY = b"""schema_version: 1
skills:
  uk-vat:
    path: skills/uk-vat.md
    priority: P1
    triggers: [VAT, VAT return, HMRC]
    description: UK VAT rates, returns and HMRC filings
  jp-consumption-tax:
    path: skills/jp-consumption-tax.md
    priority: P1
    triggers: [consumption tax, invoice system, \xe6\xb6\x88\xe8\xb2\xbb\xe7\xa8\x8e]
    description: Japanese consumption tax on orders and the invoice system
  sale-events:
    path: skills/sale-events.md
    priority: P1
    triggers: [Black Friday sale, sale event, clearance sale]
    description: Plan dates and stock for a sale event
  promo-codes:
    path: skills/promo-codes.md
    priority: P1
    triggers: [promo code, discount code, coupon]
    description: Create and fix promo codes and coupons
  warranty-repairs:
    path: skills/warranty-repairs.md
    priority: P1
    triggers: [warranty repair, \xe4\xbf\x9d\xe8\xa8\xbc\xe4\xbf\xae\xe7\x90\x86, \xe5\x88\x9d\xe6\x9c\x9f\xe4\xb8\x8d\xe8\x89\xaf]
    description: Send a faulty item for warranty repair
  exchanges:
    path: skills/exchanges.md
    priority: P1
    triggers: [exchange, \xe4\xba\xa4\xe6\x8f\x9b]
    description: Exchange an item for another size, colour or a new one
composition:
  seasonal-sale:
    - sale-events
    - promo-codes
"""


@pytest.fixture(scope="module")
def router():
    return Router.from_registry(parse_registry(REGISTRY, "skills.yaml"))


@pytest.mark.parametrize("task, first, second, word", [
    # an acronym weighing 1 next to a phrase was incidental: the phrase's skill was routed
    ("VAT or consumption tax on a UK order shipped to Tokyo?", "uk-vat", "jp-consumption-tax", "or"),
    # two members of one composition weighed against each other: not the composition
    ("Should the teapot go in the Black Friday sale or get its own promo code?", "sale-events", "promo-codes", "or"),
    ("Black Friday sale vs a discount code for the teapot?", "sale-events", "promo-codes", "vs"),
    # "AかBか": the rare 初期不良 stands between; the alternative reaches to the next skill's word
    ("このケースは保証修理か初期不良の交換か判断してください", "warranty-repairs", "exchanges", "か"),
    ("消費税またはVATの設定を確認してください", "jp-consumption-tax", "uk-vat", "または"),
])
def test_alternatives_fall_back_ambiguous(router, task, first, second, word):
    d = router.route(task)
    assert (d.mode, d.reason, d.skills, d.composition) == ("full", "ambiguous", (), None)
    assert d.message.startswith(f'Fell back to the full registry: "{first}" and "{second}" are weighed against '
                                f'each other ("{word}") (')
    whys = {c.id: c.why for c in d.evidence}
    assert whys[first] == f'not selected: ambiguous with "{second}"'
    assert whys[second] == f'not selected: ambiguous with "{first}"'


@pytest.mark.parametrize("task, mode, reason, skills, composition", [
    # "or not" offers no alternative between two skills
    ("Check whether the VAT return is due or not, and the HMRC deadline", "index", "clear_candidate",
     ("uk-vat",), None),
    # "or" between two words of the same skill
    ("Fix the promo code or the coupon for the VIP list", "index", "clear_candidate", ("promo-codes",), None),
    # "or" with no other skill's word after it
    ("Check the VAT return for errors or typos", "index", "clear_candidate", ("uk-vat",), None),
])
def test_no_alternatives(router, task, mode, reason, skills, composition):
    d = router.route(task)
    assert (d.mode, d.reason, d.skills, d.composition) == (mode, reason, skills, composition)


def test_without_or_the_composition_is_chosen(router):
    d = router.route("Plan the Black Friday sale and the promo code for it")
    assert (d.mode, d.reason, d.skills, d.composition) == (
        "index", "clear_candidate", ("sale-events", "promo-codes"), "seasonal-sale")


# --------------------------------------------------------------------------- a noun opens no request

from routelens.routing.signals import asks  # noqa: E402
from routelens.text.verbs import never_a_verb  # noqa: E402


@pytest.mark.parametrize("word, expected", [
    ("restaurant", True), ("Restaurants", True), ("revision", True), ("timetable", True), ("customer", True),
    ("booking", False),   # a noun, and the -ing form of "book"
    ("book", False), ("review", False), ("draft", False), ("deploy", False), ("reconcile", False),
    ("refactor", False),  # unknown to WordNet: may be a verb
    ("triage", True),     # a noun to WordNet; a request only before a determiner (below)
])
def test_never_a_verb(word, expected):
    assert never_a_verb(word) is expected


@pytest.mark.parametrize("task, expected", [
    ("Restaurant booking in Gion for six people on Saturday night", []),
    ("Revision timetable for my son's GCSEs in May", []),
    ("Customer on order UK-40417 changed her mind", []),
    ("Booking flights for the Kyoto team", [(0, 15, "Booking")]),
    # work in progress, then a question of its own: the work is asked for; a question alone is not
    ("Deploying the footer hotfix now, anything I should watch?", [(0, 31, "Deploying")]),
    ("Deploying the footer hotfix now?", []),
    ("Deploy the footer hotfix, anything I should watch?", []),
    # a Japanese word between spaces in an English request's object; glued to a Latin word it is Japanese
    ("Can you do the 棚卸 for aisle C tonight?", [(8, 17, "do")]),
    ("このPRレビューをお願いします。dbtの変更です", [(0, 15, "お願いします")]),
    ("triage the crash in level 3", [(0, 16, "triage")]),
    ("Book a table for six", [(0, 12, "Book")]),
])
def test_a_noun_opening_a_clause_is_no_request_verb(task, expected):
    assert asks(task) == expected


BOOKING = b"""schema_version: 1
skills:
  equipment-booking:
    path: skills/equipment-booking.md
    priority: P1
    triggers: [booking, equipment booking, book the microscope]
    description: Book shared lab equipment (microscopes, plate readers, the FACS)
  grant-writing:
    path: skills/grant-writing.md
    priority: P1
    triggers: [grant application, revision]
    description: Write and revise grant applications
"""


@pytest.mark.parametrize("task, reason, skills", [
    ("Restaurant booking in Gion for six people on Saturday night", "weak_evidence", ()),
    ("Revision timetable for my son's GCSEs in May", "weak_evidence", ()),
    ("Can you check the booking for Friday", "clear_candidate", ("equipment-booking",)),
    # a generic verb and the word, nothing else: underspecified
    ("check the booking", "weak_evidence", ()),
    ("Can you please fix the booking?", "weak_evidence", ()),
    ("cancel the booking", "clear_candidate", ("equipment-booking",)),
])
def test_noun_phrase_word_sense_traps_fall_back(task, reason, skills):
    d = Router.from_registry(parse_registry(BOOKING, "skills.yaml")).route(task)
    assert (d.reason, d.skills) == (reason, skills)


# --------------------------------------------------------------------------- a disabled skill the task means

SHOPS = """schema_version: 1
skills:
  rakuten-listings:
    path: skills/rakuten-listings.md
    priority: P1
    triggers: [Rakuten listing, 楽天, 商品ページ]
    description: Create and fix product pages on Rakuten Ichiba
  yahoo-shopping:
    path: skills/yahoo-shopping.md
    priority: P2
    status: disabled
    triggers: [Yahoo!ショッピング, Yahoo Shopping]
    description: Listings on Yahoo! Shopping (we left the marketplace in 2025)
""".encode("utf-8")


@pytest.mark.parametrize("task, reason, skills", [
    ("Yahoo!ショッピングの商品ページを更新してください", "disabled_skill", ()),
    ("楽天の商品ページを更新してください", "clear_candidate", ("rakuten-listings",)),
])
def test_a_disabled_skill_with_as_much_evidence_is_not_replaced(task, reason, skills):
    d = Router.from_registry(parse_registry(SHOPS, "skills.yaml")).route(task)
    assert (d.reason, d.skills, d.dropped) == (
        reason, skills, (("yahoo-shopping", "disabled"),) if reason == "disabled_skill" else ())
    if reason == "disabled_skill":
        assert d.message == ('Fell back to the full registry: the disabled "yahoo-shopping" has at least as much '
                             'evidence as "rakuten-listings" ("yahoo-shopping": the phrase "Yahoo!ショッピング"; '
                             '"rakuten-listings": the specific word "商品ページ" (rare in everyday language)): the '
                             'task may mean the disabled skill; '
                             'dropped disabled "yahoo-shopping"')


# --------------------------------------------------------------------------- a negated trigger is negative evidence

LAUNCH = b"""schema_version: 1
skills:
  product-photography:
    path: skills/product-photography.md
    priority: P1
    triggers: [photoshoot, product photos, images]
    description: Plan a product photoshoot and deliver the images
  product-copy:
    path: skills/product-copy.md
    priority: P1
    triggers: [product description, product copy]
    description: Write product descriptions and bullet points
  supplier-portal:
    path: skills/supplier-portal.md
    priority: P2
    triggers: [supplier portal]
    description: Supplier portal access and supplier uploads
composition:
  product-launch:
    - product-photography
    - product-copy
"""


@pytest.mark.parametrize("task, reason, skills, composition", [
    # "images" stood for the negated photoshoot's skill: the composition of both was chosen
    ("Skip the photoshoot, we'll reuse the supplier images; just write the product description",
     "clear_candidate", ("product-copy",), None),
    # a strong trigger of it outside the negation still counts
    ("No photoshoot this week; send the product photos we have and write the product description",
     "clear_candidate", ("product-photography", "product-copy"), "product-launch"),
])
def test_a_negated_trigger_is_negative_evidence(task, reason, skills, composition):
    d = Router.from_registry(parse_registry(LAUNCH, "skills.yaml")).route(task)
    assert (d.reason, d.skills, d.composition) == (reason, skills, composition)
    if composition is None:
        photo = next(c for c in d.evidence if c.id == "product-photography")
        assert [(p.kind, p.text, p.weight) for p in photo.pieces] == [
            ("negated", "photoshoot", 0), ("trigger", "images", 0), ("context", "supplier", 0)]
        assert photo.pieces[1].detail.endswith(", beside its negated trigger")


# --------------------------------------------------------------------------- Japanese: the clause a negation makes way for

RETURNS = """schema_version: 1
skills:
  refunds:
    path: skills/refunds.md
    priority: P0
    triggers: [refund, 返金]
    description: Refund an order in full or in part
  exchanges:
    path: skills/exchanges.md
    priority: P1
    triggers: [exchange, 交換]
    description: Exchange an item for another size, colour or a new one
  email-campaigns:
    path: skills/email-campaigns.md
    priority: P2
    triggers: [newsletter, メルマガ]
    description: Write and schedule email campaigns
  promo-codes:
    path: skills/promo-codes.md
    priority: P1
    triggers: [promo code, クーポン]
    description: Create and fix promo codes and coupons
""".encode("utf-8")


@pytest.mark.parametrize("task, reason, skills, ask", [
    ("返金はしないで、交換で対応してください", "clear_candidate", ("exchanges",),
     'the task asks for it instead ("てください", after the negated "返金")'),
    ("メルマガは不要です。クーポンだけ作成してください", "clear_candidate", ("promo-codes",),
     'the task asks for it instead ("てください", after the negated "メルマガ")'),
    # a wish makes way for nothing: no request ends the next clause
    ("返金はしないで、交換したい", "weak_evidence", (), None),
    # no negated trigger of another skill before it
    ("交換で対応してください", "weak_evidence", (), None),
])
def test_japanese_clause_after_a_negation_is_asked_for(task, reason, skills, ask):
    d = Router.from_registry(parse_registry(RETURNS, "skills.yaml")).route(task)
    assert (d.reason, d.skills) == (reason, skills)
    got = [p.detail for c in d.evidence for p in c.pieces if p.kind == "ask"]
    assert got == ([ask] if ask else [])


def test_a_disabled_skill_that_repeats_the_live_ones_triggers_changes_nothing():
    """A skill replaced by another often stays, disabled, with the same triggers: the task means the live one."""
    reg = parse_registry(b"""schema_version: 1
skills:
  deploy:
    path: skills/deploy.md
    priority: P0
    triggers: [deploy pipeline, release train]
  legacy-deploy:
    path: skills/legacy-deploy.md
    priority: P2
    status: disabled
    triggers: [deploy pipeline]
""", "skills.yaml")
    d = Router.from_registry(reg).route("run the deploy pipeline for the api")
    assert (d.reason, d.skills, d.dropped) == ("clear_candidate", ("deploy",), (("legacy-deploy", "disabled"),))


def test_a_stale_index_names_the_best_evidenced_candidate(tmp_path):
    """A second newcomer's trial: with a stale index the fallback named the first of the skills sharing an
    everyday word at score 100 (by id), not the skill whose phrase the task holds."""
    from routelens.artifacts.write import write_generated
    from routelens.registry.load import load_registry
    p = tmp_path / "skills.yaml"
    p.write_text("schema_version: 1\nskills:\n"
                 "  aa-release:\n    path: a.md\n    priority: P2\n    triggers: [release]\n"
                 "  ab-release:\n    path: b.md\n    priority: P2\n    triggers: [release]\n"
                 "  zz-cache:\n    path: z.md\n    priority: P2\n    triggers: [release cache]\n", encoding="utf-8")
    write_generated(load_registry(p), tmp_path / "generated")
    p.write_text(p.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")  # the index is stale now
    d = Router.from_paths(p).route("please help with release cache today")
    assert (d.mode, d.reason) == ("full", "index_stale")
    assert d.message.endswith('. Best candidate: "zz-cache" scored 100 via "release cache"')
    assert d.named()[:1] == ("zz-cache",)

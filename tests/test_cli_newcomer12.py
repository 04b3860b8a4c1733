"""A newcomer's trial of round 10 (a vet clinic's registry): what `route`
says when no fix can be proposed although a trigger matched."""

from pathlib import Path

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.registry.load import load_registry

VET = """schema_version: 1
skills:
  appointment-booking:
    path: skills/appointment-booking.md
    priority: P1
    triggers: [予約, book an appointment]
    description: Book, move or cancel a pet's appointment
  prescription-refill:
    path: skills/prescription-refill.md
    priority: P1
    triggers: [prescription refill]
    description: Refill a pet's repeat prescription
"""


def test_the_newcomers_japanese_booking_request_routes(tmp_path: Path, capsys):
    reg = tmp_path / "skills.yaml"
    reg.write_text(VET, encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    assert main(["route", "ベラの予約を来週の火曜日に入れて", "--registry", str(reg)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == "reason:   clear_candidate"


def test_no_fix_when_the_matched_words_are_triggers_already(tmp_path: Path, capsys):
    reg = tmp_path / "skills.yaml"
    reg.write_text(VET, encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    # (the newcomer's "ベラの予約を来週の火曜日に入れて" routes since round 12: a Japanese request for 予約 as its object)
    assert main(["route", "ベラの予約は来週の火曜日です", "--registry", str(reg)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[1] == "reason:   weak_evidence"
    # it said "no skill came close enough" right under a match scoring 100
    assert out[-1] == ("fixes: none found: the words that matched are triggers already, and the task has no longer "
                       "phrase around them to propose; if it is work for one of your skills, add a trigger that says "
                       "this work to that skill, then `routelens build`; a sentence that asks no work of this registry "
                       "is right to fall back")


def test_check_says_a_hand_edited_range_was_edited(tmp_path: Path, capsys):
    """It said "1 entry only moved to other lines (lines above it were added or removed ...)" of a range
    edited by hand in routing.min.json, under its own first line calling the file hand-edited."""
    reg = tmp_path / "skills.yaml"
    reg.write_text(VET, encoding="utf-8")
    write_generated(load_registry(reg), tmp_path / "generated")
    index = tmp_path / "generated" / "routing.min.json"
    text = index.read_text(encoding="utf-8")
    assert '["appointment-booking",3,7,' in text
    index.write_text(text.replace('["appointment-booking",3,7,', '["appointment-booking",4,7,'), encoding="utf-8")
    assert main(["check", "--registry", str(reg)]) == 1
    err = capsys.readouterr().err.splitlines()
    assert err[-1] == ("routelens check: Since the build: 1 entry with other line ranges than the registry gives (the "
                       "registry did not change: the generated file was edited). Run `routelens build`.")


def test_lint_warns_of_a_skill_whose_japanese_triggers_are_all_everyday_words(tmp_path: Path, capsys):
    """The newcomer's 予約 and ワクチン never routed a Japanese task on their own, and nothing said so."""
    reg = tmp_path / "skills.yaml"
    reg.write_text(VET + """  front-desk:
    path: skills/front-desk.md
    priority: P2
    triggers: [reception, phone]
    description: Answer the phone at reception
""", encoding="utf-8")
    (tmp_path / "skills").mkdir()
    for sid in ("appointment-booking", "prescription-refill", "front-desk"):
        (tmp_path / "skills" / f"{sid}.md").write_text(f"# {sid}\n", encoding="utf-8")
    assert main(["lint", "--registry", str(reg)]) == 0
    out = [line for line in capsys.readouterr().out.splitlines() if "everyday-triggers-only" in line]
    assert out == [
        # "each", not "every": a sixth newcomer with English phrase triggers beside 'ボランティア' read "every" as wrong
        f"{reg}:6:5: warning: skills.appointment-booking.triggers: each trigger of appointment-booking written "
        "without spaces (Japanese, Chinese ...) is one everyday word ('予約'): one alone is weak evidence, so a "
        "task saying only it falls back weak_evidence unless another word of the skill's domain stands in it; add "
        "a phrase trigger (two content words: 'table booking', 予約変更) or a rarer word [everyday-triggers-only]",
        f"{reg}:16:5: warning: skills.front-desk.triggers: every trigger of front-desk is one everyday word "
        "('reception', 'phone'): one alone is weak evidence, so a task saying only it falls back weak_evidence "
        "unless another word of the skill's domain stands in it; add a phrase trigger (two content words: 'table "
        "booking', 予約変更) or a rarer word [everyday-triggers-only]"]


def test_accents_are_folded_on_latin_letters_only():
    """The newcomer's "CAFE MENU" scored below 60 against `café menu` ("no trigger scored 60 or more")."""
    from routelens.registry.load import parse_registry
    from routelens.routing.router import Router
    from routelens.text.unicode import normalize_text
    assert [normalize_text(w) for w in ("Café", "ZÜRICH", "Ｃａｆé", "naïve", "ガギグ", "ø", "ﾊﾟｽ")] == [
        "cafe", "zurich", "cafe", "naive", "ガギグ", "ø", "パス"]
    r = Router.from_registry(parse_registry("""schema_version: 1
skills:
  cafe-menu:
    path: skills/cafe-menu.md
    priority: P1
    triggers: [café menu, crème brûlée]
    description: Write the café's menu and its dessert cards
""".encode(), Path("skills.yaml")))
    for task in ("update the CAFE MENU for spring", "add creme brulee to the dessert card", "update the café menu"):
        d = r.route(task)
        assert (d.mode, d.skills, d.matches[0].score) == ("index", ("cafe-menu",), 100.0), task

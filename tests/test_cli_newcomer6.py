"""A newcomer's findings in the CLI and its tools, each with the input that
failed: junk triggers proposed by ``suggest`` and route's fixes, ``suggest``
without the common options, ``--demo`` writing the bundled example,
``explain``'s reason for a score of 0, lint's shadowed-trigger warning that
ignored ``not_when``, and smaller wording faults."""

from __future__ import annotations

from pathlib import Path

import pytest

from routelens.artifacts.write import write_generated
from routelens.cli import main
from routelens.registry import load_registry
from routelens.routing.router import Router
from routelens.tools.fixes import fixes_for
from routelens.tools.evaluate import load_cases
from routelens.tools.suggest import (
    candidate_phrases, misspelling_of, proper_trigger, respell, spelled_words, suggest,
)
from routelens.registry.load import read_registry_bytes

PHOTO = """\
schema_version: 1
skills:
  photo-culling:
    path: skills/photo-culling.md
    priority: P1
    triggers: [cull the shoot, pick the keepers, reject blurry frames]
    description: Cull a photo shoot down to the keepers
  color-grading:
    path: skills/color-grading.md
    priority: P1
    triggers: [color grade, colour grade, apply a film look]
    not_when: [video color grade]
    description: Colour grade a set of still photos
  video-edit:
    path: skills/video-edit.md
    priority: P1
    triggers: [video color grade, cut the video, edit the reel]
    description: Edit and grade wedding video footage
  card-backup:
    path: skills/card-backup.md
    priority: P1
    triggers: [back up memory cards, copy the cards, offload cards]
    description: Back up memory cards before they are wiped
  client-gallery:
    path: skills/client-gallery.md
    priority: P2
    triggers: [client gallery, upload the gallery]
    description: Publish a client gallery online
composition:
  wedding-delivery: [photo-culling, color-grading, client-gallery]
"""

PHOTO_CASES = """\
cases:
  - task: my cards are full, copy them before I wipe
    expect: [card-backup]
  - task: cull the shoot from saturday
    expect: [photo-culling]
  - task: tell them before you leave
    must_fallback: true
  - task: colour grade the beach set
    expect: [color-grading]
"""


def photo_registry(folder: Path, extra: str = "") -> Path:
    """The newcomer's photography registry in ``folder`` (built), with
    ``extra`` appended; card-backup's body says "them before"."""
    (folder / "skills").mkdir(parents=True)
    for sid in ("photo-culling", "color-grading", "video-edit", "card-backup", "client-gallery"):
        (folder / "skills" / f"{sid}.md").write_text(f"# {sid}\n")
    (folder / "skills" / "card-backup.md").write_text(
        "# card-backup\n\nCopy every card to two drives and verify them before anyone wipes them.\n")
    reg = folder / "skills.yaml"
    reg.write_text(PHOTO + extra)
    write_generated(load_registry(reg), folder / "generated")
    return reg


# --------------------------------------------------------------------------- 1. junk triggers


def test_candidate_phrases_never_start_or_end_with_a_function_word():
    # before: 'copy them', 'them before' and 'grde the set' were candidates
    assert [p.text for p in candidate_phrases("my cards are full, copy them before I wipe")] == [
        "cards", "cards are full", "full", "copy", "wipe"]
    assert [p.text for p in candidate_phrases("tell them before you leave")] == ["tell", "leave"]
    assert [p.text for p in candidate_phrases("need to colour grde the set")] == ["colour", "colour grde", "grde"]


def test_proper_trigger_and_respelling():
    assert [proper_trigger(t) for t in ("them before", "copy them", "grde the set", "the", "copy the cards",
                                        "バグ報告")] == [False, False, False, False, True, True]
    spelled = spelled_words(["color grade", "colour grade", "apply a film look"], "color-grading")
    assert spelled == frozenset({"color", "colour", "grade", "apply", "film", "look", "grading"})
    assert misspelling_of("grde", spelled) == "grade"
    assert misspelling_of("grades", spelled) is None  # an inflection, spelled right
    assert misspelling_of("carts", frozenset({"cards"})) is None  # a real word (Zipf 3.9), no typo
    assert misspelling_of("reveiw", frozenset({"review"})) == "review"
    assert respell("colour grde the set", spelled) == "colour grade the set"
    assert respell("need grde", frozenset()) == "need grde"


def test_suggest_proposes_no_phrase_ending_with_a_function_word(tmp_path):
    reg_path = photo_registry(tmp_path)
    (tmp_path / "cases.yaml").write_text(PHOTO_CASES)
    rep = suggest(load_registry(reg_path), read_registry_bytes(reg_path), load_cases(tmp_path / "cases.yaml"))
    # before: 'copy them' was proposed for card-backup ("no labelled case worse")
    assert [(s.skill, s.trigger) for s in rep.suggestions] == []
    assert [r.case.line for r in rep.unresolved] == [2]


def test_route_fixes_never_enshrine_a_typo(tmp_path):
    reg_path = photo_registry(tmp_path, "routing:\n  threshold: 96\n")
    reg = load_registry(reg_path)
    router = Router.from_registry(reg)
    d = router.route("need to colour grde the set")
    assert d.reason == "no_match"
    # before: 'colour grde the set', 'colour grde' and 'grde the set' were offered
    assert [(f.kind, f.skill, f.edit.value) for f in fixes_for(d, reg)] == [("threshold", None, "94")]
    # the existing spelling is proposed instead of the typo
    d = router.route("colour grde the beach portraits")
    assert [(f.kind, f.skill, f.edit.value) for f in fixes_for(d, reg)] == [
        ("add_trigger", "color-grading", "colour grade the beach"), ("threshold", None, "94")]


# --------------------------------------------------------------------------- 2. the common options


def _subparsers():
    from routelens.cli import entry

    parser = entry.build_parser()
    return parser._subparsers._group_actions[0].choices


def test_every_command_but_init_and_schema_takes_the_common_options_with_their_meaning():
    from routelens.cli.commands.common import common_options

    common = {o: a for a in common_options()._actions for o in a.option_strings if o not in ("-h", "--help")}
    assert sorted(common) == ["--demo", "--generated", "--out", "--registry"]
    without = []
    for name, p in _subparsers().items():
        own = p._option_string_actions
        if not any(o in own for o in common):
            without.append(name)
            continue
        for o, a in common.items():
            # the same option, dest, type and help: no command redefines one with another meaning
            assert o in own, (name, o)
            b = own[o]
            assert (b.dest, b.type, b.help, b.metavar, tuple(b.option_strings)) == (
                a.dest, a.type, a.help, a.metavar, tuple(a.option_strings)), (name, o)
    # schema prints the package's schema whatever the registry (a sixth newcomer's `schema --registry /nonexistent`
    # printed it and exited 0): it takes none of them, so argparse says so
    assert without == ["init", "schema"]


def test_suggest_takes_demo_and_out_is_the_generated_folder(tmp_path, capsys, monkeypatch):
    reg_path = photo_registry(tmp_path / "photo")
    cases = tmp_path / "cases.yaml"
    cases.write_text(PHOTO_CASES)
    monkeypatch.chdir(tmp_path / "photo")
    before = reg_path.read_bytes()
    # before: "unrecognized arguments: --demo" and "refusing to write generated: it is a folder"
    assert main(["--out", "generated", "suggest", str(cases)]) == 0
    assert capsys.readouterr().out.splitlines()[0] == (
        f"{cases} against skills.yaml: 1 missed, 0 wrong (coverage 66.7%, confident precision 100.0%)")
    assert main(["suggest", str(cases), "--demo"]) == 2  # the bundled example has no card-backup
    err = capsys.readouterr().err
    assert "using the bundled example registry (--demo)" in err and "unknown skill 'card-backup'" in err
    # --out names the generated folder: a file there is refused, and said to be --copy's job
    assert main(["suggest", str(cases), "--out", str(cases)]) == 2
    assert capsys.readouterr().err == (f"routelens suggest: --out {cases} names a file: --out (--generated) is the "
                                       "generated folder, which suggest never writes; the patched copy is --copy FILE\n")
    assert main(["suggest", str(cases), "--out", "gen-new"]) == 0
    assert not (tmp_path / "photo" / "gen-new").exists()  # before: a registry copy written as a FILE gen-new
    assert reg_path.read_bytes() == before
    assert "--copy FILE" in _subparsers()["suggest"].format_help()
    assert "else ./skills.yaml, else the bundled one" not in _subparsers()["suggest"].format_help()


# --------------------------------------------------------------------------- 3. --demo is read-only


def test_demo_never_writes_the_bundled_example(tmp_path, capsys, monkeypatch):
    from routelens.paths import bundled_registry, default_out_dir

    bundled = bundled_registry()
    gen = default_out_dir(bundled)
    before = {p: p.read_bytes() for p in (bundled, gen / "routing.min.json", gen / "catalog.json")}
    skill = tmp_path / "imp" / "foo"
    skill.mkdir(parents=True)
    (skill / "SKILL.md").write_text("---\nname: foo\ndescription: Foo the bar widgets carefully\n---\n# foo\n")
    monkeypatch.chdir(bundled.parent)
    # before: appended foo to the bundled skills.yaml and rebuilt its generated/
    assert main(["--demo", "import", str(tmp_path / "imp"), "--write"]) == 2
    assert capsys.readouterr().err == (
        f"routelens: --demo is read-only: import --write would write the bundled example registry ({bundled}): "
        "make a registry of your own with `routelens init` and use it without --demo\n")
    assert main(["build", "--demo"]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"routelens: --demo is read-only: build --demo would write the bundled example's generated files ({gen}); "
        "give --out DIR to write them elsewhere, or make a registry of your own with `routelens init` and use it "
        "without --demo")
    assert main(["build", "--demo", "--out", "generated"]) == 2  # the same folder, named relatively
    capsys.readouterr()
    assert {p: p.read_bytes() for p in before} == before
    # elsewhere is the user's folder
    assert main(["build", "--demo", "--out", str(tmp_path / "gen"), "-q"]) == 0
    assert sorted(p.name for p in (tmp_path / "gen").iterdir()) == ["catalog.json", "routing.min.json"]


# --------------------------------------------------------------------------- 4. explain's reason for a score of 0


def test_explain_says_no_trigger_appears_and_names_the_composition_said_in_words(tmp_path, capsys):
    reg_path = photo_registry(tmp_path)
    assert main(["explain", "wedding delivery for the Sato wedding", "--skill", "photo-culling",
                 "--registry", str(reg_path)]) == 0
    # before: 'Its best trigger "cull the shoot" scored 0 on "the" (characters 21-24), below the threshold 85
    # and below 60'
    assert capsys.readouterr().out.splitlines() == [
        'None of the triggers of "photo-culling" appears in the task, even approximately (the threshold is 85).',
        'The task names the composition "wedding-delivery", which "photo-culling" belongs to, in words: a '
        'composition is asked for by its id, so write /wedding-delivery in the task to route to it.',
        "It was not selected because none of its triggers matches a word of the task.",
        "The decision: Fell back to the full registry: no skill trigger scored 60 or more on the task, so there is "
        "no near miss (the threshold is 85).",
    ]
    # a skill of no composition named gets no such line; the asked-for composition gets none either
    assert main(["explain", "wedding delivery for the Sato wedding", "--skill", "card-backup",
                 "--registry", str(reg_path)]) == 0
    assert "composition" not in capsys.readouterr().out.splitlines()[1]
    assert main(["explain", "/wedding-delivery for the Sato wedding", "--skill", "photo-culling",
                 "--registry", str(reg_path)]) == 0
    assert capsys.readouterr().out.splitlines()[1] == (
        'It was selected as a member of composition "wedding-delivery" (mode fast, reason explicit).')


# --------------------------------------------------------------------------- 5. lint's shadowed-trigger and not_when


def test_a_containing_trigger_the_not_when_covers_is_no_shadow(tmp_path):
    from routelens.tools.lint import lint

    def shadows(reg_path: Path) -> list[tuple[str, str]]:
        return [(f.key_path, f.message) for f in lint(load_registry(reg_path)).findings
                if f.code == "shadowed-trigger"]

    # before: "trigger 'color grade' occurs inside 'video color grade', a trigger of video-edit" though
    # color-grading has `not_when: [video color grade]`
    assert shadows(photo_registry(tmp_path / "with")) == []
    # without the not_when the warning stays, word for word
    folder = tmp_path / "plain"
    reg_path = photo_registry(folder)
    reg_path.write_text(PHOTO.replace("    not_when: [video color grade]\n", ""))
    assert shadows(reg_path) == [
        ("skills.color-grading.triggers[0]", "trigger 'color grade' occurs inside 'video color grade', a trigger of "
         "video-edit: every task that says 'video color grade' also matches color-grading")]


# --------------------------------------------------------------------------- 6. smaller


def test_the_error_count_leaves_out_the_readers_stop_note(tmp_path, capsys):
    lines = ["schema_version: 1", "skills:"]
    for i in range(250):
        lines += [f"  s{i}:", "    priority: P9", "    triggers: [x]"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("\n".join(lines) + "\n")
    assert main(["check", "--registry", str(bad)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[-2].endswith(": too many errors: stopped after 200")
    # before: "bad.yaml: 201 errors" (the note counted)
    assert err[-1] == f"{bad}: 200 errors (reading stopped there: there may be more)"
    # each skill of the first hundred has two errors (its priority, its missing path): 200 listed
    assert (len([e for e in err if ": unknown priority 'P9'" in e]), len(err)) == (100, 202)


def test_an_option_of_another_command_is_named_with_its_command(tmp_path, capsys):
    reg_path = photo_registry(tmp_path)
    # before: the top-level usage, "unrecognized arguments: --theme y", and 'x' silently the task
    with pytest.raises(SystemExit) as exc:
        main(["route", "--theme", "x", "y", "--registry", str(reg_path)])
    assert exc.value.code == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("usage: routelens route ")
    # (a newcomer's trial: "--theme y ... ('x' after it was read as the task)" read as if y were the theme)
    # (and a second one's: "--theme hi (the word after --theme, 'x', ...)" listed "hi" but not "x": the words as typed)
    assert err[-1] == ("routelens route: error: unrecognized arguments: --theme x y (route read 'x', the word after "
                       "--theme, as the task); --theme is an option of the UI (routelens tui --theme ..., or routelens "
                       "--theme ...), not of route: nothing was done (routelens route --help lists its options)")
    with pytest.raises(SystemExit):
        main(["build", "--cases", "c.yaml", "--registry", str(reg_path)])
    assert capsys.readouterr().err.splitlines()[-1] == (
        "routelens build: error: unrecognized arguments: --cases c.yaml; --cases is an option of routelens tui, "
        "route and explain, not of build: nothing was done (routelens build --help lists its options)")
    # an option no command has: the command's own usage and the plain error
    with pytest.raises(SystemExit):
        main(["route", "--bogus", "x", "--registry", str(reg_path)])
    err = capsys.readouterr().err.splitlines()
    assert (err[0].startswith("usage: routelens route "), err[-1]) == (
        True, "routelens route: error: unrecognized arguments: --bogus x (route read 'x', the word after --bogus, as "
              "the task)")
    assert main(["--theme", "x", "route", "y"]) == 2
    assert capsys.readouterr().err == (
        "routelens route: unrecognized arguments: --theme; --theme is an option of the UI (routelens tui --theme ..., "
        "or routelens --theme ...), not of route: nothing was done (routelens route --help lists its options)\n")


def test_a_partial_phrase_match_is_not_called_a_typo(tmp_path):
    extra = ("  contracts:\n    path: skills/contracts.md\n    priority: P2\n"
             "    triggers: [shoot contract, model release]\n    description: Draft a photo shoot contract\n")
    folder = tmp_path / "c"
    reg_path = photo_registry(folder)
    (folder / "skills" / "contracts.md").write_text("# contracts\n")
    reg_path.write_text(PHOTO.replace("composition:\n", extra + "composition:\n") + "routing:\n  threshold: 60\n")
    router = Router.from_registry(load_registry(reg_path))
    d = router.route("draft the contract")
    assert (d.reason, d.skills) == ("weak_evidence", ())
    # before: "the only evidence is a typo of "shoot contract""
    assert d.message == ('Fell back to the full registry: the only evidence is part of the phrase "shoot contract"; '
                         "nothing else in the task is about contracts")
    assert [p.detail for c in d.evidence for p in c.pieces] == [
        "part of the phrase \"shoot contract\" (61.5, scored as a typo: 'shoot' missing)"]
    # a misspelt phrase is still a typo
    assert router.route("shoot contrat").message.startswith(
        'Routed to "contracts": trigger "shoot contract" scored 92.3 (threshold 60); evidence: the phrase "shoot '
        'contract" with a typo (92.3)')

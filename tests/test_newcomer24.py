"""A seventh newcomer's trial (an online shop's Agent Skills imported into a
registry, routing round 23's session):

- "Delete the Klaviyo newsletter list", "Wipe the stock counts ..." routed
  with full confidence: a whole list or count is a bulk object of a
  destroying verb (docs/formats.md §6.11); with them, two shipped
  destructive cases that routed, "Rebuild every incremental model from
  scratch with dbt run --full-refresh" and "retag the whole archive from
  scratch", fall back too;
- "Refund £12.50 on order 10390" fell back where "Refund 12.50 on order
  10390" routed: the currency sign cut the request's object (§6.10 ``ask``);
- two folders of one import with one name: the second was "skipped ...
  already a entry id in skills.yaml" (no registry had it) and the import
  exited 0; it is an error at the second's ``name`` now."""


import pytest

from conftest import bench_router
from routelens.routing.safety import destructive
from routelens.routing.signals import asks


@pytest.mark.parametrize("task, spans", [
    ("Delete the Klaviyo newsletter list", [(0, 34, "Delete the Klaviyo newsletter list")]),
    ("Purge the newsletter subscriber list", [(0, 36, "Purge the newsletter subscriber list")]),
    ("Wipe the stock counts and start the stocktake from zero", [(0, 21, "Wipe the stock counts")]),
    ("Rebuild every incremental model from scratch", [(0, 44, "Rebuild every incremental model from scratch")]),
    ("Reset the topic tags taxonomy and retag the whole archive from scratch",
     [(34, 70, "retag the whole archive from scratch")]),
    ("dbt run --full-refresh -s orders", [(8, 22, "--full-refresh")]),
    # one thing, or one item of a list: no destructive intent
    ("Delete the draft from the list", []),
    ("Delete the duplicate row in the list", []),
    ("Rebuild the dashboard from scratch", []),
    ("Rebuild all the charts", []),
    ("Write the whole report from scratch", []),
    ("clear the checklist", []),
])
def test_whole_lists_and_bulk_rebuilds_are_destructive(task, spans):
    assert destructive(task) == spans


@pytest.mark.parametrize("name, task", [
    ("data-platform", "Rebuild every incremental model from scratch with dbt run --full-refresh, history and all"),
    ("newsroom", "Reset the topic tags taxonomy and retag the whole archive from scratch"),
])
def test_the_shipped_destructive_cases_fall_back(name, task):
    d = bench_router(name).route(task)
    assert (d.mode, d.reason, d.skills) == ("full", "high_risk", ())


@pytest.mark.parametrize("task, span", [
    ("Refund £12.50 on order 10390", (0, 13, "Refund")),
    ("Refund $12.50 on order 10390", (0, 13, "Refund")),
    ("Refund €20 on the chipped mug", (0, 10, "Refund")),
    ("Please refund ¥2000 on the chipped mug", (7, 19, "refund")),
    ("Refund 12.50 on order 10390", (0, 12, "Refund")),  # as before
])
def test_a_sum_with_its_currency_sign_is_the_object_of_a_request(task, span):
    assert asks(task) == [span]


def test_two_folders_of_one_import_with_one_name_are_an_error(tmp_path, cli):
    for sub, desc in (("a", "Refund an order"), ("b", "Refund an order again")):
        d = tmp_path / "dup" / sub / "refund-processing"
        d.mkdir(parents=True)
        (d / "SKILL.md").write_text(f"---\nname: refund-processing\ndescription: {desc}\n---\n# Refunds\n")
    code, out, err = cli("import", "--registry", str(tmp_path / "skills.yaml"), str(tmp_path / "dup"))
    assert code == 2
    assert err.splitlines() == [
        f"{tmp_path}/dup/b/refund-processing/SKILL.md:2:7: name: name 'refund-processing' is also the name of "
        "dup/a/refund-processing/SKILL.md, proposed first: two skills cannot share an id; rename one (this one is "
        "not imported)"]
    assert f"  refund-processing  triggers proposed: review them    {tmp_path}/dup/a/refund-processing/SKILL.md" in out
    assert "already a entry id" not in out + err


def test_explain_offers_only_the_fixes_that_route_to_its_skill(tmp_path, cli, monkeypatch):
    # `explain --skill supplier-emails` offered "threshold: 61 ... routes this task to customer-faq": a setting
    # (skill None) was kept whatever it routed to
    import routelens.cli.commands.explain as explain_cmd
    from routelens.tools.fixes import Fix

    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  supplier-emails:\n    path: s.md\n    priority: P1\n"
                   "    triggers: [supplier email]\n  customer-faq:\n    path: c.md\n    priority: P2\n"
                   "    triggers: [delivery times]\n")

    def fix(kind, skill, routes):
        return Fix(kind, skill, f"{kind}: x", "skills.yaml:6", "here", f"routes this task to {routes[0]}", routes, None)

    offered = [fix("add_trigger", "supplier-emails", ("supplier-emails",)), fix("threshold", None, ("customer-faq",)),
               fix("not_when", "customer-faq", ("supplier-emails",)), fix("add_trigger", "customer-faq", ("customer-faq",))]
    assert cli("build", "--registry", str(reg))[0] == 0
    monkeypatch.setattr(explain_cmd, "fixes_of", lambda args, d: offered)
    code, out, err = cli("explain", "--registry", str(reg), "--skill", "supplier-emails", "--json",
                         "Email PackRight to chase the late delivery")
    import json
    assert code == 0 and json.loads(out)["decision"]["reason"] == "no_match"
    assert [(f["kind"], f["skill"]) for f in json.loads(out)["fixes"]] == [
        ("add_trigger", "supplier-emails"), ("not_when", "customer-faq")]


def test_replay_of_a_file_that_is_no_log_says_so_once(tmp_path, cli):
    # `routelens replay cases.yaml` printed one "not a JSON decision line" per line of the cases file (92 lines)
    cases = tmp_path / "cases.yaml"
    cases.write_text("cases:\n" + "".join(f"  - task: task {i}\n    expect: [a]\n" for i in range(40)))
    code, out, err = cli("replay", "--registry", str(tmp_path / "skills.yaml"), str(cases))
    assert code == 2
    assert err.splitlines()[0] == (f"{cases}:1:1: not a decision log: its first line is no JSON decision (Expecting "
                                   "value at column 1); `routelens route --log FILE` and `mcp --log FILE` write one")
    assert sum("not a" in line for line in err.splitlines()) == 1


BAD_CASES = """\
cases:
  - task: refund it
    expect: [nope]
  - task: chase the supplier
    expect: [also-nope]
  - expect: [customer-faq]
"""


@pytest.mark.parametrize("command", [["eval"], ["suggest"], ["route", "--cases"]])
def test_every_command_says_every_mistake_of_a_cases_file_at_once(tmp_path, cli, command):
    # eval said 3 mistakes, suggest and `route --cases` said 1 and held the unknown ids back until it was fixed
    reg = tmp_path / "skills.yaml"
    reg.write_text("schema_version: 1\nskills:\n  customer-faq:\n    path: c.md\n    priority: P2\n"
                   "    triggers: [delivery times]\n")
    assert cli("build", "--registry", str(reg))[0] == 0
    cases = tmp_path / "bad.yaml"
    cases.write_text(BAD_CASES)
    args = [*command, str(cases)] + (["Email PackRight to chase the late delivery"] if command[0] == "route" else [])
    code, out, err = cli(*args[:1], "--registry", str(reg), *args[1:])
    assert code == 2
    assert err.splitlines() == [f"{cases}:3:14: cases[0].expect[0]: unknown skill 'nope'",
                                f"{cases}:5:14: cases[1].expect[0]: unknown skill 'also-nope'",
                                f"{cases}:6:5: cases[2].task: missing",
                                f"{cases}: 3 errors; nothing was done"]

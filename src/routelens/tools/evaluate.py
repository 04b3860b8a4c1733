"""Labelled routing cases -> quality metrics (``routelens eval``, docs/formats.md §7).

A cases file (``tests/cases/routing.yaml`` is the shipped one)::

    cases:
      - task: "fix the CI pipeline"   # the request, verbatim (a string)
        expect: [ci-fix]              # acceptable skill ids (any subset is right); optional
        composition: null             # the composition the task should route to; optional
        mode: index                   # expected mode: fast | index | full; optional
        must_fallback: false          # a correct router MUST fall back to the full registry
        category: english             # free label for the per-category table

Metrics (all shares in [0, 1]):

- **confident precision**: of the decisions that did not fall back (mode
  ``fast`` or ``index``), the share that are right — the selected skills are
  a non-empty subset of ``expect`` (or the composition is the expected one),
  the mode is the expected one, and the case did not expect a fallback.
- **coverage**: of the routable cases (not expecting a fallback, with an
  ``expect`` or a ``composition``), the share routed without fallback.
- **must-fallback recall**: of the ``must_fallback`` cases, the share that
  fell back.
- **off-topic false-route rate**: of the ``offtopic`` cases, the share that
  did NOT fall back.

:data:`QUALITY_BAR` is the bar of issue 3; :attr:`EvalReport.passed` says
whether a run meets it. Nothing in this module imports Textual.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from routelens.errors import CasesError, Diagnostic, FileReadError, RegistryError
from routelens.fileio import read_bounded
from routelens.limits import LIMITS
from routelens.routing.decision import Decision
from routelens.routing.router import Router
from routelens.text.yaml_events import FALSE_WORDS, MAP, NULL_WORDS, SCALAR, SEQ, TRUE_WORDS, compose_bytes
from routelens.text.words import closest

__all__ = ["QUALITY_BAR", "Case", "CaseResult", "EvalReport", "CasesError", "load_cases", "parse_cases", "check_ids",
           "evaluate", "score"]

#: The quality bar (docs/formats.md §7.4): (metric, comparison, bound).
#: ``coverage`` counts the routable cases that hold a trigger: every
#: category but ``paraphrase`` (whose cases hold none by design).
QUALITY_BAR = {
    "precision": (">=", 0.99),
    "coverage": (">=", 0.90),
    "must_fallback_recall": (">=", 1.0),
    "offtopic_false_route_rate": ("<=", 0.0),
}

#: Categories whose cases hold no trigger on purpose: counted apart from
#: ``coverage`` (their share routed is ``paraphrase_coverage``).
PARAPHRASE = frozenset({"paraphrase"})

MODES = ("fast", "index", "full")
OFFTOPIC = frozenset({"offtopic", "off-topic", "off_topic"})


@dataclass(frozen=True)
class Case:
    """One labelled case. ``line`` is the 1-based line of its ``task``."""

    task: str
    expect: tuple[str, ...] = ()
    composition: str | None = None
    mode: str | None = None
    must_fallback: bool = False
    category: str = "uncategorised"
    line: int = 0
    #: several needs: every skill of ``expect`` must be selected, and nothing else
    expect_all: bool = False
    #: free text for people (ignored by the evaluation)
    note: str | None = None
    #: position in the file, for diagnostics (not part of equality)
    index: int = field(default=-1, compare=False, repr=False)
    file: str = field(default="<cases>", compare=False, repr=False)
    expect_at: tuple[tuple[int, int], ...] = field(default=(), compare=False, repr=False)
    composition_at: tuple[int, int] | None = field(default=None, compare=False, repr=False)

    @property
    def expects_fallback(self) -> bool:
        """True when a correct router falls back for this case."""
        return self.must_fallback or self.mode == "full" or (not self.expect and not self.composition)

    @property
    def routable(self) -> bool:
        """True when a correct router routes this case without fallback."""
        return not self.expects_fallback


@dataclass(frozen=True)
class CaseResult:
    """A case with its decision. ``outcome``: ``correct`` (routed right),
    ``wrong_route`` (routed to the wrong skill/composition/mode),
    ``false_route`` (routed although a fallback was expected),
    ``fallback_ok`` (fell back as expected), ``missed`` (a routable case
    fell back: costs coverage, not precision)."""

    case: Case
    decision: Decision
    outcome: str

    @property
    def wrong(self) -> bool:
        """True for the outcomes that count against precision or recall."""
        return self.outcome in ("wrong_route", "false_route")

    def to_dict(self) -> dict:
        """JSON-able dict: the case, its outcome, what was expected and what was decided."""
        d = self.decision
        return {
            "task": self.case.task,
            "line": self.case.line,
            "category": self.case.category,
            "outcome": self.outcome,
            "expected": {"skills": list(self.case.expect), "composition": self.case.composition,
                         "mode": self.case.mode, "must_fallback": self.case.must_fallback},
            "got": {"mode": d.mode, "reason": d.reason, "skills": list(d.skills), "composition": d.composition,
                    "message": d.message},
        }


@dataclass
class EvalReport:
    """Metrics of one run; ``categories`` maps a category to counts
    ``{"cases", "routed", "correct", "fallback", "wrong", "missed"}``."""

    results: list[CaseResult]
    precision: float
    coverage: float
    must_fallback_recall: float
    offtopic_false_route_rate: float
    counts: dict[str, int]
    categories: dict[str, dict[str, int]] = field(default_factory=dict)

    @property
    def metrics(self) -> dict[str, float]:
        """The four metrics by name (shares in [0, 1])."""
        return {
            "precision": self.precision,
            "coverage": self.coverage,
            "must_fallback_recall": self.must_fallback_recall,
            "offtopic_false_route_rate": self.offtopic_false_route_rate,
        }

    @property
    def failures(self) -> list[str]:
        """Sentences naming each metric below the :data:`QUALITY_BAR`; one
        sentence when no metric has a case behind it (every metric 0/0: no
        decision routed, no routable, ``must_fallback`` or off-topic case),
        which measures nothing and so cannot pass (docs/formats.md §7.4)."""
        c = self.counts
        if not any(c.get(k, 0) for k in ("routed", "routable", "must_fallback", "offtopic")):
            return ["nothing measured: no case is routable, must_fallback or off-topic, and none routed "
                    "(give cases `expect`, `composition`, `must_fallback: true` or `category: offtopic`)"]
        out = []
        for name, (op, bound) in QUALITY_BAR.items():
            value = self.metrics[name]
            ok = value >= bound if op == ">=" else value <= bound
            if not ok:
                out.append(f"{name} {value:.3f} is not {op} {bound}")
        return out

    @property
    def passed(self) -> bool:
        """True when every metric meets the :data:`QUALITY_BAR`."""
        return not self.failures

    @property
    def wrong(self) -> list[CaseResult]:
        """The results that count against precision or recall, in file order."""
        return [r for r in self.results if r.wrong]

    @property
    def missed(self) -> list[CaseResult]:
        """Routable cases that fell back (they cost coverage), in file order."""
        return [r for r in self.results if r.outcome == "missed"]

    def to_dict(self) -> dict:
        """The report as JSON-able dict (``routelens eval --json``)."""
        return {
            "metrics": self.metrics,
            "quality_bar": {k: [op, b] for k, (op, b) in QUALITY_BAR.items()},
            "passed": self.passed,
            "failures": self.failures,
            "counts": self.counts,
            "categories": self.categories,
            "wrong": [r.to_dict() for r in self.wrong],
            "missed": [r.to_dict() for r in self.missed],
        }


# --------------------------------------------------------------------------- loading


def parse_cases(text: str | bytes, display: str = "<cases>",
                ids: tuple[Iterable[str], Iterable[str]] | None = None) -> list[Case]:
    """Parse a cases file (its text, or its bytes). Raises :class:`CasesError`
    with every problem found (YAML syntax, a task that is a list or a
    mapping, an unknown mode, a non-boolean ``must_fallback``, ...).

    The file is read by routelens's own YAML reader, as the registry is: a
    plain scalar is the text as written (``task: 5`` is the task "5",
    ``task: 1.10`` is "1.10"), tags, duplicate keys and a second document are
    refused, and lines are counted as an editor shows them (U+2028 in a
    comment does not end a line). Ids in ``expect``/``composition`` are
    checked against a router by :func:`check_ids`; given ``ids`` (the
    registry's skill ids, composition ids), that check runs here too, on
    every case that parsed, and its errors come with the others (one
    report of all the file's mistakes, docs/formats.md §7.1)."""
    if isinstance(text, str):
        raw = text.encode("utf-8", "surrogatepass")
    else:
        raw = bytes(text)
    try:
        r, root = compose_bytes(raw, display)
    except RegistryError as exc:
        raise CasesError(exc.diagnostics) from None
    if r.errors:
        raise CasesError(sorted(r.errors, key=lambda d: (d.line, d.column)))

    def at(node) -> tuple[int, int]:
        return r.pos(node.start)

    def scalar(node):
        """(True, text or None for a plain null) for a scalar, (False, None) otherwise."""
        node = r.deref(node)
        if node.kind != SCALAR:
            return False, None
        return True, (None if node.plain and node.value in NULL_WORDS else node.value)

    cases_node = None
    if root is not None:
        root = r.deref(root)
        if root.kind == MAP:
            for k, _, v in r.mapping_pairs(root, ""):
                if k == "cases" and r.deref(v).kind == SEQ:
                    cases_node = r.deref(v)
    if cases_node is None:
        raise CasesError([Diagnostic(display, 1, 1, "cases", "expected a mapping with a `cases:` list")])
    errors: list[Diagnostic] = []
    cases: list[Case] = []
    partial: list[Case] = []  # cases with other mistakes whose ids parsed, for the ids' check
    for i, item_node in enumerate(cases_node.items):
        base = f"cases[{i}]"
        iline, icol = at(item_node)
        item_node = r.deref(item_node)
        if item_node.kind != MAP:
            errors.append(Diagnostic(display, iline, icol, base, "a case must be a mapping with a `task`"))
            continue
        pairs = list(reversed(r.mapping_pairs(item_node, base)))
        item = {k: v for k, _, v in pairs}  # the first of duplicates wins
        key_nodes = {k: kn for k, kn, _ in pairs}

        def err(key: str, message: str, node=None) -> None:
            ln, cl = at(node if node is not None else item[key]) if (node is not None or key in item) else (iline, icol)
            errors.append(Diagnostic(display, ln, cl, f"{base}.{key}" if key else base, message))

        def flag(key: str) -> bool | None:
            """The plain YAML boolean at ``key`` (absent or null: False);
            None after reporting anything else."""
            if key not in item:
                return False
            node = r.deref(item[key])
            ok, word = scalar(node)
            if ok and word is None:
                return False
            if ok and node.plain and word in TRUE_WORDS:
                return True
            if ok and node.plain and word in FALSE_WORDS:
                return False
            err(key, f"{key} must be true or false")
            return None

        typos = [(k, h) for k in item if isinstance(k, str) for h in [closest(k, CASE_KEYS, 80)] if h]
        for key, hint in typos:  # `must_falback: true` would be ignored and the case measured as something else
            err(key, f"unknown key `{key}`: did you mean `{hint}`?", key_nodes[key])
        # every field is checked, so that one run names every mistake of the case
        # (a case stopped at its first one, and a second run showed the next)
        broken = bool(typos)
        task = ""
        if "task" not in item:
            if "task" not in {hint for _, hint in typos}:  # `tsk:` was named above as what it is
                err("task", "missing")
            broken = True
        else:
            ok, task = scalar(item["task"])
            if not ok:
                err("task", "task must be text (a string), not a list or a mapping")
                broken = True
            task = (task or "") if ok else ""
        expect: list[str] = []
        expect_at: list[tuple[int, int]] = []
        if "expect" in item:
            enode = r.deref(item["expect"])
            ok, one = scalar(enode)
            if ok:
                if one is not None:
                    expect, expect_at = [one], [at(item["expect"])]
            elif enode.kind == SEQ and all(scalar(c)[0] and scalar(c)[1] is not None for c in enode.items):
                expect = [scalar(c)[1] for c in enode.items]
                expect_at = [at(c) for c in enode.items]
            else:
                err("expect", "expect must be a list of skill ids")
                broken = True
        comp = None
        comp_at = None
        if "composition" in item:
            ok, comp = scalar(item["composition"])
            if not ok:
                err("composition", "composition must be an id or null")
                broken, comp = True, None
            comp_at = at(item["composition"])
        mode = None
        if "mode" in item:
            ok, mode = scalar(item["mode"])
            if not ok or (mode is not None and mode not in MODES):
                shown = mode if ok else "a list or mapping"
                err("mode", f"unknown mode {shown!r} (fast, index or full)")
                broken = True
        mf = flag("must_fallback")
        every = flag("expect_all")
        broken = broken or mf is None or every is None
        note = None
        if "note" in item:
            ok, note = scalar(item["note"])
            if not ok:
                err("note", "note must be text")
                broken = True
        cat = "uncategorised"
        if "category" in item:
            ok, c = scalar(item["category"])
            if not ok:
                err("category", "category must be a label (text)")
                broken = True
            cat = (c if ok else None) or "uncategorised"
        if broken:
            if ids is not None and (expect or comp is not None):
                # its ids are checked with the rest: one report of all the file's mistakes (§7.1)
                partial.append(Case(task, tuple(expect), comp, None, False, "uncategorised", iline, False, None,
                                    index=i, file=display, expect_at=tuple(expect_at), composition_at=comp_at))
            continue
        tline = at(item["task"])[0]
        cases.append(Case(task, tuple(expect), comp, mode, mf, cat, tline, every, note, index=i, file=display,
                          expect_at=tuple(expect_at), composition_at=comp_at))
    if errors and ids is not None:
        errors += check_ids(cases + partial, *ids)
    if errors:
        raise CasesError(sorted(errors, key=lambda d: (d.line, d.column)))
    return cases


def check_ids(cases: Iterable[Case], skill_ids: Iterable[str], composition_ids: Iterable[str]) -> list[Diagnostic]:
    """Diagnostics for ``expect`` ids that are not skills and ``composition``
    ids that are not compositions of the registry (``FILE:LINE:COL:
    cases[i].expect[j]: unknown skill 'x'``, with "did you mean" the
    closest id when one is close: :func:`routelens.text.words.closest`): a
    mistake in the cases file, not a routing mistake."""
    skills, comps = set(skill_ids), set(composition_ids)
    out: list[Diagnostic] = []
    for c in cases:
        for j, sid in enumerate(c.expect):
            if sid not in skills:
                ln, cl = c.expect_at[j] if j < len(c.expect_at) else (c.line, 1)
                near = None if sid in comps else closest(sid, skills)
                hint = (" (it is a composition: use `composition:`)" if sid in comps
                        else f"; did you mean {near!r}?" if near else "")
                out.append(Diagnostic(c.file, ln, cl, f"cases[{c.index}].expect[{j}]", f"unknown skill {sid!r}{hint}"))
        if c.composition is not None and c.composition not in comps:
            ln, cl = c.composition_at or (c.line, 1)
            near = None if c.composition in skills else closest(c.composition, comps)
            hint = (" (it is a skill: use `expect:`)" if c.composition in skills
                    else f"; did you mean {near!r}?" if near else "")
            out.append(Diagnostic(c.file, ln, cl, f"cases[{c.index}].composition",
                                  f"unknown composition {c.composition!r}{hint}"))
    return out


#: the keys of a labelled case (docs/formats.md §8); a key close to one of these is refused as a typo
CASE_KEYS = ("task", "expect", "composition", "mode", "must_fallback", "expect_all", "note", "category")


def load_cases(path: str | Path, ids: tuple[Iterable[str], Iterable[str]] | None = None) -> list[Case]:
    """Read a cases file (UTF-8) with the bounded reader (a regular file of
    at most ``LIMITS["max_cases_bytes"]`` bytes; a FIFO or ``/dev/zero`` is
    refused at once). Raises :class:`CasesError` naming the file when it
    cannot be read or holds errors; ``ids``: see :func:`parse_cases`."""
    path = Path(path)
    try:
        raw = read_bounded(path, LIMITS["max_cases_bytes"], what="the cases file")
    except FileReadError as exc:
        raise CasesError([Diagnostic(str(path), 1, 1, "", f"cannot read the cases: it {exc.reason}")]) from None
    return parse_cases(raw, str(path), ids)


# --------------------------------------------------------------------------- evaluation


def _outcome(case: Case, d: Decision) -> str:
    routed = d.mode != "full"
    if case.expects_fallback:
        return "false_route" if routed else "fallback_ok"
    if not routed:
        return "missed"
    if case.mode is not None and d.mode != case.mode:
        return "wrong_route"
    if case.composition is not None:
        return "correct" if d.composition == case.composition else "wrong_route"
    if case.expect_all:
        return "correct" if set(d.skills) == set(case.expect) else "wrong_route"
    if d.skills and set(d.skills) <= set(case.expect):
        return "correct"
    return "wrong_route"


def _share(num: int, den: int, empty: float) -> float:
    return num / den if den else empty


def evaluate(router: Router, cases: Iterable[Case]) -> EvalReport:
    """Route every case with ``router``
    and compute the metrics described in the module docstring. An empty
    denominator gives the metric's best value (1.0, or 0.0 for the
    false-route rate). Raises :class:`CasesError` when a case expects a
    skill or composition the router does not know (a mistake in the cases
    file, not a routing mistake)."""
    cases = list(cases)
    bad = check_ids(cases, router.skill_ids, router.composition_ids)
    if bad:
        raise CasesError(bad)
    return score(cases, [router.route(c.task) for c in cases])


def score(cases: list[Case], decisions: list[Decision]) -> EvalReport:
    """The report of ``decisions`` (one per case, in order) against their
    ``cases`` (docs/formats.md §7.2-§7.3), without routing: what
    :func:`evaluate` computes once it has routed. ``routelens tune`` scores
    the same cases under many settings this way."""
    results = []
    for c, d in zip(cases, decisions, strict=True):
        results.append(CaseResult(c, d, _outcome(c, d)))
    routed = [r for r in results if r.decision.mode != "full"]
    correct = [r for r in routed if r.outcome == "correct"]
    routable = [r for r in results if r.case.routable and r.case.category.lower() not in PARAPHRASE]
    covered = [r for r in routable if r.decision.mode != "full"]
    para = [r for r in results if r.case.routable and r.case.category.lower() in PARAPHRASE]
    para_routed = [r for r in para if r.decision.mode != "full"]
    mf = [r for r in results if r.case.must_fallback]
    mf_ok = [r for r in mf if r.decision.mode == "full"]
    off = [r for r in results if r.case.category.lower() in OFFTOPIC]
    off_routed = [r for r in off if r.decision.mode != "full"]
    cats: dict[str, dict[str, int]] = {}
    for r in results:
        c = cats.setdefault(r.case.category, {"cases": 0, "routed": 0, "correct": 0, "fallback": 0, "wrong": 0, "missed": 0})
        c["cases"] += 1
        if r.decision.mode != "full":
            c["routed"] += 1
        else:
            c["fallback"] += 1
        if r.outcome in ("correct", "fallback_ok"):
            c["correct"] += 1
        if r.wrong:
            c["wrong"] += 1
        if r.outcome == "missed":
            c["missed"] += 1
    counts = {
        "cases": len(results),
        "routed": len(routed),
        "routed_correct": len(correct),
        "routable": len(routable),
        "routable_routed": len(covered),
        "must_fallback": len(mf),
        "must_fallback_ok": len(mf_ok),
        "offtopic": len(off),
        "offtopic_routed": len(off_routed),
        "paraphrase": len(para),
        "paraphrase_routed": len(para_routed),
    }
    return EvalReport(
        results=results,
        precision=_share(len(correct), len(routed), 1.0),
        coverage=_share(len(covered), len(routable), 1.0),
        must_fallback_recall=_share(len(mf_ok), len(mf), 1.0),
        offtopic_false_route_rate=_share(len(off_routed), len(off), 0.0),
        counts=counts,
        categories=dict(sorted(cats.items())),
    )

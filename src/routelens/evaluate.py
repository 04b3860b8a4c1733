"""Labelled routing cases -> quality metrics (issue 3, ``routelens eval``).

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
from typing import Any, Iterable

from routelens.registry import Diagnostic, RegistryError

__all__ = ["QUALITY_BAR", "Case", "CaseResult", "EvalReport", "CasesError", "load_cases", "parse_cases", "evaluate"]

#: The quality bar of issue 3: (metric, comparison, bound).
QUALITY_BAR = {
    "precision": (">=", 0.97),
    "coverage": (">=", 0.80),
    "must_fallback_recall": (">=", 1.0),
    "offtopic_false_route_rate": ("<=", 0.02),
}

MODES = ("fast", "index", "full")
OFFTOPIC = frozenset({"offtopic", "off-topic", "off_topic"})


class CasesError(RegistryError):
    """The cases file cannot be used; ``diagnostics`` name file, 1-based
    line and column, and the key path (``cases[3].expect[0]``)."""


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
    decision: Any  # routelens.router.Decision
    outcome: str

    @property
    def wrong(self) -> bool:
        """True for the outcomes that count against precision or recall."""
        return self.outcome in ("wrong_route", "false_route")

    def to_dict(self) -> dict:
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
        return {
            "precision": self.precision,
            "coverage": self.coverage,
            "must_fallback_recall": self.must_fallback_recall,
            "offtopic_false_route_rate": self.offtopic_false_route_rate,
        }

    @property
    def failures(self) -> list[str]:
        """Sentences naming each metric below the :data:`QUALITY_BAR`."""
        out = []
        for name, (op, bound) in QUALITY_BAR.items():
            value = self.metrics[name]
            ok = value >= bound if op == ">=" else value <= bound
            if not ok:
                out.append(f"{name} {value:.3f} is not {op} {bound}")
        return out

    @property
    def passed(self) -> bool:
        return not self.failures

    @property
    def wrong(self) -> list[CaseResult]:
        return [r for r in self.results if r.wrong]

    @property
    def missed(self) -> list[CaseResult]:
        return [r for r in self.results if r.outcome == "missed"]

    def to_dict(self) -> dict:
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


def parse_cases(text: str, display: str = "<cases>") -> list[Case]:
    """Parse the text of a cases file. Raises :class:`CasesError` with every
    problem found (YAML syntax, a task that is not a string, an unknown
    mode, a non-boolean ``must_fallback``, ...)."""
    from ruamel.yaml import YAML
    from ruamel.yaml.error import MarkedYAMLError

    yaml = YAML(typ="rt")
    try:
        doc = yaml.load(text)
    except MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        line, col = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        raise CasesError([Diagnostic(display, line, col, "", f"YAML error: {exc.problem or exc}")]) from None
    except Exception as exc:  # other ruamel errors (e.g. a second document)
        raise CasesError([Diagnostic(display, 1, 1, "", f"cannot read the cases: {exc}")]) from None
    errors: list[Diagnostic] = []
    if not isinstance(doc, dict) or not isinstance(doc.get("cases"), list):
        raise CasesError([Diagnostic(display, 1, 1, "cases", "expected a mapping with a `cases:` list")])
    cases: list[Case] = []
    for i, item in enumerate(doc["cases"]):
        base = f"cases[{i}]"
        try:
            iline, icol = doc["cases"].lc.item(i)
            iline, icol = iline + 1, icol + 1
        except Exception:
            iline, icol = 1, 1

        def pos(key: str) -> tuple[int, int]:
            try:
                ln, cl = item.lc.value(key)
                return ln + 1, cl + 1
            except Exception:
                return iline, icol

        if not isinstance(item, dict):
            errors.append(Diagnostic(display, iline, icol, base, "a case must be a mapping with a `task`"))
            continue
        task = item.get("task")
        if task is None:
            task = "" if "task" in item else None
        if not isinstance(task, str):
            ln, cl = pos("task") if "task" in item else (iline, icol)
            errors.append(Diagnostic(display, ln, cl, f"{base}.task",
                                     "missing" if task is None else "task must be a string (quote it)"))
            continue
        expect = item.get("expect") or []
        if isinstance(expect, str):
            expect = [expect]
        if not isinstance(expect, list) or not all(isinstance(e, str) for e in expect):
            ln, cl = pos("expect")
            errors.append(Diagnostic(display, ln, cl, f"{base}.expect", "expect must be a list of skill ids"))
            continue
        comp = item.get("composition")
        if comp is not None and not isinstance(comp, str):
            ln, cl = pos("composition")
            errors.append(Diagnostic(display, ln, cl, f"{base}.composition", "composition must be an id or null"))
            continue
        mode = item.get("mode")
        if mode is not None and mode not in MODES:
            ln, cl = pos("mode")
            errors.append(Diagnostic(display, ln, cl, f"{base}.mode", f"unknown mode {mode!r} (fast, index or full)"))
            continue
        mf = item.get("must_fallback", False)
        if not isinstance(mf, bool):
            ln, cl = pos("must_fallback")
            errors.append(Diagnostic(display, ln, cl, f"{base}.must_fallback", "must_fallback must be true or false"))
            continue
        cat = item.get("category") or "uncategorised"
        try:
            tline = item.lc.value("task")[0] + 1
        except Exception:
            tline = iline
        cases.append(Case(str(task), tuple(expect), comp, mode, mf, str(cat), tline))
    if errors:
        raise CasesError(errors)
    return cases


def load_cases(path: str | Path) -> list[Case]:
    """Read a cases file (UTF-8). Raises :class:`CasesError` naming the file
    when it cannot be read or holds errors."""
    path = Path(path)
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except OSError as exc:
        raise CasesError([Diagnostic(str(path), 1, 1, "", f"cannot read the cases: {exc.strerror or exc}")]) from None
    except UnicodeDecodeError as exc:
        raise CasesError([Diagnostic(str(path), 1, 1, "", f"not UTF-8: {exc.reason}")]) from None
    return parse_cases(text, str(path))


# --------------------------------------------------------------------------- evaluation


def _outcome(case: Case, d: Any) -> str:
    routed = d.mode != "full"
    if case.expects_fallback:
        return "false_route" if routed else "fallback_ok"
    if not routed:
        return "missed"
    if case.mode is not None and d.mode != case.mode:
        return "wrong_route"
    if case.composition is not None:
        return "correct" if d.composition == case.composition else "wrong_route"
    if d.skills and set(d.skills) <= set(case.expect):
        return "correct"
    return "wrong_route"


def _share(num: int, den: int, empty: float) -> float:
    return num / den if den else empty


def evaluate(router: Any, cases: Iterable[Case]) -> EvalReport:
    """Route every case with ``router`` (a :class:`routelens.router.Router`)
    and compute the metrics described in the module docstring. An empty
    denominator gives the metric's best value (1.0, or 0.0 for the
    false-route rate)."""
    results = []
    for c in cases:
        d = router.route(c.task)
        results.append(CaseResult(c, d, _outcome(c, d)))
    routed = [r for r in results if r.decision.mode != "full"]
    correct = [r for r in routed if r.outcome == "correct"]
    routable = [r for r in results if r.case.routable]
    covered = [r for r in routable if r.decision.mode != "full"]
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

"""The build's ninth speed round (issue 14, benchmarks/README.md "Build
speed"): each shortcut gives exactly what the slower way gave. The slower
ways are the reference: a trigger's key word one trigger at a time
(``_trigger_key``), lines and columns from a list of every line's start
(a bisection), and run-on list items looked for value by value."""

from __future__ import annotations

import bisect
import random
from itertools import accumulate
from pathlib import Path

import routelens.artifacts.vocabulary as V
from routelens.registry.load import load_registry, parse_registry, run_on_items
from routelens.text.canonical import LineCounter
from routelens.text.words import MATCH_STOP_WORDS

ROOT = Path(__file__).resolve().parents[1]


def _shipped() -> list[Path]:
    return [ROOT / "skills.yaml", *sorted((ROOT / "benchmarks" / "registries").glob("*/skills.yaml"))]


def test_trigger_keys_by_parts_are_the_keys_one_by_one() -> None:
    triggers = set()
    for path in _shipped():
        for s in load_registry(path).skills.values():
            triggers.update(s.triggers)
            triggers.update(s.not_when)
    rng = random.Random(10)
    chars = "aAbZ09 #+%-_.:/!'\u00e9\u3042   "
    words = sorted(MATCH_STOP_WORDS)[:30] + ["c#", "C++", "gp%", "86", "1:1", "24/7", "a", "I", "S", "model",
                                              "x_y", "__", "-", "0", "PDFs", "KDS", "on", "call"]
    for _ in range(4000):
        if rng.random() < 0.5:
            triggers.add("".join(rng.choice(chars) for _ in range(rng.randint(0, 12))))
        else:
            t = (" " * rng.randint(0, 2)).join(rng.choice(words) for _ in range(rng.randint(1, 4)))
            triggers.add(" " * rng.randint(0, 2) + t + " " * rng.randint(0, 2))
    triggers.update(["", " ", "  ", "on call", "the the", "1 2", " 24 7 ", "C# 1", "a b c", "x  y"])
    ordered = sorted(triggers)
    V._KEY_CACHE.clear()
    got = V.trigger_keys(ordered)
    assert list(got) == ordered
    assert {t: V._trigger_key(t) for t in ordered} == got
    assert all(V.trigger_key(t) == got[t] for t in ordered)  # remembered as trigger_key remembers them


def _starts(text: str) -> list[int]:
    starts = [0]
    starts.extend(accumulate(map((1).__add__, map(len, text.split("\n")))))
    starts.pop()
    return starts


def test_line_counter_is_the_bisection_of_line_starts() -> None:
    rng = random.Random(11)
    for n in [0, 1, 2, 5, 50, 1023, 1024, 1025, 2048, 3000, 5000] * 30:
        text = "".join(rng.choice("ab\n\n\u65e5") for _ in range(n))
        starts = _starts(text)
        counter, listed = LineCounter(text), LineCounter(text)
        assert listed.starts == starts
        for index in {*range(-3, min(n + 5, 40)), n - 1, n, n + 1, 1023, 1024, 2048,
                      *(rng.randint(-5, n + 5) for _ in range(30))}:
            line = bisect.bisect_right(starts, index)
            assert counter.line_of(index) == listed.line_of(index) == line
            assert counter.pos(index) == listed.pos(index) == (line, index - starts[line - 1] + 1)


def test_run_on_items_with_and_without_a_dash_in_some_value() -> None:
    text = ("schema_version: 1\nskills:\n  a:\n    path: skills/a.md\n    priority: P1\n    triggers:\n"
            "      - gpu quota\n       - request gpus\n  b:\n    path: skills/b.md\n    priority: P1\n"
            "    triggers:\n      - x - y\n")
    try:
        parse_registry(text.encode(), "skills.yaml")
    except Exception as exc:  # noqa: BLE001 - the registry error is what is looked at
        assert "line 8 is indented 1 more than the item on line 7" in str(exc)
    else:
        raise AssertionError("the run-on item was not reported")
    reg = parse_registry(text.replace("       - request gpus", "      - request gpus").encode(), "skills.yaml")
    assert run_on_items(reg) == []  # 'x - y' holds ' - ' but runs on from no line

"""The skill matcher hands each trigger text to its owners as one group
(:meth:`TriggerMatcher.reach`, issue 14, batch round 8): the same best match
per owner, the same hits in the same order, and the same near misses as the
loop it replaced, which offered every trigger to its owner one by one. That
loop is kept here as the reference and the two are compared on registries
whose triggers are shared by many owners, with typos, inflections,
concatenations, symbols, duplicate triggers and Japanese."""

from __future__ import annotations

import random
from bisect import bisect_left, insort

import pytest

from routelens.routing import matching
from routelens.routing.matching import Match, TriggerMatcher, prepare


def reference_match(self: TriggerMatcher, task, threshold=None, keep_below=5, collect=None):
    """The per-trigger loop of matcher 10 before round 8 (verbatim but for
    the text members, read here from the triggers)."""
    floor = self.floor
    if threshold is None:
        threshold = floor
    word_pos = self._task_words(task)
    cands, concat = self._candidates(task, word_pos)
    results = {}
    triggers = self.triggers

    def offer(tid, m):
        key = (-m.score, m.span[0], m.span[0] - m.span[1], triggers[tid].order)
        old = results.get(m.id)
        if old is None or key < old[0]:
            results[m.id] = (key, m)
            if m.score < threshold:
                low.add(m.id)
            else:
                low.discard(m.id)
        if collect is not None and m.score >= threshold:
            collect.setdefault(m.id, []).append(m)

    low = set()
    for tid, (a, b) in sorted(concat.items()):
        if matching._CONCAT_SCORE >= floor and self._fits(triggers[tid], task, a, b):
            offer(tid, self._to_match(tid, task, matching._CONCAT_SCORE, a, b, "spacing"))
    for tid, m in self._symbol_matches(task):
        offer(tid, m)
    queue = []
    word_best = {u: max(s for _, s in lst) for u, lst in word_pos.items()}
    positions = task.positions
    alias = task.alias
    for x in cands:
        tids = list(self._text_tids[x])
        tr = triggers[tids[0]]
        if tr.short:
            b = 100.0 if all(u in positions or (alias and u in alias.values()) for u in tr.units) else 0.0
        else:
            b = 0.0
            for u, v, word in tr.bound:
                if word:
                    b += v * word_best.get(u, 0.0)
                elif u in positions:
                    b += v * 100.0
            b /= 100.0
        if b >= floor:
            for tid in tids:
                queue.append((-b, tid, x, triggers[tid].owner, triggers[tid].order, tr.text))
    queue.sort()
    below = sorted(-results[o][0][0] for o in low)
    scored = {}
    for negb, tid, x, owner, order, text in queue:
        if negb > -threshold:
            if len(below) >= keep_below and (keep_below == 0 or -negb < below[-keep_below]):
                break
        if x not in scored:
            first = self._text_tids[x][0]
            score, a, bb = self._score_trigger(first, task, self._evidence(triggers[first], task, word_pos))
            if score >= floor and a >= 0:
                m = self._to_match(first, task, score, a, bb)
                scored[x] = (m.score, m.span, m.kind, (-m.score, m.span[0], m.span[0] - m.span[1]),
                             m.score >= threshold)
            else:
                scored[x] = None
        got = scored[x]
        if got is None:
            continue
        m = Match(owner, got[0], text, got[1], got[2])
        key = (*got[3], order)
        old = results.get(owner)
        if old is None or key < old[0]:
            if owner in low:
                del below[bisect_left(below, -old[0][0])]
            results[owner] = (key, m)
            if got[4]:
                low.discard(owner)
            else:
                low.add(owner)
                insort(below, got[0])
        if got[4] and collect is not None:
            collect.setdefault(owner, []).append(m)
    return {owner: m for owner, (_, m) in sorted(results.items())}


WORDS = ("review deploy trace timeout cache ticket audit metric chart index build release notes code model "
         "schema migrate billing consent privacy search summary draft support agent api server").split()
JA = ["レビュー", "デプロイ", "移行", "個人情報", "障害", "議事録", "翻訳"]


def _registry(rng: random.Random, n: int) -> list[tuple[str, list[str]]]:
    out = []
    for i in range(n):
        trigs = []
        for _ in range(rng.randint(1, 4)):
            r = rng.random()
            if r < 0.15:
                trigs.append(rng.choice(JA) + (rng.choice(JA) if rng.random() < 0.5 else ""))
            elif r < 0.2:
                trigs.append(rng.choice(["post mortem", "c#", "node.js", "!!", "R", "ci"]))
            else:
                trigs.append(" ".join(rng.sample(WORDS, rng.randint(1, 3))))
        if rng.random() < 0.05:
            trigs.append(trigs[0])  # a trigger written twice
        out.append((f"s{i:03d}-{rng.choice(WORDS)}", trigs))
    return out


def _task(rng: random.Random) -> str:
    words = rng.sample(WORDS, rng.randint(1, 5))
    if rng.random() < 0.3:
        w = words[0]
        i = rng.randrange(1, len(w) - 1)
        words[0] = w[:i] + w[i + 1:]  # a typo
    if rng.random() < 0.2:
        words[-1] += "s"
    if rng.random() < 0.2:
        words.append(rng.choice(JA))
    if rng.random() < 0.1:
        words.append(rng.choice(["postmortem", "!!", "C#", "R"]))
    return " ".join(words)


@pytest.mark.parametrize("seed", range(6))
def test_reach_gives_the_per_trigger_loops_matches_hits_and_near_misses(seed):
    rng = random.Random(seed)
    m = TriggerMatcher(_registry(rng, 300), floor=60.0)
    for _ in range(60):
        p = prepare(_task(rng))
        for threshold, keep in ((85.0, 5), (60.0, 5), (70.0, 0), (95.0, 2)):
            want_hits: dict = {}
            got_hits: dict = {}
            want = reference_match(m, p, threshold, keep, want_hits)
            got = m.match(p, threshold, keep, got_hits)
            assert list(got) == list(want)
            assert [(x.id, x.score, x.trigger, x.span, x.kind) for x in got.values()] == \
                [(x.id, x.score, x.trigger, x.span, x.kind) for x in want.values()]
            assert list(got_hits) == list(want_hits)  # owners in the order their first hit was offered
            assert {o: [(x.score, x.trigger, x.span, x.kind) for x in hs] for o, hs in got_hits.items()} == \
                {o: [(x.score, x.trigger, x.span, x.kind) for x in hs] for o, hs in want_hits.items()}
            reached = m.reach(p, threshold, keep)
            ids, hit_of = reached.ranked()
            ranked = sorted((x for x in want.values() if x.score >= threshold), key=lambda x: -x.score)
            assert ids == [x.id for x in ranked]
            assert all(hit_of[x.id].trigger == x.trigger and hit_of[x.id].span == x.span for x in ranked)
            below = sorted((x for x in want.values() if x.score < threshold), key=lambda x: -x.score)[:5]
            assert [(o, h.score, h.trigger) for o, h in reached.near(5)] == [(x.id, x.score, x.trigger) for x in below]


def test_a_matcher_read_from_the_cache_reaches_the_same():
    import pickle

    rng = random.Random(99)
    built = TriggerMatcher(_registry(rng, 200), floor=60.0)
    loaded = pickle.loads(pickle.dumps(built))
    assert isinstance(loaded.triggers, matching._LazyTriggers)
    for _ in range(40):
        p = prepare(_task(rng))
        a: dict = {}
        b: dict = {}
        assert [(x.id, x.score, x.span) for x in loaded.match(p, 85.0, 5, a).values()] == \
            [(x.id, x.score, x.span) for x in reference_match(built, p, 85.0, 5, b).values()]
        assert list(a) == list(b)


def test_the_bound_of_a_text_is_its_triggers():
    """A text a task reaches is bounded from its text alone (``_bound_of``)
    until it must be scored: the same short flag, units and
    ``(unit, value, is a word)`` as its :class:`_Trigger` (cut in full),
    on every trigger of the shipped registries and on random strings."""
    from pathlib import Path

    from routelens.registry import load_registry

    root = Path(__file__).resolve().parents[1]
    texts = set()
    for path in [root / "skills.yaml", *sorted(root.glob("benchmarks/registries/*/skills.yaml"))]:
        reg = load_registry(path)
        texts |= {t for s in reg.skills.values() for t in (*s.triggers, *s.not_when)}
    rng = random.Random(5)
    alphabet = "abcXYZ 09#+%./:&-_ の日本語テストｶﾞé\u0301ＡＢ\t\u3000"
    texts |= {"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))) for _ in range(3000)}
    texts |= {" ".join(rng.sample(WORDS + ["the", "on", "a", "of", "into"], rng.randint(1, 4))) for _ in range(500)}
    owners = []
    for i, t in enumerate(sorted(texts)):
        tr = matching._Trigger("o", t, 0)
        assert matching._bound_of(t) == ((True, tr.units, ()) if tr.short else (False, (), tr.bound)), t
        owners.append((f"o{i}", [t]))
    # and the columns the matcher cache keeps of them
    import pickle

    built = TriggerMatcher(owners, floor=60.0)
    loaded = pickle.loads(pickle.dumps(built))
    assert loaded._bound_cols is not None and built._bound_cols is None
    for x in range(len(built._text_tids)):
        assert loaded._text_bound(x) == built._text_bound(x)

"""What a task says besides its triggers (docs/formats.md §6.10, §6.11):
text that tries to steer the router, destructive intents, negated clauses,
markup, technical identifiers and the clauses of several asks.

Each detector reads the task as typed and answers with character spans
``[start, end)`` into it. They are general rules about how requests are
written, not lists of any registry's words:

- :func:`steering`: a fake role line (``SYSTEM:``, ``システム：``), a
  "developer mode" or override claim, an authority claim ("I'm the admin"),
  an order to ignore or skip the router's rules or checks, a decision
  written as data (JSON, XML or ``[[...]]`` naming a skill, a mode or a
  confidence), ``mode=fast`` and the like;
- :func:`destructive`: the built-in destructive intents: a destroying verb
  with a bulk word (delete / drop / truncate / wipe / erase / purge /
  remove / clear out / empty / overwrite / reset / revoke ... all / every /
  everything / the whole / completely / permanently / for good), a
  destroying verb on a data container (table, database, schema, topic,
  bucket, history, logs, records, backups ...), ``rm -rf``, force push,
  ``git reset --hard``, safety skipped ("no backup needed", "no need to
  check"), and the Japanese forms (全件削除, 全部消して, 一括削除, 本番データ削除,
  物理削除 ...);
- :func:`negated`: the clauses a negation governs: English "don't", "do
  not", "no", "not a/the/about ...", "never", "without", "instead of",
  "rather than", "skip", "no need for" reach forward to the end of the
  clause; Japanese しないで, なくていい, 不要, ではなく, 以外, やめて reach back
  to its start;
- :func:`markup`: spans inside ``<...>``, ``{...}`` and ``[[...]]``;
- :func:`identifiers`: code-like words (``fct_orders``,
  ``raw_stripe.charges``, ``train.py``, ``camelCase``), which show a
  technical context;
- :func:`clause_breaks`: where one ask ends and another begins ("and",
  "also", "then", "plus", "separately", ";", "。", "、", "それと", "あと",
  "また"), for several needs.
"""

from __future__ import annotations

import re

__all__ = ["steering", "destructive", "negated", "markup", "identifiers", "clause_breaks", "within", "Signal"]

#: ``(start, end, text)``: a span of the task as typed and what it says
Signal = tuple[int, int, str]

_I = re.IGNORECASE

_STEERING = [
    # a fake role or system line
    re.compile(r"(?:^|[\n\[<{(\"'])\s*(?:system|developer|assistant|admin(?:istrator)?|operator|root)"
               r"(?:\s+(?:prompt|message|note|instruction|override))?\s*[:：]", _I),
    re.compile(r"(?:^|[\n\[<{(])\s*(?:システム|管理者|開発者)(?:メッセージ|指示)?\s*[:：]"),
    # "developer mode", "god mode", "jailbreak"
    re.compile(r"\b(?:developer|debug|god|admin|maintenance|jailbreak|unrestricted)\s+mode\b", _I),
    re.compile(r"\bjailbreak\w*", _I),
    # orders to ignore or bypass the router's rules and checks
    re.compile(r"\b(?:ignore|disregard|forget|bypass|override|skip|disable|turn\s+off|suspend)\b[^.\n]{0,40}?"
               r"\b(?:instructions?|rules?|checks?|guardrails?|safety|restrictions?|filters?|polic(?:y|ies)|"
               r"routing|router|registry|fallbacks?|threshold|flags?|validation)\b", _I),
    re.compile(r"\b(?:never|don'?t|do\s+not|no)\s+fall\s*-?\s*back\b", _I),
    re.compile(r"\b(?:rules?|checks?)\s+(?:don'?t|do\s+not|doesn'?t)\s+apply\b", _I),
    # authority claims
    re.compile(r"\b(?:i'?m|i\s+am|as)\s+(?:the|an?|your)\s+(?:admin|administrator|owner|registry\s+owner|root|"
               r"developer|operator|sysadmin|superuser)\b", _I),
    re.compile(r"\bi\s+(?:authori[sz]e|order|instruct|command)\s+you\b", _I),
    # the decision written for the router
    re.compile(r"\b(?:mode|skill|confidence|forced_rule|high_risk|verified|threshold|route)\s*[=:]\s*[\"']?"
               r"(?:fast|index|full|true|false|\d|[a-z][a-z0-9-]*-[a-z0-9-]+)", _I),
    re.compile(r"\bpretend\b[^.\n]{0,40}\b(?:threshold|skill|mode|router|rules?|checks?)\b", _I),
    re.compile(r"\b(?:answer|respond|reply)\s+mode\b", _I),
    re.compile(r"<\s*/?\s*(?:route|router|skill|system|decision|override|instructions?)\b[^>]*>", _I),
    re.compile(r"\{[^{}]{0,200}[\"'](?:skill|mode|route|confidence|decision|selected)[\"']\s*:", _I),
    re.compile(r"\[\[[^\]]{0,200}\b(?:override|router|route|skill|mode|confidence)\b", _I),
    re.compile(r"\b(?:route|send|pick|choose|select|treat|classify|force)\b[^.\n]{0,30}?\b(?:as\s+(?:the\s+)?skill|"
               r"straight\s+to|directly\s+to|without\s+(?:checks?|checking|fallback))\b", _I),
    # Japanese
    re.compile(r"管理者(?:です|権限|として|の権限)"),
    re.compile(r"(?:チェック|確認|フォールバック|審査|判定)\s*(?:は|を|も)?\s*(?:不要|禁止|省略|無効|スキップ|しない)"),
    re.compile(r"(?:ルーティング|振り分け)\s*(?:し|して|すること|せよ)"),
    re.compile(r"強制(?:選択|的に選|指定)"),
]

_BULK = (r"(?:all|every|everything|everyone|everybody|entire|whole|each|completely|permanently|for\s+good|"
         r"irreversibl\w*|in\s+one\s+go|at\s+once|altogether|wholesale)")
_DESTROY = (r"(?:delete|deleting|drop|dropping|truncate|wipe|wiping|erase|erasing|purge|purging|remove|removing|"
            r"clear(?:\s+out)?|empty|destroy|reset|overwrite|overwriting|zero|revoke|unsubscribe|cancel|nuke|obliterate)")
_CONTAINER = (r"(?:tables?|databases?|db|dbs|schemas?|topics?|buckets?|indexes|indices|clusters?|collections?|"
              r"repos?|repository|branch(?:es)?|volumes?|namespaces?|accounts?|profiles?|histor(?:y|ies)|logs?|"
              r"records|backups?|archives?|snapshots?)")
_DESTRUCTIVE = [
    re.compile(r"\brm\s+-(?:rf|fr|r|f)\b", _I),
    re.compile(r"\bforce[- ]push(?:ed|ing)?\b", _I),
    re.compile(r"\bpush\s+(?:-f|--force(?:-with-lease)?)\b", _I),
    re.compile(r"\bgit\s+reset\s+--hard\b", _I),
    re.compile(r"\bfactory[- ]reset\b", _I),
    re.compile(rf"\b{_DESTROY}\b(?:\W+\w+){{0,6}}?\W+{_BULK}\b", _I),
    re.compile(rf"\b(?:all|every|everything|the\s+whole|the\s+entire)\b(?:\W+\w+){{0,3}}?\W+"
               r"(?:deleted|wiped|erased|purged|removed|destroyed|dropped|overwritten)\b", _I),
    re.compile(rf"\b(?:delete|drop|destroy|wipe|purge|nuke|erase)\b(?:\W+\w+){{0,3}}?\W+{_CONTAINER}\b", _I),
    re.compile(r"\b(?:no|without)\s+(?:a\s+|any\s+)?(?:backups?|dry[- ]run|checks?|checking|confirmation)\b"
               r"(?:\s+(?:needed|required|necessary))?", _I),
    re.compile(r"\bno\s+need\s+to\s+(?:check|keep|confirm|back\s*up|review|verify)\b", _I),
    re.compile(r"全件削除|全削除|本番データ削除|物理削除|一括削除|一括返金|完全削除"),
    re.compile(r"(?:全部|すべて|全て|一括|丸ごと)\S{0,6}?(?:削除|消し|消す|消去|リセット|上書き|破棄|クリア|初期化|返金)"),
    re.compile(r"(?:削除|消去|上書き)\S{0,3}?(?:全部|すべて|全て)"),
]

_EN_BOUNDARY = re.compile(r"[.,;:!?()\[\]\n]|\s[-–—]\s|\s(?:but|just|only|instead|rather|so|because|then|"
                          r"and\s+then|please\s+just)\b", _I)
_EN_NEG = re.compile(
    r"\b(?:don'?t|do\s+not|dont|never|without|instead\s+of|rather\s+than|skip|forget(?:\s+about)?|"
    r"no\s+need\s+(?:for|to)|no(?!-)|not(?=\s+(?:a|an|the|any|about|doing|for|this|that|my|our|to)\b))\b", _I)
_JA_NEG = re.compile(r"しないで|しなくて(?:いい|良い|も)|(?:な|ら)くて(?:いい|良い|も)|ないで|不要|いらない|要らない|"
                     r"ではなく|じゃなくて|じゃなく|以外|やめて|止めて")
_JA_BOUNDARY = "、。，．,.!！?？\n"
_MAX_SCOPE_WORDS = 6

_MARKUP = re.compile(r"<[^<>\n]{1,300}>|\{[^{}]{1,600}\}|\[\[[^\]]{0,300}\]\]")
_IDENT = re.compile(r"\b[A-Za-z][A-Za-z0-9]*_[A-Za-z0-9_]+\b|\b[a-z][a-z0-9_]*\.[a-z_][a-z0-9_]+\b|"
                    r"\b[a-z]+[A-Z][A-Za-z0-9]+\b|`[^`\n]{2,80}`|\b[A-Za-z]{2,}[0-9]+[A-Za-z0-9]*\b|"
                    r"\bv?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?\b|"  # a version: 1.2.3, v2.0.1-rc.1
                    r"\b[A-Z][A-Z0-9]+-\d+(?:-\d+)?\b|"  # an issue or advisory key: PROJ-123, CVE-2024-3094
                    r"(?:\.{0,2}/)?\b[\w.-]+/[\w./-]*\.[A-Za-z0-9]{1,5}\b|"  # a path with a file: src/app.py
                    r"(?<![\w-])--[a-z][a-z0-9-]+\b")  # a command-line flag: --dry-run
_CLAUSE = re.compile(r"[;。\n]|[,、，]|\s[-–—]\s|\b(?:and(?:\s+(?:also|then|separately))?|also|then|plus|as\s+well\s+as|"
                     r"separately|afterwards|after\s+that|two\s+things)\b|それと|あと(?=[、,])|あと|また|それから|"
                     r"(?:して|て)、", _I)


def steering(task: str) -> list[Signal]:
    """Spans of text that try to steer the router (docs/formats.md §6.11),
    in task order; ``[]`` for an ordinary request."""
    out = []
    for rx in _STEERING:
        for m in rx.finditer(task):
            out.append((m.start(), m.end(), m.group().strip()))
    return sorted(set(out))


def destructive(task: str) -> list[Signal]:
    """Spans of the built-in destructive intents (docs/formats.md §6.11), in
    task order."""
    out = []
    for rx in _DESTRUCTIVE:
        for m in rx.finditer(task):
            out.append((m.start(), m.end(), m.group().strip()))
    return sorted(set(out))


def negated(task: str) -> list[Signal]:
    """The spans a negation governs (docs/formats.md §6.10): ``(start, end,
    cue)``. English cues reach forward to the end of their clause, at most
    six words; Japanese cues reach back to the start of theirs."""
    out: list[Signal] = []
    if not task:
        return out
    for m in _EN_NEG.finditer(task):
        start = m.end()
        b = _EN_BOUNDARY.search(task, start)
        end = b.start() if b else len(task)
        words = list(re.finditer(r"\S+", task[start:end]))
        if len(words) > _MAX_SCOPE_WORDS:
            end = start + words[_MAX_SCOPE_WORDS - 1].end()
        if end > start:
            out.append((start, end, m.group()))
    if not task.isascii():
        for m in _JA_NEG.finditer(task):
            i = m.start()
            while i > 0 and task[i - 1] not in _JA_BOUNDARY:
                i -= 1
            if m.start() > i:
                out.append((i, m.start(), m.group()))
    return out


def markup(task: str) -> list[Signal]:
    """Spans inside markup: ``<...>``, ``{...}``, ``[[...]]``."""
    if "<" not in task and "{" not in task and "[[" not in task:
        return []
    return [(m.start(), m.end(), m.group()) for m in _MARKUP.finditer(task)]


def identifiers(task: str) -> list[Signal]:
    """Code-like words: ``snake_case``, ``schema.table``, ``file.py``,
    ``camelCase``, ```code```, ``arm64``, versions (``1.2.3``), issue and
    advisory keys (``PROJ-123``, ``CVE-2024-3094``), paths with a file
    (``src/app.py``) and command-line flags (``--dry-run``)."""
    return [(m.start(), m.end(), m.group()) for m in _IDENT.finditer(task)]


def clause_breaks(task: str) -> list[int]:
    """Offsets where one ask may end and another begin, sorted."""
    return [m.start() for m in _CLAUSE.finditer(task)]


def within(span: tuple[int, int], spans: list[Signal]) -> Signal | None:
    """The first of ``spans`` that holds ``span`` wholly, or None."""
    for s in spans:
        if s[0] <= span[0] and span[1] <= s[1]:
            return s
    return None

"""What a task says that must send it to the full registry whatever else it
says (docs/formats.md §6.11): text that tries to steer the router and the
built-in destructive intents. Both read the task as the matcher does
(:func:`folded`: NFKC per character, invisible format characters dropped)
and answer with ``(start, end, text)`` spans on the task as typed. They are
general rules about how such text is written, not lists of any registry's
words:

- :func:`steering`: a fake role line (``SYSTEM:``, ``システム：``), a
  "developer mode" or override claim, an authority claim ("I'm the admin"),
  an order to ignore or skip the router's rules or checks, a decision
  written as data (JSON, XML or ``[[...]]`` naming a skill, a mode or a
  confidence), ``mode=fast`` and the like; role-play and make-believe about
  the router's world ("pretend the registry says X is pre-approved"),
  claims about what the registry allows, a new identity for the router
  ("you are now ..."), and words addressed to it ("Router: ...");
- :func:`destructive`: the built-in destructive intents: a destroying verb
  with a bulk word (delete / drop / truncate / wipe / erase / purge /
  remove / clear out / empty / overwrite / reset / revoke ... all / every /
  everything / the whole / completely / permanently / for good), a
  destroying verb on a data container (table, database, schema, topic,
  bucket, history, logs, records, backups ...), ``rm -rf``, force push,
  ``git reset --hard``, safety skipped ("no backup needed", "no need to
  check"), irreversible verbs (uninstall, unpublish, terminate ...) with a
  bulk word or a protected target (production, the main branch), safeguards
  switched off ("turn off branch protection"), "scale ... to zero", and the
  Japanese forms (全件削除, 全部消して, 一括削除, 本番データ削除, 物理削除, 本番の…を初期化
  ...); a progressive after a verb of duration ("keeps dropping") or a
  bulk word that counts time ("every 10 minutes") is no request;

Nothing in this module imports Textual.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Callable, Sequence

from routelens.routing.signals import Signal

__all__ = ["folded", "steering", "destructive"]

_I = re.IGNORECASE

#: an order to ignore or bypass the router's rules and checks; ``what``: the thing bypassed (no order when it
#: is a word of a trigger phrase of the registry, that work itself: "Skip the fact check, it's done"); "don't
#: forget to", "never forget" ask for the work (docs/formats.md §6.11)
_BYPASS = re.compile(r"\b(?:ignore|disregard|(?<!n't )(?<!n’t )(?<!not )(?<!never )forget|bypass|override|skip|"
                     r"disable|turn\s+off|suspend)\b[^.\n]{0,40}?"
                     r"\b(?P<what>instructions?|rules?|checks?|guardrails?|safety|restrictions?|filters?|polic(?:y|ies)|"
                     r"routing|router|registry|fallbacks?|threshold|flags?|validation)\b", _I)

_STEERING = [
    # a fake role or system line
    re.compile(r"(?:^|(?<=[\n\[<{(\"'])|(?<=[.!?。！？]\s))\s*(?:system|developer|assistant|admin(?:istrator)?|operator|root)"
               r"(?:\s+(?:prompt|message|note|instruction|override))?\s*[:：]", _I),
    re.compile(r"(?:^|(?<=[\n\[<{(。！？!?]))\s*(?:システム|管理者|開発者)(?:メッセージ|指示)?\s*[:：]"),
    # "developer mode", "god mode", "jailbreak"
    re.compile(r"\b(?:developer|debug|god|admin|maintenance|jailbreak|unrestricted)\s+mode\b", _I),
    re.compile(r"\bjailbreak\w*", _I),
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
    # role-play and make-believe about the router's world: "pretend the registry says X is pre-approved"
    re.compile(r"\b(?:pretend(?:ing)?|act\s+as\s+(?:if|though)|role-?play(?:ing)?|make\s+believe)\b[^.\n]{0,60}?"
               r"\b(?:registry|router|routing|index|pre-?approved|approved|authori[sz]ed|allow-?listed|whitelisted|"
               r"permitted|admin(?:istrator)?|you\s+are|you'?re|skill|mode|threshold|rules?|checks?)\b", _I),
    re.compile(r"\b(?:imagine|suppose|assume|let'?s\s+say)\b[^.\n]{0,60}?\b(?:the\s+registry|the\s+router|routing\s+rules?|"
               r"pre-?approved|allow-?listed|whitelisted|the\s+threshold)\b", _I),
    # claims about what the registry or the router allows
    re.compile(r"\bthe\s+(?:registry|router|routing\s+(?:table|index|rules?)|index|routing\s+policy)\s+"
               r"(?:says|said|states|allows|permits|marks|lists|approves|approved|has\s+approved|confirms|wants)\b", _I),
    re.compile(r"\b(?:pre-?approved|pre-?authori[sz]ed|pre-?cleared|allow-?listed|whitelisted)\s+(?:for|to\s+(?:run|do|use))"
               r"\s+(?:everything|anything|all|any)\b", _I),
    # a new identity given to the router
    re.compile(r"\b(?:you\s+are\s+now|you'?re\s+now|you\s+will\s+now\s+(?:act|behave|be)|from\s+now\s+on,?\s+"
               r"(?:you|always|route|treat|skip)|act\s+as\s+(?:the|an?|my)\s+(?:router|admin(?:istrator)?|system|"
               r"registry\s+owner|superuser))\b", _I),
    # instructions addressed to the router itself: "Router: ...", "note to the router"
    re.compile(r"(?:^|[\n.!?]\s*)(?:dear\s+|hey\s+|hi\s+|attention\s+)?(?:router|routing\s+(?:model|system|agent|layer)|"
               r"classifier|dispatcher)\s*[,:：]", _I),
    re.compile(r"\b(?:note|message|instructions?|memo)\s+(?:to|for)\s+(?:the\s+)?(?:router|routing\s+(?:model|system|layer)|"
               r"classifier|dispatcher)\b", _I),
    # Japanese
    re.compile(r"管理者(?:です|権限|として|の権限)"),
    re.compile(r"(?:ふりをして|と仮定して|と想定して|ということにして)"),
    re.compile(r"(?:事前)?承認済み(?:です|として|扱い|なので)"),
    re.compile(r"(?:レジストリ|ルーター)(?:に|で|は|が)\S{0,12}?(?:と書いて|許可|承認|指示)"),
    re.compile(r"(?:今から|これから)(?:あなた|君|きみ)は"),
    re.compile(r"(?:チェック|確認|フォールバック|審査|判定)\s*(?:は|を|も)?\s*(?:不要|禁止|省略|無効|スキップ|しない)"),
    re.compile(r"(?:ルーティング|振り分け)\s*(?:し|して|すること|せよ)"),
    re.compile(r"強制(?:選択|的に選|指定)"),
]

_BULK = (r"(?:all|every|everything|everyone|everybody|entire|whole|each|completely|permanently|for\s+good|"
         r"irreversibl\w*|in\s+one\s+go|at\s+once|altogether|wholesale|the\s+lot|en\s+masse|in\s+bulk|"
         r"across\s+the\s+board)")
#: the bulk words that say how the work is done, not which things: they may close a long clause
_BULK_AFTER = (r"(?:the\s+lot|en\s+masse|in\s+bulk|in\s+one\s+go|for\s+good|permanently|across\s+the\s+board|"
               r"(?:for|across|in|on|over)\s+the\s+(?:entire|whole)|across\s+(?:all|every))")
#: the destroying and irreversible verbs, as a request (base form; the -ing form of a few for "start deleting
#: all ..."), docs/formats.md §6.11
_DESTROY = (r"(?:delete|deleting|drop|dropping|truncate|wipe|wiping|erase|erasing|purge|purging|remove|removing|"
            r"clear(?:\s+out)?|empty|destroy|reset|overwrite|overwriting|zero(?:\s+out)?|revoke|unsubscribe|cancel|"
            r"nuke|obliterate|uninstall|unpublish|unregister|deregister|decommission|deprovision|terminate|"
            r"tear\s+down|take\s+down|unlink|discard|shred|force[- ]delete|void|close|decline|reject|withdraw|retire|"
            r"write[- ]off|expire|deactivate|invalidate|downgrade|cull|bin|hand\s+back|give\s+up|surrender|"
            r"relinquish|evict|scrap|dispose\s+of|flush|forfeit|refund)")
_CONTAINER = (r"(?:tables?|databases?|db|dbs|schemas?|topics?|buckets?|indexes|indices|clusters?|collections?|"
              r"repos?|repository|branch(?:es)?|volumes?|namespaces?|accounts?|profiles?|histor(?:y|ies)|logs?|"
              r"records|backups?|archives?|snapshots?|releases?|versions?|packages?|images?|deployments?)")
#: a protected target: production itself, or the main line of a repository
_PROTECTED = r"(?:prod|production|(?:on|to|from|of|in)\s+(?:the\s+)?(?:main|master)(?:\s+branch)?(?=\s*(?:[,.;!?]|$|\s+(?:in|on|and|branch|of))))"
#: safeguards that a request switches off
_SAFEGUARD = (r"(?:protections?|protected|safeguards?|guard\s*rails?|retention|backups?|versioning|deletion\s+lock|locks?|"
              r"alarms?)")
#: one unit of the gap between a Japanese bulk word and its verb: a character, or a whole Latin word or
#: identifier ("全部のbookingを削除して": the object "booking" counts as one, as 予約 would)
_JA_GAP = r"(?:[A-Za-z0-9_.\-]+|\S)"
#: the Japanese destroying or irreversible verbs after a bulk word (docs/formats.md §6.11): delete, erase, reset,
#: overwrite, discard, clear, initialise, uninstall, drop, cancel, revoke ...; 返金 (refund) is added where a bulk
#: word stands before the verb, not where it modifies the object
_JA_DESTROY = (r"削除|消し|消す|消去|リセット|上書き|破棄|クリア|初期化|アンインストール|ドロップ|キャンセル|取り消し|取消|解約|"
               r"無効化|無効に|剥奪|抹消|失効|非公開|解除|却下|取り下げ|閉鎖")
_DESTRUCTIVE = [
    re.compile(r"\brm\s+-(?:rf|fr|r|f)\b", _I),
    re.compile(r"\bforce[- ]push(?:ed|ing)?\b", _I),
    re.compile(r"\bpush\s+(?:-f|--force(?:-with-lease)?)\b", _I),
    re.compile(r"\bgit\s+reset\s+--hard\b", _I),
    # a destroying verb done in bulk: "bulk-delete the drafts", "mass cancel the bookings"
    re.compile(rf"\b(?:bulk|mass)[- ]?{_DESTROY}\b", _I),
    re.compile(r"\bfactory[- ]reset\b", _I),
    # a whole list or count as the object of a destroying verb: "Delete the Klaviyo newsletter list", "Wipe the
    # stock counts" (a newcomer's shop; not "delete the draft from the list": one item)
    re.compile(r"\b(?:delete|purge|wipe|erase|empty|nuke|destroy|drop|truncate|clear\s+out)\s+(?:the|our|this|that)\s+"
               r"(?:(?!from\b|of\b|in\b|on\b)[\w-]+\s+){0,3}?(?:lists|list|subscribers|counts|stock\s+levels)\b", _I),
    # dbt's full refresh drops an incremental model's table and its history before rebuilding it
    re.compile(r"(?<![\w-])--full-refresh\b", _I),
    # stored work redone in bulk from nothing: "Rebuild every incremental model from scratch", "retag the whole
    # archive from scratch" (what was there is overwritten)
    re.compile(rf"\b(?:rebuild|recreate|redo|regenerate|retag|reprocess|reindex|reload|rewrite|reimport|re-import|"
               rf"reingest|re-ingest|reclassify|recategori[sz]e)\b(?:\W+[\w-]+){{0,8}}?\W+{_BULK}\b"
               r"[^.;!?\n]{0,60}?\bfrom\s+scratch\b", _I),
    re.compile(r"\b(?:all|every|everything|the\s+whole|the\s+entire)\b(?:\W+\w+){0,3}?\W+"
               r"(?:deleted|wiped|erased|purged|removed|destroyed|dropped|overwritten|uninstalled|unpublished)\b", _I),
    # money paid back in bulk: "Issue refunds to all clients who paid for the cancelled class"
    re.compile(rf"\b(?:issue|send|process|give|pay)\s+(?:out\s+)?(?:full\s+|partial\s+)?refunds\b(?:\W+\w+){{0,3}}?\W+{_BULK}\b", _I),
    # a status set in bulk: "Mark all samples in the LIMS as destroyed", "flag every open claim as void"
    re.compile(rf"\b(?:mark|set|flag|record)\b(?:\W+\w+){{0,2}}?\W+{_BULK}\b(?:\W+[\w-]+){{0,6}}?\W+as\s+"
               r"(?:destroyed|deleted|lost|void(?:ed)?|closed|cancell?ed|expired|written[- ]off|disposed|dead|"
               r"withdrawn|rejected|declined)\b", _I),
    re.compile(rf"\b(?:delete|drop|truncate|destroy|wipe|purge|nuke|erase|uninstall|unpublish|terminate|decommission)\b"
               rf"(?:\W+\w+){{0,3}}?\W+{_CONTAINER}\b", _I),
    # safeguards switched off: "turn off branch protection", "disable versioning"
    re.compile(rf"\b(?:disable|disabling|turn(?:ing)?\s+off|switch(?:ing)?\s+off|remove|removing|lift|drop)\b"
               rf"(?:\W+[\w-]+){{0,3}}?\W+{_SAFEGUARD}\b", _I),
    # everything scaled to nothing: "scale every deployment in prod to zero"
    re.compile(r"\bscale\b(?:\W+[\w-]+){0,8}?\W+(?:to|down\s+to)\s+(?:zero|0)\b(?!\.\d|\s*%)", _I),
    re.compile(r"\b(?:no|without)\s+(?:a\s+|any\s+)?(?:backups?|dry[- ]run|checks?|checking|confirmation|testing|tests?|"
               r"review|approval|sign[- ]off)\b"
               r"(?:\s+(?:needed|required|necessary))?", _I),
    re.compile(r"\bno\s+need\s+to\s+(?:check|keep|confirm|back\s*up|review|verify)\b", _I),
    re.compile(r"全件削除|全削除|本番データ削除|物理削除|一括削除|一括返金|完全削除"),
    # 全 alone, but not 全額 (the full amount: "全額返金" is one refund in full), 全然 (not at all), 全角 (full-width)
    re.compile(rf"(?:全部|ぜんぶ|すべて|全て|一括|一斉|丸ごと|まるごと|まとめて|一気に|根こそぎ|みんな|全(?![額然角]))"
               rf"{_JA_GAP}{{0,8}}?(?:返金|{_JA_DESTROY})"),
    re.compile(r"(?:削除|消去|上書き|初期化)\S{0,3}?(?:全部|すべて|全て)"),
    # a bulk word that modifies the object itself, however long the object ("全てのマイグレーションを削除して",
    # "全ての振り返り資料を削除して": katakana and kanji are one character each, so the gap above was too short;
    # 全 alone only before a katakana or Latin word, "全マイグレーション": "全部終わったら古いログを削除" is no bulk)
    re.compile(r"(?:(?:全部|すべて|全て|一切)の|全(?=[\u30a1-\u30ffA-Za-z]|(?![額然角力般文部])[\u4e00-\u9fff]))"
               rf"[^、。，．,.!！?？\s]{{1,24}}?を\s*(?:{_JA_DESTROY})"),
    # production or the main branch as the object (本番の…を削除 / 初期化)
    re.compile(rf"(?:本番|プロダクション|mainブランチ){_JA_GAP}{{0,12}}?(?:削除|消し|消す|消去|リセット|初期化|破棄|ドロップ|"
               r"アンインストール|強制プッシュ)"),
    re.compile(r"(?:保護|バックアップ|バージョニング)\S{0,4}?(?:を|は)?(?:無効|解除|オフ|外)"),
]

#: a destroying verb, found once per task; what follows it is matched from there (one pass over a long task)
_DESTROY_VERB = re.compile(rf"\b{_DESTROY}\b", _I)
_AFTER_VERB = [
    # a bulk object: "delete every row", "uninstall everything"
    re.compile(rf"(?:\W+\w+){{0,6}}?\W+{_BULK}\b", _I),
    # a bulk adverbial closes the clause further on: "Delete last year's timesheets and clock-ins, the lot"
    re.compile(rf"(?:\W+\w+){{0,10}}?\W+{_BULK_AFTER}\b", _I),
    # production or the main branch: "terminate the batch instances in production"
    re.compile(rf"(?:\W+[\w-]+){{0,6}}?\W+{_PROTECTED}\b", _I),
]

#: a destroying verb in the progressive after a verb of duration is a symptom, not a request ("keeps dropping")
_SYMPTOM = re.compile(r"\b(?:keeps?|kept|is|are|was|were|been|be|stops?|stopped|starts?|started|went|goes|'s|'re)"
                      r"(?:\s+on)?\s+$", _I)
#: "every ten minutes": a bulk word that counts time is a frequency, not the object
_FREQUENCY = re.compile(r"\s*(?:\d+|few|couple|other|single|one|two|three|five|ten|fifteen|thirty|so)?\s*"
                        r"(?:of\s+(?:the\s+)?)?(?:seconds?|minutes?|mins?|hours?|hrs?|days?|nights?|weeks?|months?|"
                        r"years?|mornings?|evenings?|time|times|often|now\s+and\s+then|\d+)\b", _I)
_BULK_WORD = re.compile(r"(?:every|each|all)$", _I)


#: closing a period of the books is routine work, whatever it spans: "close the month for all entities"
_CLOSE_PERIOD = re.compile(r"close\s+(?:out\s+)?(?:the\s+|this\s+|last\s+)?(?:month|year|quarter|period|books|day|"
                           r"week|ledgers?|accounts\s+for\s+the)\b", _I)


def _request(task: str, start: int, end: int, said: str) -> bool:
    """False when the intent found at ``[start, end)`` is a symptom or a
    frequency rather than a request: "keeps dropping every 10 minutes"; or
    routine work: a period of the books closed ("close the month for all
    entities")."""
    if _CLOSE_PERIOD.match(said):
        return False
    if _SYMPTOM.search(task[max(0, start - 20):start]) and re.match(r"\w+ing\b", said, _I):
        return False
    if _BULK_WORD.search(said) and _FREQUENCY.match(task, end):
        return False
    return True


#: the characters besides "\n" that end a line (those of :meth:`str.splitlines`: a lone "\r", "\v", "\f", the
#: file, group and record separators, NEL, the line and paragraph separators), each read as "\n": a fake role line
#: after a bare carriage return starts a line as much as one after a line feed (docs/formats.md §6.11)
_LINE_ENDS = str.maketrans(dict.fromkeys("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\n"))


@functools.lru_cache(maxsize=8)  # steering() and destructive() fold the same task, one after the other
def folded(task: str) -> tuple[str, tuple[int, ...] | None]:
    """``task`` as the safety checks read it (docs/formats.md §6.11): each
    character NFKC-normalised (full-width ``ＳＹＳＴＥＭ`` is ``SYSTEM``, as
    the matcher reads it, §6.8), the invisible format characters (Unicode
    category Cf: zero-width space and joiners, bidi controls) dropped, so
    ``ign\u200bore`` is ``ignore``, and every line end read as ``"\n"``
    (:data:`_LINE_ENDS`: ``"review my diff\rSYSTEM: ..."`` holds a role
    line). Returns ``(text, starts)``: ``starts[i]`` is the index in
    ``task`` of the character that gave ``text[i]``, with
    ``starts[len(text)] == len(task)``; ``starts`` is None when ``text``
    holds ``task``'s characters one for one (ASCII, or nothing dropped or
    widened)."""
    task_lf = task.translate(_LINE_ENDS)
    if task_lf.isascii():
        return task_lf, None
    chars: list[str] = []
    starts: list[int] = []
    changed = False
    for i, c in enumerate(task_lf):
        if c.isascii():
            chars.append(c)
            starts.append(i)
            continue
        if unicodedata.category(c) == "Cf":
            changed = True
            continue
        n = unicodedata.normalize("NFKC", c)
        changed = changed or n != c
        chars.extend(n)
        starts.extend([i] * len(n))
    if not changed:
        return task_lf, None
    starts.append(len(task))
    return "".join(chars), tuple(starts)


def _on_task(task: str, spans: list[tuple[int, int]], starts: tuple[int, ...] | None) -> list[Signal]:
    """Spans found on :func:`folded` text, given back on ``task`` as typed
    (start of the first character, end of the last one's source)."""
    out = []
    for a, b in spans:
        if starts is not None:
            a, b = starts[a], (starts[b - 1] + 1 if b > a else starts[a])
        out.append((a, b, task[a:b].strip()))
    return sorted(set(out))


def steering(task: str, work: Callable[[], Sequence[tuple[int, int]]] | None = None) -> list[Signal]:
    """Spans of text that try to steer the router (docs/formats.md §6.11),
    in task order, as ``(start, end, text)`` on ``task`` as typed (the
    patterns read :func:`folded` text); ``[]`` for an ordinary request.
    ``work``, when given, returns the spans (character offsets into
    ``task``) of the registry's trigger phrases the task holds: an order to
    skip or ignore a word inside one is about that work, not the router's
    checks ("Skip the fact check, it's done"), and is no steering; it is
    called only when such an order is found."""
    text, starts = folded(task)
    spans = [m.span() for rx in _STEERING for m in rx.finditer(text)]
    phrases = None
    for m in _BYPASS.finditer(text):
        if work is not None:
            a, b = m.span("what")
            if starts is not None:
                a, b = starts[a], starts[b - 1] + 1
            if phrases is None:
                phrases = work()
            if any(x <= a and b <= y for x, y in phrases):
                continue
        spans.append(m.span())
    return _on_task(task, spans, starts)


def destructive(task: str) -> list[Signal]:
    """Spans of the built-in destructive intents (docs/formats.md §6.11), in
    task order, as ``(start, end, text)`` on ``task`` as typed (the patterns
    read :func:`folded` text)."""
    text, starts = folded(task)
    return _on_task(task, _destructive_spans(text), starts)


def _destructive_spans(task: str) -> list[tuple[int, int]]:
    out = []
    for v in _DESTROY_VERB.finditer(task):
        for rx in _AFTER_VERB:
            m = rx.match(task, v.end())
            if m is not None and _request(task, v.start(), m.end(), task[v.start():m.end()]):
                out.append((v.start(), m.end()))
    for rx in _DESTRUCTIVE:
        for m in rx.finditer(task):
            if _request(task, m.start(), m.end(), m.group()):
                out.append((m.start(), m.end()))
    return out

"""routelens's own YAML reader: parse events -> a node tree with exact
positions, and the rules of reading of docs/formats.md §1.

The registry, a line range's fragment, a cases file and a SKILL.md's
frontmatter are all read from YAML *parse events* (ruamel.yaml's C
parser), never from a constructed document, so that:

- every scalar is the text written in the file (``yes``, ``3.10`` and
  ``0123`` stay strings; docs/formats.md §1, "Rules of reading");
- an alias keeps its *own* position (a parser's composed node for ``*x``
  points at the anchor), so canonical line ranges are exact (§2);
- object-building tags are refused before anything is constructed;
- alias expansion and nesting are bounded (``LIMITS``: no "billion laughs").

Positions are character indices into the canonical text; lines are
counted from them, never from the parser's own line counter: parsers count
U+0085/U+2028/U+2029 as line breaks, YAML 1.2 and editors do not (§2), so
those characters are masked before parsing (:func:`mask_separators`).

The reader (:class:`Reader`, :class:`Node`, the kinds :data:`SCALAR`,
:data:`SEQ`, :data:`MAP`, :data:`ALIAS`) is public inside the package: the
registry's validation, the JSON Schema's text tree and the cases reader
walk its nodes.
"""

from __future__ import annotations

from typing import Any, Callable

from ruamel.yaml import events as ev

from routelens.errors import Diagnostic, RegistryError, RoutelensError
from routelens.limits import LIMITS
from routelens.text import yaml_spaces, yaml_words
from routelens.text.canonical import LineCounter, decode_canonical, dedent_range, range_cut

try:  # the C parser is ~10x faster; ruamel.yaml 0.19 needs ruamel.yaml.clib for it
    from ruamel.yaml.cyaml import CParser as _CParser
except Exception:  # pragma: no cover - exercised only without the clib
    _CParser = None

__all__ = ["SCALAR", "SEQ", "MAP", "ALIAS", "NULL_WORDS", "TRUE_WORDS", "FALSE_WORDS", "SAFE_TAGS", "Node", "Reader",
           "ReadStoppedError", "expanded_size", "join_path", "mask_separators", "unmask", "sorted_unique",
           "compose_bytes", "parse_fragment"]

#: Plain scalars that mean null (docs/formats.md §1: an error where a string is required).
NULL_WORDS = frozenset({"", "~", "null", "Null", "NULL"})
#: Plain scalars that mean true / false where routelens takes a boolean (``forced``).
TRUE_WORDS = frozenset({"true", "True", "TRUE"})
FALSE_WORDS = frozenset({"false", "False", "FALSE"})
#: Tags that build nothing; any other explicit tag is refused (docs/formats.md §1).
SAFE_TAGS = frozenset(
    {"tag:yaml.org,2002:str", "tag:yaml.org,2002:seq", "tag:yaml.org,2002:map", "!"}
)

SCALAR, SEQ, MAP, ALIAS = 0, 1, 2, 3
_NO_ITEMS: tuple = ()


class _Raise:
    """Stands, among events to read again, for the exception the parser
    raised after them."""

    __slots__ = ("exc",)

    def __init__(self, exc: Exception):
        self.exc = exc


class Node:
    """A parse-event node. ``start``/``end`` are character indices into the
    canonical text; ``plain`` tells a plain (unquoted) scalar, ``block`` a
    block scalar (``|``/``>``), ``flow`` a flow collection (``[...]``/``{...}``,
    from the parser's event, so a tag or anchor before the bracket does not
    matter). ``size`` is the number of nodes the node expands to (aliases
    followed), computed on demand (-1 until then)."""

    __slots__ = ("kind", "start", "end", "value", "plain", "items", "anchor", "target", "size", "block", "flow")

    def __init__(self, kind: int, start: int, end: int, value: Any = None, plain: bool = False,
                 items: Any = _NO_ITEMS, size: int = 1):
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.plain = plain
        self.items = items
        self.anchor: str | None = None
        self.target: Node | None = None
        self.size = size
        self.block = False
        self.flow = False


class ReadStoppedError(RoutelensError):
    """Reading stopped (a syntax error, a second document, an alias bomb, too
    deep, too many errors); the diagnostics were recorded on the
    :class:`Reader` already."""


class Reader:
    """Turns text into a node tree and collects diagnostics.

    ``fragment_offset`` (lines) and ``column_offset`` (characters) shift the
    reported positions, for a fragment cut out of a bigger file."""

    def __init__(self, text: str, display: str, fragment_offset: int = 0, column_offset: int = 0):
        self.text = text
        self.display = display
        self.errors: list[Diagnostic] = []
        self.warnings: list[Diagnostic] = []
        self._lines = LineCounter(text)
        self.fragment_offset = fragment_offset
        self.column_offset = column_offset
        self.alias_total = 0
        #: True once an alias was read (entries then need the self-containment walk)
        self.has_alias = False
        #: ids of mappings with a refused second '<<' (their missing keys are not reported again)
        self.bad_merge: set[int] = set()
        #: id(key node) -> Skill or None, for skills validated while composing
        self.streamed: dict[int, Any] = {}
        #: give refused tags, alias bombs and too-deep nesting their key path
        self.compose_paths = False
        #: set when reading stopped at LIMITS["max_errors"] (reported last)
        self.limit_note: Diagnostic | None = None

    # positions ---------------------------------------------------------
    @property
    def line_starts(self) -> list[int]:
        """Character index of the start of each canonical line (only LF ends a line here)."""
        return self._lines.starts

    def line_of(self, index: int) -> int:
        """1-based line of a character index (counted: :class:`~routelens.text.canonical.LineCounter`)."""
        return self._lines.line_of(index)

    def pos(self, index: int) -> tuple[int, int]:
        """(1-based line, 1-based column) of a character index (the end of a
        text that ends with a line break is line N+1, column 1, as parsers
        and editors report an unexpected end of file)."""
        line, col = self._lines.pos(index)
        return line + self.fragment_offset, col + self.column_offset

    def error(self, index: int, key_path: str, message: str) -> None:
        """Record an error at character ``index``; raises :class:`ReadStoppedError`
        once ``LIMITS["max_errors"]`` errors are recorded."""
        line, col = self.pos(index)
        self.errors.append(Diagnostic(self.display, line, col, key_path, message))
        if len(self.errors) >= LIMITS["max_errors"]:
            self.limit_note = Diagnostic(self.display, line, col, "",
                                         f"too many errors: stopped after {LIMITS['max_errors']}")
            raise ReadStoppedError()

    def warn(self, index: int, key_path: str, message: str) -> None:
        """Record a warning at character ``index``."""
        line, col = self.pos(index)
        self.warnings.append(Diagnostic(self.display, line, col, key_path, message, "warning"))

    # composing ---------------------------------------------------------
    def compose(self, text: str, back: dict[str, str] | None = None,
                on_skill: Callable[[Node, Node], None] | None = None,
                fast_skill: Callable[[Node, Any, Callable[[], Any], list], Node | None] | None = None,
                ) -> Node | None:
        """Compose the single document of ``text`` into nodes; None when the
        stream holds no document. Records every error it can (refused tags,
        duplicate keys, null or non-scalar keys, a second ``<<`` in a mapping,
        a bad merge value) with its key path, and raises ``ReadStoppedError`` on what
        stops reading: a syntax error, a second document, an alias bomb, an
        undefined alias, nesting deeper than ``LIMITS["max_depth"]``.

        ``back`` maps the placeholder characters of :func:`mask_separators`
        back to the line separators (applied to every scalar as it is read).
        ``on_skill(key, value)`` is called for each block-mapping entry of the
        top-level ``skills`` mapping as soon as it is complete; the entry's
        children are dropped afterwards (unless it is anchored), so memory
        stays bounded by the biggest entry, not the whole registry.

        ``fast_skill(key, start_event, get, taken)``, when given, is offered
        each block-mapping entry of ``skills`` first, at its
        ``MappingStartEvent`` (no anchor, no tag): it reads the entry's
        events itself with ``get``, appending each to ``taken``, and returns
        the entry's value node (already validated: no ``on_skill`` call for
        it) or None, and then the events in ``taken`` are read again here,
        the general way. It is not used when ``back`` maps anything."""
        if _CParser is not None:
            parser = _CParser(text)
            get = parser.get_event
        else:  # pragma: no cover
            from ruamel.yaml import YAML

            it = iter(YAML(typ="safe", pure=True).parse(text))
            get = it.__next__
        get = yaml_spaces.watch(get, text, lambda i: self.pos(i)[0])  # a line indented with U+3000 stops reading
        anchors: dict[str, Node] = {}
        stack: list[Node] = []
        cur: list | None = None  # items of the innermost open collection
        root: Node | None = None
        documents = 0
        max_depth = LIMITS["max_depth"]
        new_node = Node
        K_SCALAR, K_SEQ, K_MAP, K_ALIAS = SCALAR, SEQ, MAP, ALIAS
        ScalarEvent, AliasEvent = ev.ScalarEvent, ev.AliasEvent
        MappingStartEvent, SequenceStartEvent = ev.MappingStartEvent, ev.SequenceStartEvent
        MappingEndEvent, SequenceEndEvent = ev.MappingEndEvent, ev.SequenceEndEvent
        DocumentStartEvent, StreamEndEvent = ev.DocumentStartEvent, ev.StreamEndEvent
        safe_tags = SAFE_TAGS
        null_words = NULL_WORDS
        table = {ord(k): v for k, v in back.items()} if back else None
        #: (errors, warnings) counts before the last entry validated by on_skill, until
        #: the next node starts: a syntax error right after an entry may have cut it short,
        #: and then what its validation said is noise
        just_streamed: tuple[int, int] | None = None
        skills_key: Node | None = None  # the top-level `skills` key whose entries are streamed
        #: events to read again (last first) after fast_skill declined an entry
        replay: list = []
        if table is not None or max_depth <= 4:
            fast_skill = None  # the fast reader neither unmasks nor counts depth
        try:
            while True:
                try:
                    if replay:
                        e = replay.pop()
                        if type(e) is _Raise:
                            raise e.exc
                    else:
                        e = get()
                except Exception as exc:  # ruamel's MarkedYAMLError, ReaderError, ...
                    if just_streamed is not None:
                        del self.errors[just_streamed[0]:]
                        del self.warnings[just_streamed[1]:]
                    self._syntax_error(exc, stack)
                    raise ReadStoppedError() from None
                cls = type(e)
                if cls is ScalarEvent:
                    just_streamed = None
                    style = e.style
                    value = e.value if table is None else e.value.translate(table)
                    node = new_node(K_SCALAR, e.start_mark.index, e.end_mark.index, value, not style)
                    if style == "|" or style == ">":
                        node.block = True
                    if e.ctag is not None and e.tag not in safe_tags and not (not style and e.tag == "?"):
                        self._refuse_tag(e, stack)
                    if e.anchor is not None:
                        node.anchor = e.anchor
                        anchors[e.anchor] = node
                elif cls is MappingEndEvent or cls is SequenceEndEvent:
                    node = stack.pop()
                    node.end = e.end_mark.index
                    cur = stack[-1].items if stack else None
                    if cls is MappingEndEvent and node.items:
                        # every mapping is checked once, where it is written
                        keys = node.items[0::2]
                        names = {k.value for k in keys}
                        if (len(names) != len(keys) or None in names or True in names or "<<" in names
                                or not names.isdisjoint(null_words)):
                            self._check_mapping(node, stack)
                        else:
                            node.value = True  # clean: distinct scalar keys, no merge, no null key
                        if on_skill is not None and len(stack) == 2:
                            top, sect = stack
                            key = sect.items[-1] if len(sect.items) % 2 else None
                            name = top.items[-1] if len(top.items) % 2 else None
                            if (key is not None and name is not None and sect.kind == K_MAP and not sect.flow
                                    and name.kind == K_SCALAR and name.plain and name.value == "skills"
                                    and (skills_key is None or skills_key is name)  # not a duplicate `skills:`
                                    and key.kind == K_SCALAR and not (key.plain and key.value in ("<<", *null_words))):
                                skills_key = name
                                just_streamed = (len(self.errors), len(self.warnings))
                                on_skill(key, node)
                                if node.anchor is None:
                                    node.items = []  # validated: let the children go
                    if node.anchor is not None:
                        anchors[node.anchor] = node
                elif cls is MappingStartEvent or cls is SequenceStartEvent:
                    just_streamed = None
                    if (fast_skill is not None and len(stack) == 2 and cls is MappingStartEvent and not replay
                            and not e.flow_style and e.anchor is None and e.ctag is None):
                        top, sect = stack
                        key = sect.items[-1] if len(sect.items) % 2 else None
                        name = top.items[-1] if len(top.items) % 2 else None
                        if (key is not None and name is not None and sect.kind == K_MAP and not sect.flow
                                and name.kind == K_SCALAR and name.plain and name.value == "skills"
                                and (skills_key is None or skills_key is name)
                                and key.kind == K_SCALAR and not (key.plain and key.value in ("<<", *null_words))):
                            taken = [e]
                            try:
                                value = fast_skill(key, e, get, taken)
                            except Exception as exc:  # the parser's: read what was taken, then report it
                                value = None
                                taken.append(_Raise(exc))
                            if value is not None:
                                skills_key = name
                                just_streamed = (len(self.errors), len(self.warnings))
                                cur.append(value)  # type: ignore[union-attr]
                                continue
                            taken.reverse()
                            replay = taken
                            replay.pop()  # e itself, read the general way just below
                    node = new_node(K_MAP if cls is MappingStartEvent else K_SEQ, e.start_mark.index,
                                e.end_mark.index, None, False, [], -1)
                    node.flow = bool(e.flow_style)
                    if e.ctag is not None and e.tag not in safe_tags:
                        self._refuse_tag(e, stack)
                    node.anchor = e.anchor
                    if len(stack) >= max_depth:
                        self.error(node.start, self._path_for_error(stack), f"nesting deeper than {max_depth} levels")
                        raise ReadStoppedError()
                    stack.append(node)
                    cur = node.items
                    continue
                elif cls is AliasEvent:
                    just_streamed = None
                    target = anchors.get(e.anchor)
                    node = new_node(K_ALIAS, e.start_mark.index, e.end_mark.index)
                    self.has_alias = True
                    if target is None:
                        self.error(node.start, self._path_for_error(stack),
                                   f"alias *{e.anchor} has no anchor defined before it")
                        raise ReadStoppedError()
                    node.target = target
                    size = node.size = expanded_size(target)
                    if size > LIMITS["max_alias_expansion"]:
                        self.error(
                            node.start, self._path_for_error(stack),
                            f"alias *{e.anchor} expands to {size} nodes, more than the limit "
                            f"{LIMITS['max_alias_expansion']} (alias bomb?)",
                        )
                        raise ReadStoppedError()
                    self.alias_total += size
                    if self.alias_total > LIMITS["max_total_alias_expansion"]:
                        self.error(
                            node.start, self._path_for_error(stack),
                            f"aliases expand to more than {LIMITS['max_total_alias_expansion']} nodes in all "
                            "(alias bomb?)",
                        )
                        raise ReadStoppedError()
                elif cls is DocumentStartEvent:
                    documents += 1
                    if documents > 1:
                        self.error(
                            e.start_mark.index, "",
                            "a second YAML document: the registry must be a single document",
                        )
                        break  # the first document is still validated: every error said at once (§1.3)
                    continue
                elif cls is StreamEndEvent:
                    break
                else:
                    continue
                # a completed node (scalar, alias, finished collection)
                if cur is not None:
                    cur.append(node)
                else:
                    root = node
        except (ReadStoppedError, RecursionError, MemoryError):
            raise
        except Exception as exc:  # pragma: no cover - a bug: report it, never a traceback
            self.error(0, self._stack_path(stack), f"internal error while reading: {type(exc).__name__}: {exc}")
            raise ReadStoppedError() from None
        return root

    def _path_for_error(self, stack: list[Node]) -> str:
        """Key path for an error found while composing: only when
        ``compose_paths`` (the registry reader), "" for fragments (whose
        callers word their own messages)."""
        return self._stack_path(stack) if self.compose_paths else ""

    def _stack_path(self, stack: list[Node]) -> str:
        """Key path of the next node to be added to the innermost open
        collection (computed only when an error is reported)."""
        path = ""
        for n in stack:
            items = n.items
            if n.kind == MAP:
                if len(items) % 2 == 1:
                    k = self.deref(items[-1])
                    path = join_path(path, k.value if k.kind == SCALAR else "?")
            else:
                path = f"{path}[{len(items)}]"
        return path

    def _check_mapping(self, node: Node, stack: list[Node]) -> None:
        """Report the mapping's bad keys once, at the place it is written:
        duplicates, null keys, non-scalar keys, a second ``<<``, a ``<<``
        whose value is not a mapping or a list of mappings."""
        path = self._stack_path(stack)
        items = node.items
        seen: dict[str, Node] = {}
        merge: Node | None = None
        empty: Node | None = None  # the last key without a value: an entry's id indented one level too deep?
        told: Node | None = None  # the empty key already reported
        for i in range(0, len(items) - 1, 2):
            knode, vnode = items[i], items[i + 1]
            kd = self.deref(knode)
            if kd.kind != SCALAR:
                self.error(knode.start, path, "a mapping key must be a plain string, not a list or a mapping")
                continue
            key = kd.value
            if kd.plain and key == "<<":
                if merge is not None:
                    self.bad_merge.add(id(node))
                    self.error(knode.start, join_path(path, "<<"),
                               f"a second merge key '<<' in the same mapping (the first is on line "
                               f"{self.pos(merge.start)[0]}; only one is allowed)")
                    continue
                merge = knode
                src = self.deref(vnode)
                srcs = [src] if src.kind == MAP else (
                    [self.deref(s) for s in src.items] if src.kind == SEQ else [])
                if not srcs or any(s.kind != MAP for s in srcs):
                    self.error(vnode.start, join_path(path, "<<"), "a merge key '<<' needs a mapping or a list of mappings")
                continue
            if kd.plain and key in NULL_WORDS:
                shown = f"{key!r} " if key else ""
                self.error(knode.start, path, f"a null key {shown}(write the key as text, quoted if you mean the word)")
                continue
            if key in seen:
                first = self.pos(seen[key].start)[0]
                if empty is not None and empty.start > seen[key].start:
                    if told is not empty:  # one error where the fault is (a newcomer's "    pr-creation:" gave 4 dups)
                        told, name = empty, self.deref(empty).value
                        self.error(empty.start, join_path(path, name), f"{name!r} has no value and is indented like "
                                   f"the keys above it, so the keys below it repeat theirs ({key!r}, first on line "
                                   f"{first}): if {name!r} starts a new entry, indent it like the other ids")
                    continue
                self.error(knode.start, join_path(path, key), f"duplicate key (first defined on line {first})")
                continue
            seen[key] = knode
            if (vd := self.deref(vnode)).kind == SCALAR and vd.plain and vd.value in NULL_WORDS:
                empty = knode

    def _refuse_tag(self, e: Any, stack: list[Node]) -> None:
        tag = str(e.tag)
        if tag.startswith("tag:yaml.org,2002:"):
            tag = "!!" + tag[len("tag:yaml.org,2002:"):]
        self.error(e.start_mark.index, self._path_for_error(stack),
                   f"tag {tag} is not allowed: routelens never builds objects from the registry")

    def _syntax_error(self, exc: Exception, stack: list[Node]) -> None:
        # The key path stays empty where the parser stopped: that is not always
        # the entry at fault (a bad indentation closes the entry above). An
        # unclosed quote names the key where it opened, read from the text.
        # The person's words (text/yaml_words.py) first, the parser's after them.
        if isinstance(exc, yaml_spaces.NonAsciiIndentationError):  # not the parser's: these words alone
            return self.error(exc.index, "", f"YAML syntax error: {exc.words}")
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        context = getattr(exc, "context", None)
        at = getattr(mark, "index", None)
        if at is None and getattr(exc, "position", None) is not None:  # ReaderError: a position, no mark; libyaml's
            at = len(self.text.encode("utf-8")[:exc.position].decode("utf-8", "ignore"))  # counts UTF-8 bytes
        index = None if at is None else min(at, len(self.text))
        cat = getattr(getattr(exc, "context_mark", None), "index", None)
        cindex = None if cat is None else min(cat, len(self.text))
        parser = f"{problem} {context}" if context else problem
        words = yaml_words.explain(self.text, problem, context, index, cindex, lambda i: self.pos(i)[0])
        if words is None:
            message = f"YAML syntax error: {problem}" + (f" ({context})" if context else "")
            self.error(index or 0, "", message)
            return
        where = "" if index is None or words.index == index else ", at line {}, column {}".format(*self.pos(index))
        self.error(words.index, words.path, f"YAML syntax error: {words.words} (YAML parser: {parser}{where})")

    # helpers -----------------------------------------------------------
    def deref(self, node: Node) -> Node:
        """The node an alias stands for (``node`` itself when it is no alias)."""
        while node.kind == ALIAS:
            node = node.target  # type: ignore[assignment]
        return node

    def mapping_pairs(self, node: Node, path: str) -> list[tuple[str, Node, Node]]:
        """Effective (key, key node, value node) pairs of a mapping: explicit
        keys first, then keys merged through one ``<<`` that the mapping does
        not set itself. Keys are the text as written. Bad keys (duplicates,
        null, non-scalar, a second ``<<``) were reported by :meth:`compose`
        and are skipped here (the first of duplicates wins)."""
        node = self.deref(node)
        items = node.items
        if node.value is True:  # checked clean by compose
            keys = items[0::2]
            return list(zip([k.value for k in keys], keys, items[1::2]))
        pairs: list[tuple[str, Node, Node]] = []
        seen: set[str] = set()
        merge: Node | None = None
        for i in range(0, len(items) - 1, 2):
            knode, vnode = items[i], items[i + 1]
            kd = knode if knode.kind == SCALAR else self.deref(knode)
            if kd.kind != SCALAR:
                continue
            key = kd.value
            if kd.plain and (key == "<<" or key in NULL_WORDS):
                if key == "<<" and merge is None:
                    merge = vnode
                continue
            if key in seen:
                continue
            seen.add(key)
            pairs.append((key, knode, vnode))
        if merge is not None:
            sources = self.deref(merge)
            source_nodes = [sources] if sources.kind == MAP else (
                [self.deref(s) for s in sources.items] if sources.kind == SEQ else []
            )
            for src in source_nodes:
                if src.kind != MAP:
                    continue
                for key, knode, vnode in self.mapping_pairs(src, path):
                    if key not in seen:
                        seen.add(key)
                        pairs.append((key, knode, vnode))
        return pairs

    def content_end(self, node: Node) -> int:
        """Character index just after the last content character of a value:
        the last descendant's end, never a collection's end mark (which may
        point at the next key), never the mark of an empty value (which may
        point at the next token); trailing blanks and line breaks are skipped,
        except the trailing line breaks a keep-chomped block scalar (``|+``)
        holds as content."""
        text = self.text
        while node.kind in (MAP, SEQ) and node.items and not node.flow:
            last = node.items[-1]
            if last.kind == SCALAR and last.start == last.end and last.plain and not last.value:
                # an empty value: its mark follows the ':' or '-' indicator on the
                # same line, or (after a `? key` without value) it is the next token
                if last.start > 0 and text[last.start - 1] in ":-":
                    return last.start
                if node.kind == MAP and len(node.items) >= 2:
                    node = node.items[-2]
                    continue
                return max(last.start, node.start)
            node = last
        end = node.end
        if node.kind == SCALAR and node.block and node.value.endswith("\n\n"):
            return end  # |+ : the trailing blank lines are part of the value
        while end > node.start and text[end - 1] in " \t\n":
            end -= 1
        return end

    def uses_outside_alias(self, node: Node, lo: int, hi: int) -> bool:
        """True when ``node`` (not following aliases) holds an alias whose
        anchor is defined outside lines ``lo..hi``."""
        if not self.has_alias:
            return False
        todo = [node]
        while todo:
            n = todo.pop()
            if n.kind == ALIAS:
                line = self.line_of(n.target.start)  # type: ignore[union-attr]
                if not (lo <= line <= hi):
                    return True
            elif n.kind in (MAP, SEQ):
                todo.extend(n.items)
        return False

    def to_python(self, node: Node, path: str) -> Any:
        """Plain JSON-able value: strings as written, plain nulls as None,
        lists, dicts (merge keys applied)."""
        node = self.deref(node)
        if node.kind == SCALAR:
            return None if node.plain and node.value in NULL_WORDS else node.value
        if node.kind == SEQ:
            return [self.to_python(c, f"{path}[{i}]") for i, c in enumerate(node.items)]
        return {k: self.to_python(v, join_path(path, k)) for k, _, v in self.mapping_pairs(node, path)}


def expanded_size(node: Node) -> int:
    """Nodes ``node`` expands to with aliases followed (memoised in ``size``).
    Iterative, so a deep tree cannot exhaust the stack."""
    if node.size >= 0:
        return node.size
    todo = [(node, False)]
    while todo:
        n, done = todo.pop()
        if n.size >= 0:
            continue
        if n.kind == ALIAS:
            t = n.target
            if t.size >= 0:  # type: ignore[union-attr]
                n.size = t.size  # type: ignore[union-attr]
            else:
                todo.append((n, False))
                todo.append((t, False))  # type: ignore[arg-type]
            continue
        if done:
            n.size = 1 + sum(c.size for c in n.items)
            continue
        todo.append((n, True))
        todo.extend((c, False) for c in n.items if c.size < 0)
    return node.size


def join_path(path: str, key: str) -> str:
    """``path.key``, or ``key`` at the top (routelens's key-path notation)."""
    return f"{path}.{key}" if path else key


_LINE_SEPARATORS = "\x85\u2028\u2029"


def mask_separators(text: str) -> tuple[str, dict[str, str]]:
    """Replace U+0085/U+2028/U+2029 by private-use characters absent from the
    text, one character for one, so the parser (which counts them as line
    breaks, YAML 1.1) keeps them as ordinary characters (YAML 1.2)."""
    if not any(c in text for c in _LINE_SEPARATORS):
        return text, {}
    mapping: dict[str, str] = {}
    candidate = 0xE000
    for sep in _LINE_SEPARATORS:
        if sep not in text:
            continue
        while chr(candidate) in text:
            candidate += 1
        mapping[sep] = chr(candidate)
        candidate += 1
    return text.translate({ord(k): v for k, v in mapping.items()}), {v: k for k, v in mapping.items()}


def unmask(node: Node | None, back: dict[str, str]) -> None:
    """Undo :func:`mask_separators` in every scalar under ``node`` (``back``
    maps each placeholder to its line separator)."""
    if node is None or not back:
        return
    table = {ord(k): v for k, v in back.items()}
    todo = [node]
    seen: set[int] = set()
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if n.kind == SCALAR:
            n.value = n.value.translate(table)
        elif n.kind in (MAP, SEQ):
            todo.extend(n.items)


def sorted_unique(diags: list[Diagnostic]) -> list[Diagnostic]:
    """Diagnostics in file order (line, column, key path, message), each once."""
    return sorted(set(diags), key=lambda d: (d.line, d.column, d.key_path, d.message, d.severity))


def parse_fragment(text: str, first_line: int = 1, display: str = "<fragment>") -> dict[str, Any]:
    """Parse the text of one canonical line range (docs/formats.md §2, the
    slicing property): the range is dedented and parsed as a one-key mapping
    with the same reading rules as the registry (text as written, no tags).

    Returns ``{key: value}`` with plain values. Raises :class:`RegistryError`
    (lines counted from ``first_line``) when the text does not parse, e.g.
    because it uses an alias whose anchor lies outside the range.
    """
    cut = range_cut(text)
    body = dedent_range(text, cut)
    parse_text, back = mask_separators(body)
    r = Reader(body, display, fragment_offset=first_line - 1, column_offset=cut)
    try:
        root = r.compose(parse_text, back)
        if root is None or r.deref(root).kind != MAP:
            r.error(0, "", "the range does not hold a mapping entry")
            raise ReadStoppedError()
        value = r.to_python(root, "")
    except ReadStoppedError:
        raise RegistryError(sorted_unique(r.errors) + ([r.limit_note] if r.limit_note else [])) from None
    except RecursionError:
        raise RegistryError([Diagnostic(display, first_line, 1, "", "the range nests too deeply")]) from None
    if r.errors:
        raise RegistryError(sorted_unique(r.errors))
    return value


def compose_bytes(raw: bytes, display: str) -> tuple[Reader, Node | None]:
    """``(reader, root node)`` of YAML bytes read by routelens's reader:
    canonical text (:func:`routelens.text.canonical.decode_canonical`),
    line separators kept as text, every scalar unmasked. The root is None
    for a stream without a document. Mapping-level problems (duplicate or
    null keys, a second ``<<``) are left in ``reader.errors``; raises
    :class:`RegistryError` on what stops reading (bytes that are not UTF-8,
    a syntax error, a second document, an alias bomb, a refused tag)."""
    text = decode_canonical(raw, display)
    parse_text, back = mask_separators(text)
    r = Reader(text, display)
    try:
        root = r.compose(parse_text)
        unmask(root, back)
    except ReadStoppedError:
        raise RegistryError(r.errors) from None
    return r, root

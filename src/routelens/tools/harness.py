"""What the agent harnesses do with the skill listing, from their real
settings where they exist (docs/formats.md §16).

Claude Code lists every skill's name with its description and
``when_to_use`` (the two together cut at a per-entry cap, 1,536 characters
by default) in a budget of ``skillListingBudgetFraction`` (default 1%) of
the model's context window, counted at about 4 characters per token;
``SLASH_COMMAND_TOOL_CHAR_BUDGET`` pins the budget in characters. On
overflow it keeps every name and drops descriptions, least-used first.
``skillOverrides`` sets a skill ``on``, ``name-only``,
``user-invocable-only`` (the model does not see it) or ``off``. Codex
budgets its skills section at 2% of the context window, shortens
descriptions round-robin, then drops skills.

Settings are read from Claude Code's files, highest precedence first:
``<project>/.claude/settings.local.json``, ``<project>/.claude/settings.json``
and ``~/.claude/settings.json`` (``<project>``: the nearest folder at or
above the registry's that holds a ``.claude`` folder, else the registry's
own). ``SLASH_COMMAND_TOOL_CHAR_BUDGET`` comes from the environment, else
from a settings file's ``env``. Third-party sources disagree on the name
of the per-entry setting (``skillListingMaxDescChars`` or
``maxSkillDescriptionChars``): both are read, and the report says which.

Units: characters (Unicode code points). Settings files are read with the
bounded reader (:func:`routelens.fileio.read_bounded`: regular files only,
at most 1 MiB). Nothing here writes a file or imports Textual.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from routelens.errors import FileReadError
from routelens.fileio import read_bounded

__all__ = [
    "CLAUDE_CODE_BUDGET_FRACTION",
    "CLAUDE_CODE_ENTRY_CAP",
    "CODEX_BUDGET_FRACTION",
    "CHARS_PER_TOKEN",
    "DEFAULT_CONTEXT_WINDOW",
    "BUDGET_ENV",
    "FRACTION_KEY",
    "ENTRY_CAP_KEYS",
    "OVERRIDES_KEY",
    "OVERRIDE_STATES",
    "SettingsNote",
    "HarnessSettings",
    "settings_files",
    "read_settings",
]

#: Claude Code budgets its skill listing at 1% of the context window (``skillListingBudgetFraction``).
CLAUDE_CODE_BUDGET_FRACTION = 0.01
#: Claude Code cuts each listing entry's description + when_to_use at 1,536 characters.
CLAUDE_CODE_ENTRY_CAP = 1536
#: Codex budgets its skills section at 2% of the context window.
CODEX_BUDGET_FRACTION = 0.02
#: Characters per token assumed for the estimates (a rough figure for English).
CHARS_PER_TOKEN = 4
#: Context window assumed for the estimates, in tokens (``lint --context-window``).
DEFAULT_CONTEXT_WINDOW = 200_000
#: Environment variable that pins Claude Code's listing budget, in characters.
BUDGET_ENV = "SLASH_COMMAND_TOOL_CHAR_BUDGET"
FRACTION_KEY = "skillListingBudgetFraction"
#: the per-entry cap's names found in third-party material (which one is right is unverified)
ENTRY_CAP_KEYS = ("skillListingMaxDescChars", "maxSkillDescriptionChars")
OVERRIDES_KEY = "skillOverrides"
#: ``skillOverrides`` states and whether the model's listing shows the skill, and its description
OVERRIDE_STATES = {"on": (True, True), "name-only": (True, False), "user-invocable-only": (False, False),
                   "off": (False, False)}
#: largest settings file read, in bytes
MAX_SETTINGS_BYTES = 1024 * 1024


@dataclass(frozen=True)
class SettingsNote:
    """Something wrong or worth saying about a settings file: ``file`` as
    shown, 1-based ``line``/``column`` (1, 1 for the whole file), ``key``
    (dotted, or "") and ``message``."""

    file: str
    line: int
    column: int
    key: str
    message: str


@dataclass
class HarnessSettings:
    """The settings in force, each with where it came from (``source``:
    ``default``, ``$SLASH_COMMAND_TOOL_CHAR_BUDGET``, or ``<file>`` /
    ``env of <file>``).

    ``budget_chars``: Claude Code's pinned budget in characters, or None;
    ``fraction``: ``skillListingBudgetFraction``; ``entry_cap``: the
    per-entry cap and ``entry_cap_key`` the name it was read under (None:
    the default); ``overrides``: skill id -> state; ``files``: the settings
    files read, as shown; ``notes``: problems and remarks."""

    budget_chars: int | None = None
    budget_source: str = "default"
    fraction: float = CLAUDE_CODE_BUDGET_FRACTION
    fraction_source: str = "default"
    entry_cap: int = CLAUDE_CODE_ENTRY_CAP
    entry_cap_source: str = "default"
    entry_cap_key: str | None = None
    overrides: dict[str, str] = field(default_factory=dict)
    overrides_source: str = "default"
    files: list[str] = field(default_factory=list)
    notes: list[SettingsNote] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON-able dict, keys in field order."""
        return {"budget_chars": self.budget_chars, "budget_source": self.budget_source, "fraction": self.fraction,
                "fraction_source": self.fraction_source, "entry_cap": self.entry_cap,
                "entry_cap_source": self.entry_cap_source, "entry_cap_key": self.entry_cap_key,
                "overrides": dict(self.overrides), "overrides_source": self.overrides_source,
                "files": list(self.files),
                "notes": [f"{n.file}:{n.line}:{n.column}: {n.key + ': ' if n.key else ''}{n.message}"
                          for n in self.notes]}


def _project_of(folder: Path) -> Path:
    """The nearest folder at or above ``folder`` holding ``.claude/``, else ``folder``."""
    folder = folder.resolve()
    for f in (folder, *folder.parents):
        if (f / ".claude").is_dir():
            return f
    return folder


def settings_files(registry_path: str | Path, home: str | Path | None = None) -> list[Path]:
    """Claude Code's settings files for a registry, highest precedence
    first (whether they exist or not): the project's ``settings.local.json``
    and ``settings.json``, then the user's (``home``: default the user's
    home folder)."""
    project = _project_of(Path(registry_path).parent)
    user = Path(home) if home is not None else Path.home()
    return [project / ".claude" / "settings.local.json", project / ".claude" / "settings.json",
            user / ".claude" / "settings.json"]


def _show(path: Path, home: Path) -> str:
    try:
        return "~/" + path.resolve().relative_to(home.resolve()).as_posix()
    except ValueError:
        pass
    try:
        return os.path.relpath(path)
    except ValueError:
        return str(path)


def _positive_int(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and value > 0:
        return value
    if isinstance(value, str) and value.strip().isdigit() and int(value) > 0:
        return int(value)
    return None


def read_settings(registry_path: str | Path, env: Mapping[str, str] | None = None,
                  home: str | Path | None = None, skill_ids: set[str] | None = None) -> HarnessSettings:
    """The harness settings in force for the registry at ``registry_path``
    (see the module docstring). ``env``: where ``SLASH_COMMAND_TOOL_CHAR_BUDGET``
    is read (default ``os.environ``); ``home``: the user's home folder
    (default :meth:`Path.home`, i.e. ``$HOME``); ``skill_ids``: the
    registry's skills, to say when ``skillOverrides`` names another. Never
    raises: an unreadable or invalid file becomes a note."""
    env = os.environ if env is None else env
    home_path = Path(home) if home is not None else Path.home()
    st = HarnessSettings()
    found: list[tuple[str, dict]] = []
    for path in settings_files(registry_path, home_path):
        shown = _show(path, home_path)
        try:
            raw = read_bounded(path, MAX_SETTINGS_BYTES, what="settings file", display=shown)
        except FileReadError as exc:
            if exc.kind not in ("missing", "not_a_folder"):
                st.notes.append(SettingsNote(shown, 1, 1, "", f"cannot be read ({exc}): ignored"))
            continue
        try:
            obj = json.loads(raw.decode("utf-8-sig"))
        except json.JSONDecodeError as exc:
            st.notes.append(SettingsNote(shown, exc.lineno, exc.colno, "", f"not valid JSON ({exc.msg}): ignored"))
            continue
        except UnicodeDecodeError as exc:
            st.notes.append(SettingsNote(shown, 1, 1, "", f"not UTF-8 ({exc.reason}): ignored"))
            continue
        if not isinstance(obj, dict):
            st.notes.append(SettingsNote(shown, 1, 1, "", "not a JSON object: ignored"))
            continue
        st.files.append(shown)
        found.append((shown, obj))

    # the pinned budget: the environment, then a settings file's env (highest precedence first)
    pinned = _positive_int(env.get(BUDGET_ENV, ""))
    if pinned is not None:
        st.budget_chars, st.budget_source = pinned, f"${BUDGET_ENV}"
    else:
        for shown, obj in found:
            fenv = obj.get("env")
            if isinstance(fenv, dict) and BUDGET_ENV in fenv:
                value = _positive_int(fenv[BUDGET_ENV])
                if value is None:
                    st.notes.append(SettingsNote(shown, 1, 1, f"env.{BUDGET_ENV}",
                                                 f"{fenv[BUDGET_ENV]!r} is not a positive whole number: ignored"))
                    continue
                st.budget_chars, st.budget_source = value, f"env of {shown}"
                break

    for shown, obj in found:
        if FRACTION_KEY in obj:
            v = obj[FRACTION_KEY]
            if isinstance(v, (int, float)) and not isinstance(v, bool) and 0 < v <= 1:
                st.fraction, st.fraction_source = float(v), shown
                break
            st.notes.append(SettingsNote(shown, 1, 1, FRACTION_KEY, f"{v!r} is not a fraction in (0, 1]: ignored"))

    for shown, obj in found:
        present = [(k, obj[k]) for k in ENTRY_CAP_KEYS if k in obj]
        good = [(k, _positive_int(v)) for k, v in present]
        for k, v in good:
            if v is None:
                st.notes.append(SettingsNote(shown, 1, 1, k, f"{obj[k]!r} is not a positive whole number: ignored"))
        good = [(k, v) for k, v in good if v is not None]
        if good:
            key, value = min(good, key=lambda kv: kv[1])
            if len(good) > 1:
                st.notes.append(SettingsNote(shown, 1, 1, "", "both " + " and ".join(k for k, _ in good) +
                                             f" are set: the smaller, {value:,}, is used"))
            st.entry_cap, st.entry_cap_source, st.entry_cap_key = value, shown, key
            break

    for shown, obj in found:
        if OVERRIDES_KEY not in obj:
            continue
        ov = obj[OVERRIDES_KEY]
        if not isinstance(ov, dict):
            st.notes.append(SettingsNote(shown, 1, 1, OVERRIDES_KEY, "not an object of skill -> state: ignored"))
            continue
        for sid, state in ov.items():
            if state not in OVERRIDE_STATES:
                st.notes.append(SettingsNote(shown, 1, 1, f"{OVERRIDES_KEY}.{sid}",
                                             f"unknown state {state!r} (one of {', '.join(OVERRIDE_STATES)}): ignored"))
                continue
            if skill_ids is not None and sid not in skill_ids:
                st.notes.append(SettingsNote(shown, 1, 1, f"{OVERRIDES_KEY}.{sid}",
                                             "names no skill of the registry"))
            st.overrides[sid] = state
        st.overrides_source = shown
        break
    return st

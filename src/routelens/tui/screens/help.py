"""The help screen: keys, panes and what every decision reason means."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Markdown

from routelens.tui.words import MODE_HELP, MODE_LABEL, REASON_HELP, REASON_LABEL

__all__ = ["HelpScreen", "HELP_MARKDOWN", "KEY_SECTIONS", "KEYS"]

#: Every key, by the screen it works on (a test checks each binding of
#: every screen is listed in its section). The footer is cut off on
#: narrow terminals; this list is complete.
KEY_SECTIONS: list[tuple[str, list[tuple[str, str]]]] = [
    ("Main screen", [
        ("typing", "route the task (debounced, off the UI thread)"),
        ("↓ / ↑ in the task", "next / previous hit: its lines light up in every pane"),
        ("ctrl+n / ctrl+o", "next / previous hit from anywhere"),
        ("Esc in the task", "clear the task"),
        ("Tab / shift+Tab", "move between the task, the tables and the panes"),
        ("↓ / ↑ in a table", "move between hits (matches) or near misses (why not)"),
        ("Enter in a table", "the skill browser on that skill: why it was or was not chosen"),
        ("↑ ↓ ← → PgUp PgDn Home End in a pane", "scroll the pane"),
        ("← / → on the pane tabs", "switch pane (below 120 columns the panes are tabs)"),
        ("F1 (? outside a text field)", "this help"),
        ("F2", "skill browser: filter by id, trigger or description"),
        ("F3", "stats: sizes, budget, freshness, biggest contributors"),
        ("F4", "zoom: hide the decision panel, panes take the screen"),
        ("F5", "rebuild generated/ from the registry (asks first)"),
        ("F6", "copy the decision as JSON and show it"),
        ("F7", "copy a fix of the fallback (its YAML line) and light up where it goes; again: the next fix"),
        ("F8", "labelled cases: every case with its outcome, live as the registry changes"),
        ("F9", "decision log: every logged task, logged decision and the decision now"),
        ("ctrl+l", "back to the task input"),
        ("ctrl+p", "command palette: jump to an entry, rebuild, toggle panes, theme, screenshot (an SVG in "
                   "$ROUTELENS_SCREENSHOTS, else ~/Downloads, else the current folder)"),
        ("ctrl+c", "copy the task input's selection; with none, say how to quit"),
        ("ctrl+q", "quit"),
    ]),
    ("Skill browser (F2)", [
        ("typing in the filter", "filter the skills by id, trigger or description"),
        ("↓ / ↑ in the filter", "next / previous skill in the list (the filter keeps the focus)"),
        ("PgDn / PgUp in the filter", "ten skills down / up"),
        ("Enter", "show the highlighted skill in the panes (closes the browser)"),
        ("Tab in the filter", "go to the list"),
        ("↓ / ↑ in the list", "next / previous skill"),
        ("ctrl+f", "back to the filter"),
        ("Esc or F2", "back to the main screen"),
    ]),
    ("Labelled cases (F8)", [
        ("↓ / ↑", "move in the list"),
        ("Enter", "put the case's task into the main screen and inspect it"),
        ("Tab", "the category and outcome filters"),
        ("t", "the tune plot: risk against coverage for these cases"),
        ("ctrl+r", "run the cases again"),
        ("o", "open another cases file (asked for, starting from this one's path)"),
        ("Esc", "back to the main screen"),
    ]),
    ("Decision log (F9)", [
        ("↓ / ↑", "move in the list"),
        ("Enter", "put the logged task into the main screen and inspect it"),
        ("Tab", "the change and reason filters"),
        ("ctrl+r", "replay the log again"),
        ("o", "open another decision log (asked for, starting from this one's path)"),
        ("Esc", "back to the main screen"),
    ]),
    ("Tune plot (t)", [
        ("y", "copy the recommended routing: YAML"),
        ("Esc", "back"),
    ]),
    ("File question", [
        ("Enter", "open the file typed"),
        ("Esc", "cancel"),
    ]),
    ("Stats (F3)", [
        ("Esc or F3", "back to the main screen"),
        ("a git revision, then Enter", "what changed since that revision (HEAD first)"),
    ]),
    ("Decision JSON (F6)", [
        ("F6", "copy the JSON to the clipboard again"),
        ("Esc or q", "close"),
    ]),
    ("Rebuild question (F5)", [
        ("y", "rebuild"),
        ("n or Esc", "cancel"),
        ("Tab / Enter", "pick a button / press it"),
    ]),
    ("This help", [
        ("Esc, q, F1 or ?", "close"),
    ]),
]

#: All keys in one list (main screen first).
KEYS = [k for _, keys in KEY_SECTIONS for k in keys]


def _markdown() -> str:
    lines = ["# routelens", "", "## Keys", "",
             "The footer shows the main keys and is cut off on narrow terminals; every key is here."]
    for title, keys in KEY_SECTIONS:
        lines += ["", f"### {title}", "", "| key | does |", "|---|---|"]
        lines += [f"| `{k}` | {v} |" for k, v in keys]
    lines += [
        "",
        "## Panes",
        "",
        "- **Registry**: the canonical `skills.yaml`, read-only, with its real line numbers. "
        "Hits are banded; the current hit is the bright band.",
        "- **Index**: `routing.min.json`, one tuple per line — all an agent reads first.",
        "- **Catalog**: `catalog.json`, the debug view; the current hit's entry is banded.",
        "",
        "Below 120 columns the panes become tabs. The app watches the registry and `generated/`: "
        "edit the file and it reloads, re-checks freshness and routes the task again.",
        "",
        "## Modes",
        "",
        "| mode | means |",
        "|---|---|",
    ]
    # the first column holds the code (one word: a table cell never wraps it, and it is what the
    # decision's JSON and `routelens route` say); the panel's label starts the second
    lines += [f"| `{m}` | **{MODE_LABEL[m]}**: {MODE_HELP[m]} |" for m in MODE_LABEL]
    lines += ["", "## Reasons", "", "| reason | means |", "|---|---|"]
    lines += [f"| `{r}` | **{REASON_LABEL[r]}**: {REASON_HELP[r]} |" for r in REASON_LABEL]
    return "\n".join(lines) + "\n"


HELP_MARKDOWN = _markdown()


class HelpScreen(ModalScreen[None]):
    """Escape, q or F1 closes it."""

    BINDINGS = [Binding("escape,q,f1,question_mark", "close", "Close")]

    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > #help-box {
        width: 100;
        max-width: 96%;
        height: 90%;
        border: thick $accent;
        background: $surface;
        padding: 0 1;
        overflow-y: auto;
    }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help-box"):
            yield Markdown(HELP_MARKDOWN)

    def on_mount(self) -> None:
        self.query_one("#help-box").border_title = "Help · Esc closes"
        self.query_one("#help-box").focus()

    def action_close(self) -> None:
        self.dismiss(None)

"""The routelens Textual app: registry, compact index and debug catalog side
by side; live routing of the task typed at the top; why it fell back.

The app holds the global keys, the command palette and the screens. What
the main screen shows, and the workers that load, watch and route, belong
to :class:`~routelens.tui.screens.main.MainScreen` (its default screen);
the other screens get what they show when they are opened. Rebuilding
``generated/`` runs here, in a thread worker that posts its result
(:mod:`routelens.tui.messages`).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from textual import events, work
from textual.app import App
from textual.binding import Binding

from routelens.errors import BuildError
from routelens.artifacts.write import write_generated
from routelens.registry import RegistryError, load_registry
from routelens.text.visible import pictured
from routelens.text.numbers import budget_verdict, within_budget
from routelens.tui import words
from routelens.tui.commands import RouteLensCommands
from routelens.tui.messages import RebuildDone, RebuildFailed, RouterChanged
from routelens.tui.model import Paths, Snapshot
from routelens.tui.paste_guard import install as _keep_pasted_esc
from routelens.tui.screens.main import MainScreen
from routelens.tui.widgets.source_view import MAX_TEXTAREA_LINES

if TYPE_CHECKING:
    from textual.notifications import SeverityLevel
    from routelens.routing.decision import Decision

__all__ = ["RouteLensApp", "run", "screenshot_folder", "SCREENSHOTS_ENV"]


_keep_pasted_esc()  # an ESC inside a bracketed paste stays text (Textual 8.2 read it as keys)


class RouteLensApp(App[None]):
    """The TUI.

    ``paths``: registry and index locations. ``theme``: a Textual theme
    name (pinned in tests). ``poll_interval``: seconds between file checks
    (None: no watching). ``route_debounce``: seconds of typing pause before
    routing (0: route on every change). ``task``: initial task text.
    ``max_textarea_lines``: documents longer than this use the line-API
    view instead of a TextArea. ``load_timeout``: seconds a read of the
    files may take before it is given up and tried again. All but
    ``theme`` go to :attr:`main`.
    """

    CSS_PATH = "app.tcss"
    TITLE = "routelens"
    COMMANDS = App.COMMANDS | {RouteLensCommands}
    #: Actions that only make sense on the main screen.
    MAIN_ONLY = frozenset({"zoom", "copy_json", "copy_fix", "next_hit", "prev_hit", "focus_task"})

    BINDINGS = [
        Binding("f1", "help", "Help", id="help"),
        Binding("f2", "skills", "Skills", id="skills"),
        Binding("f3", "stats", "Stats", id="stats"),
        Binding("f4", "zoom", "Zoom", id="zoom"),
        Binding("f5", "rebuild", "Rebuild", id="rebuild"),
        # priority: a focused pane is a TextArea, whose own F6 selects a line and F7 selects all
        Binding("f6", "copy_json", "JSON", id="copy-json", priority=True),
        Binding("f7", "copy_fix", "Fix", id="copy-fix", priority=True),
        Binding("f8", "cases", "Cases", id="cases"),
        Binding("f9", "log", "Log", id="log"),
        Binding("ctrl+n", "next_hit", "Next hit", show=False, id="next-hit-global"),
        Binding("ctrl+o", "prev_hit", "Previous hit", show=False, id="prev-hit-global"),
        Binding("ctrl+l", "focus_task", "Task", show=False, id="focus-task"),
        Binding("question_mark", "help", "Help", show=False, id="help-alt"),
        # before the task input's own ctrl+c (copy), which took every press: nothing happened and nothing said how
        # to quit (a fifth newcomer's trial)
        Binding("ctrl+c", "copy_or_quit_hint", show=False, priority=True, id="copy-or-quit-hint"),
    ]

    def __init__(
        self,
        paths: Paths,
        *,
        theme: str = "textual-dark",
        poll_interval: float | None = 0.75,
        route_debounce: float = 0.05,
        task: str = "",
        max_textarea_lines: int = MAX_TEXTAREA_LINES,
        load_timeout: float = 10.0,
        cases: str | Path | None = None,
        log: str | Path | None = None,
    ) -> None:
        super().__init__()
        self.paths = paths
        self.theme = theme
        self.poll_interval = poll_interval
        #: labelled cases (``--cases``) and a decision log (``--log``), when given
        self.cases_path = Path(cases) if cases is not None else None
        self.log_path = Path(log) if log is not None else None
        #: The default screen: panes, decision, task input, loading and routing.
        self.main = MainScreen(paths, task=task, poll_interval=poll_interval, route_debounce=route_debounce,
                               max_textarea_lines=max_textarea_lines, load_timeout=load_timeout,
                               cases=self.cases_path)

    def notify(self, message: str, *, title: str = "", severity: "SeverityLevel" = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's notification, its text never read as markup: notices
        quote registry text, YAML fixes and paths, where ``[brake pads]``
        is a flow list, not a style (F7 showed "Copied `not_when: `").
        ``markup`` is accepted and ignored."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=False)

    def get_default_screen(self) -> MainScreen:
        return self.main

    def deliver_screenshot(self, filename: str | None = None, path: str | None = None,
                           time_format: str | None = None) -> str | None:
        """Save an SVG screenshot (the palette's "Screenshot") in ``path``,
        by default :func:`screenshot_folder`; the note after it names the
        file. Textual's own default, ~/Downloads, fails where there is none."""
        return super().deliver_screenshot(filename, str(path or screenshot_folder()), time_format)

    def on_delivery_complete(self, event: events.DeliveryComplete) -> None:
        """The note after a screenshot, in plain words: Textual's own is
        markup (``Saved screenshot to [$text-success]'...'``), which this
        app's notices never are, so its tags showed."""
        if event.name == "screenshot":
            event.prevent_default()  # Textual's handler, on the base class, would say it again
            self.notify(f"Saved screenshot to {event.path}" if event.path else "Saved screenshot",
                        title="Screenshot")
    def on_mount(self) -> None:
        # `routelens tui --cases FILE` / `--log FILE` open on that list
        if self.cases_path is not None:
            self.open_cases(self.cases_path)
        elif self.log_path is not None:
            self.open_log(self.log_path)

    # ---------------------------------------------------- the main screen's state, read-only
    # (the palette, scripts and benchmarks/bench_tui.py read these on the app)
    @property
    def snapshot(self) -> Snapshot | None:
        """The last good load (None before the first one)."""
        return self.main.snapshot

    @property
    def decision(self) -> Decision | None:
        """The decision on screen (None without a task)."""
        return self.main.decision

    @property
    def routing_pending(self) -> bool:
        """True while a load or a typed change is not on screen yet."""
        return self.main.routing_pending

    @property
    def first_paint_at(self) -> float:
        """``perf_counter()`` after the first frame with the panes filled (0 before)."""
        return self.main.first_paint_at

    @property
    def last_decision_painted_at(self) -> float:
        """``perf_counter()`` after the frame showing the last decision."""
        return self.main.last_decision_painted_at

    # ------------------------------------------------------------------ screens
    def on_resize(self, event: events.Resize) -> None:
        # This handler runs before App._on_resize stores the new size (the
        # subclass comes first in the MRO), so self.size is still the old
        # one here: lay out for the size in the event. The main screen may
        # be under another one, which gets the resize event instead.
        self.main.relayout(event.size)
        self.call_after_refresh(self.main.reveal_current)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Actions about the decision and the panes only apply on the main
        screen (they are hidden from the footer elsewhere)."""
        if action in self.MAIN_ONLY and self.screen_stack and self.screen is not self.main:
            return False
        return True

    def action_copy_or_quit_hint(self) -> None:
        """ctrl+c: the focused input's or text area's copy when it has text
        selected, else a note that ctrl+q quits (Textual's own note is
        markup, "[b]ctrl+q[/b]", which :meth:`notify` here shows as text)."""
        w = self.focused
        if w is not None and getattr(w, "selected_text", "") and hasattr(w, "action_copy"):
            w.action_copy()
        else:
            self.notify("Press ctrl+q to quit", title="Do you want to quit?")

    def action_help(self) -> None:
        from routelens.tui.screens.help import HelpScreen

        self.push_screen(HelpScreen())

    def _not_loaded(self) -> str:
        """Why a view of the whole registry cannot open yet: the registry is
        still being read (a 100,000-skill parse takes seconds; typed tasks
        already route), or no load has succeeded."""
        if self.main.failure is None:
            return words.STILL_READING + (" (typed tasks route already)." if self.main.early is not None else ".")
        return "No valid registry loaded yet: fix the errors shown and it reloads."

    def action_skills(self, initial: str | None = None) -> None:
        """Open the skill browser (on skill ``initial``, when given)."""
        from routelens.tui.screens.skills import SkillBrowser

        if self.main.snapshot is None:
            self.notify(self._not_loaded(), severity="warning")
            return
        # the detail waits for a pause in typing (none when routing has no debounce either, as in tests)
        pause = SkillBrowser.DETAIL_PAUSE if self.main.route_debounce > 0 else 0.0
        self.push_screen(SkillBrowser(self.main.snapshot, self.main.task_text, debounce=pause, initial=initial),
                         callback=self._browser_closed)

    def _browser_closed(self, result: str | None) -> None:
        if result:
            kind, _, eid = result.partition(":")
            self.main.jump_to(kind, eid)

    def action_stats(self) -> None:
        """Open the stats panel."""
        from routelens.tui.screens.stats import StatsScreen

        if self.main.snapshot is None:
            self.notify(self._not_loaded(), severity="warning")
            return
        self.push_screen(StatsScreen(self.main.snapshot, last_good=self.main.failure is not None))

    def action_copy_json(self) -> None:
        """Copy the decision as JSON (OSC 52 clipboard) and show it."""
        from routelens.tui.screens.json_view import JsonScreen

        if self.main.decision is None:
            self.notify("Type a task first: there is no decision to copy.", severity="warning")
            return
        text = self.main.decision_json()
        self.copy_to_clipboard(text)
        self.push_screen(JsonScreen(text, "Decision as JSON · copied to the clipboard"))

    # ------------------------------------------------------------------ cases, log, tune
    def action_cases(self) -> None:
        """Open the labelled cases (asks for the file when none was given)."""
        if self.cases_path is not None:
            self.open_cases(self.cases_path)
            return
        self.ask_cases()

    def action_log(self) -> None:
        """Open a decision log (asks for the file when none was given)."""
        if self.log_path is not None:
            self.open_log(self.log_path)
            return
        self.ask_log()

    def ask_cases(self, value: str = "") -> None:
        """Ask for a labelled cases file (``value``: the path typed in to
        start with; by default ``cases.yaml`` beside the registry when there
        is one, so Enter opens it), then open it; Escape keeps what was open
        before."""
        from routelens.tui.screens.path_prompt import PathPrompt

        beside = self.paths.registry.parent / "cases.yaml"
        if not value and beside.is_file():  # a newcomer's cases.yaml lay beside the registry; the prompt showed
            # only "path/to/file"
            value = os.path.relpath(beside) if beside.is_absolute() else str(beside)
        self.push_screen(PathPrompt(words.ASK_CASES, value), callback=lambda p: p and self.open_cases(Path(p)))

    def ask_log(self, value: str = "") -> None:
        """Ask for a decision log (see :meth:`ask_cases`), then open it."""
        from routelens.tui.screens.path_prompt import PathPrompt

        self.push_screen(PathPrompt(words.ASK_LOG, value), callback=lambda p: p and self.open_log(Path(p)))

    def open_cases(self, path: Path) -> None:
        """Show the labelled cases of ``path``, run against the registry on screen."""
        from routelens.tui.screens.cases import CasesScreen

        self.cases_path = path
        self.main.cases_path = path
        self._replace_list()
        self.push_screen(CasesScreen(path, self.main.snapshot, self.poll_interval, self.paths.show(path)),
                         callback=self._list_closed)

    def open_log(self, path: Path) -> None:
        """Show the decision log at ``path``, replayed against the registry on screen."""
        from routelens.tui.screens.log import LogScreen

        self.log_path = path
        self._replace_list()
        self.push_screen(LogScreen(path, self.main.snapshot, self.poll_interval, self.paths.show(path)),
                         callback=self._list_closed)

    def _replace_list(self) -> None:
        """Close the cases or log list on screen before another opens: F9
        from F8 stacked on it, Esc went back to F8, and a task typed there
        fired its one-letter keys ("o" asked for another file)."""
        from routelens.tui.screens.cases import ListScreen

        while isinstance(self.screen, ListScreen):
            self.pop_screen()

    def _list_closed(self, task: str | None) -> None:
        if task is not None:
            self.main.set_task(task)

    def action_tune(self) -> None:
        """The risk-coverage plot of the labelled cases (``routelens tune``)."""
        from routelens.tui.screens.tune import TuneScreen

        if self.cases_path is None:
            self.notify(words.TUNE_NEEDS_CASES, severity="warning")
            return
        if self.main.snapshot is None or self.main.snapshot.router is None:
            self.notify(self._not_loaded(), severity="warning")
            return
        self.push_screen(TuneScreen(self.cases_path, self.main.snapshot, display=self.paths.show(self.cases_path)))

    def on_router_changed(self, message: RouterChanged) -> None:
        """A new load has its router: the open case and log screens run again."""
        from routelens.tui.screens.cases import ListScreen

        for screen in self.screen_stack:
            if isinstance(screen, ListScreen):
                screen.rerun(message.snapshot)

    def action_copy_fix(self) -> None:
        """Copy the next fix of the fallback on screen and show where it goes."""
        self.main.action_copy_fix()

    # ------------------------------------------------- keys and palette commands for the main screen
    def action_zoom(self) -> None:
        """Hide the decision panel so the panes get the whole screen (or back)."""
        self.main.action_zoom()

    def action_next_hit(self) -> None:
        self.main.action_next_hit()

    def action_prev_hit(self) -> None:
        self.main.action_prev_hit()

    def action_focus_task(self) -> None:
        self.main.action_focus_task()

    def action_reload(self) -> None:
        """Re-read the registry and generated/ now."""
        self.main.reload()

    def action_toggle_pane(self, name: str) -> None:
        self.main.toggle_pane(name)

    def action_jump(self, kind: str, entry_id: str) -> None:
        """Show entry ``entry_id`` of ``kind`` (skills, compositions, rules) in the panes."""
        self.main.jump_to(kind, entry_id)

    # ------------------------------------------------------------------ rebuild
    def action_rebuild(self) -> None:
        """Ask, then rebuild generated/ from the registry on disk. The
        bundled example (``--demo``) is read-only, as for ``build --demo``."""
        from routelens.tui.screens.confirm import ConfirmScreen

        if self.paths.demo:
            title, text = words.DEMO_READ_ONLY
            self.notify(text, title=title, severity="warning")
            return

        self.push_screen(
            ConfirmScreen(words.REBUILD_QUESTION,
                          words.rebuild_detail(self.paths.registry_name, self.paths.show(self.paths.out_dir)),
                          confirm="Rebuild"),
            callback=self._rebuild_answer,
        )

    def _rebuild_answer(self, ok: bool | None) -> None:
        if ok:
            self.rebuild_now()

    @work(thread=True, exclusive=True, group="build", exit_on_error=False, description="build")
    def rebuild_now(self) -> None:
        """Rebuild without asking (the confirmed action; tests call it)."""
        try:
            reg = load_registry(self.paths.registry, self.paths.registry_name)
        except RegistryError as exc:
            self.post_message(RebuildFailed("Rebuild refused", words.rebuild_refused(exc.error_count)))
            return
        try:
            out, written = write_generated(reg, self.paths.out_dir)
        except BuildError as exc:
            self.post_message(RebuildFailed("Rebuild failed", str(exc)))
            return
        index_chars = len(out.index.decode("utf-8"))
        ratio = reg.routing.max_index_ratio
        over = None if within_budget(index_chars, len(reg.text), ratio) else budget_verdict(
            index_chars, len(reg.text), ratio)
        self.post_message(RebuildDone(list(written), over))

    def on_rebuild_done(self, message: RebuildDone) -> None:
        title, text = words.rebuilt(message.written, message.over_budget)
        self.notify(text, title=title, severity="warning" if message.over_budget else "information")
        self.main.reload()

    def on_rebuild_failed(self, message: RebuildFailed) -> None:
        self.notify(pictured(message.message), severity="error", title=message.title)


#: Environment variable naming the folder for screenshots taken in the app.
SCREENSHOTS_ENV = "ROUTELENS_SCREENSHOTS"


def screenshot_folder() -> Path:
    """Where the app saves a screenshot: ``$ROUTELENS_SCREENSHOTS`` when set,
    else ~/Downloads when it is a writable folder, else the current folder
    when writable, else the system's temporary folder."""
    env = os.environ.get(SCREENSHOTS_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    for folder in (Path.home() / "Downloads", Path.cwd()):
        if folder.is_dir() and os.access(folder, os.W_OK):
            return folder
    return Path(tempfile.gettempdir())


def run(registry: str | Path, index: str | Path | None = None, out_dir: str | Path | None = None) -> int:
    """Open the app on ``registry`` (and its generated folder). Returns
    the exit code (0)."""
    app = RouteLensApp(Paths.make(registry, index, out_dir))
    app.run()
    return 0

"""The routelens terminal UI (Textual).

Only this package imports Textual; it calls the core (``registry``,
``index``, ``router``, ``stats``) through its public API. Start it with
:func:`routelens.tui.app.run` or ``routelens`` with no arguments.
"""

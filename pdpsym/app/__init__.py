"""The ``pdpsym`` command line: the one layer that knows flags, prints and exits.

* :mod:`~pdpsym.app.cli` -- the parser and :func:`~pdpsym.app.cli.main`, the one error
  boundary (bad input, limits and undecided comparisons exit 2 with one line);
* :mod:`~pdpsym.app.commands` -- one module per command (``verify``, ``leakage``,
  ``whg``, ``audit``, ``figure``, ...), each with ``register(subparsers)``;
* :mod:`~pdpsym.app.readers` -- model files (JSON, TOML, CSV) into the library's models;
* :mod:`~pdpsym.app.output` -- JSON on stdout, numbers for text output
  (:func:`~pdpsym.app.output.number_text`), atomic file writes;
* :mod:`~pdpsym.app.tables`, :mod:`~pdpsym.app.latex`, :mod:`~pdpsym.app.plot` --
  Markdown/LaTeX/CSV tables and matplotlib figures;
* :mod:`~pdpsym.app.oracle` -- regression vectors of Eq. 2 for other implementations,
  and :mod:`~pdpsym.app.oracle_check` -- their answers checked exactly;
* :mod:`~pdpsym.app.options`, :mod:`~pdpsym.app.budget`, :mod:`~pdpsym.app.sweep`,
  :mod:`~pdpsym.app.help` -- shared flags and their parsers, a command's work (refused
  over ``--max-work``, a progress bar while it runs), parameter sweeps, help texts.

The library below never prints and raises ``InputError(field, message)``; this layer
maps the field to the flag the user typed. Parsing loads no engine: sympy and flint are
imported by the handler of the command that runs, so ``--help`` starts at once.
"""

"""One module per ``pdpsym`` command.

Each module has ``register(subparsers)``, which adds the command's parser and sets
``func`` to its handler ``(args) -> int`` (the exit status). A module imports only light
modules at the top (argparse, :mod:`pdpsym.app.options`, :mod:`pdpsym.core.errors`,
:mod:`pdpsym.core.numbers`); the engines, which load sympy and flint, are imported
inside the handler, so that ``pdpsym CMD --help`` does not wait for them
(``tests/app/test_startup.py`` checks this). Choices that ``--help`` lists are kept as
copies next to ``register`` and checked against the library by that test.
"""

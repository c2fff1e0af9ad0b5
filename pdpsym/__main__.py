"""``python -m pdpsym`` is the same as ``pdpsym``."""

from pdpsym.app.cli import main

raise SystemExit(main())

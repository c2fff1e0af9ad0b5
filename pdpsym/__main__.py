"""``python -m pdpsym`` is the same as ``pdpsym``."""

from pdpsym.cli import main

raise SystemExit(main())

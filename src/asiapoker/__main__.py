"""``python -m asiapoker``: the command line."""

from .cli import main

raise SystemExit(main())

"""``python -m tools.selfplay GAME ...``."""

import sys

from tools.selfplay import main

sys.exit(main())

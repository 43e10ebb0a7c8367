"""``python -m tools.gallery OUTDIR``."""

from tools.gallery.gallery import main

main()

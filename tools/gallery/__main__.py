"""``python -m tools.gallery OUTDIR``; ``python -m tools.gallery --browser OUTDIR`` screenshots the games'
conversations in the playground page instead (``tools/gallery/browser.py``)."""

import sys

if "--browser" in sys.argv[1:]:
    from tools.gallery.browser import main as browser_main

    raise SystemExit(browser_main([a for a in sys.argv[1:] if a != "--browser"]))

from tools.gallery.gallery import main

main()

"""``python -m i18n extract`` | ``python -m i18n check [LANGUAGE]``."""

from __future__ import annotations

import sys

from i18n.extract import TEMPLATE, problems, write_template


def main(argv: list[str]) -> int:
    command = argv[0] if argv else "check"
    if command == "extract":
        count = write_template()
        print(f"{count} messages written to {TEMPLATE}")
        return 0
    if command == "check":
        language = argv[1] if len(argv) > 1 else "de"
        found = problems(language)
        for line in found:
            print(line)
        print(f"{len(found)} problems in the {language} catalogues")
        return 1 if found else 0
    print("usage: python -m i18n extract | check [LANGUAGE]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""``python -m bot.i18n extract|update|check``: the catalogues' tooling (see ``bot.i18n``)."""

import sys

from bot.i18n import main

sys.exit(main())

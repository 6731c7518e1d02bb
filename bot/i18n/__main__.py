"""``python -m bot.i18n extract|update|check``: the catalogues' tooling
(``bot.i18n.catalogues``)."""

import sys

from bot.i18n.catalogues import main

sys.exit(main())

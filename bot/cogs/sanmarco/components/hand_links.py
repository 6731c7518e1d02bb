"""A player's signed link to their own seat page (``bot.links``): the "Play in the browser"
button on their private panels (``/sanmarco hand`` and ``offers``, the offer builder, the
move chooser), where they make the same decision in the browser. Only where the bot links
pages (SANMARCO_PUBLIC_URL), signs links (SANMARCO_WEB_SECRET) and the channel has pages
on; never in a practice game (it has no page)."""

from __future__ import annotations

from bot.config import Config
from bot.links import hand_query
from bot.service import GameService
from bot.service.errors import NoGame


class HandLinks:
    """Makes a player's hand link, an hour long, theirs and that game's only."""

    def __init__(self, service: GameService, config: Config) -> None:
        self.service = service
        self.config = config

    async def url(self, channel: int, game_id: int, user: str) -> str | None:
        """``user``'s link to their own hand in game ``game_id`` (None: no such links)."""
        base, secret = self.config.public_url, self.config.web_secret
        if base is None or secret is None:
            return None
        if not (await self.service.settings(channel)).pages:
            return None
        try:
            token = await self.service.page_token(game_id)
        except NoGame:  # a practice game: it has no page
            return None
        query = hand_query(secret, token, user, self.service.clock())
        return f"{base.rstrip('/')}/g/{token}/hand?{query}"

"""Fake players who play San Marco through Discord: they read only what the bot sent
(channel posts, their own ephemeral messages) and press its buttons and selects."""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from bot.cogs.sanmarco.components.screens import group_key
from bot.i18n import ENGLISH, Tr
from bot.text.markup import MAX_OPTION_TEXT
from engine import Action, Doge, Split, TakeOffer, card_of

from .server import FakeDiscord, FakeMessage, FakeUser, InteractionRecord


def now_re(tr: Tr = ENGLISH) -> re.Pattern[str]:
    """A post's "**Now** — ..." line, or "Now: ..." under an outdated-prompt answer, in the
    language of ``tr`` (what the bot writes: bot.text.now_line and with_current)."""
    bold = tr.gettext("**Now** — {awaited}").split("{awaited}", 1)[0]
    plain = tr.gettext("{refusal}\nNow: {awaited}").split("\n", 1)[1].split("{awaited}", 1)[0]
    return re.compile(rf"(?:{re.escape(bold)}|^{re.escape(plain)})(.*)$", re.M)


def game_over_words(tr: Tr = ENGLISH) -> str:
    """The words that begin the final post's result line (bot.text.event_line)."""
    return tr.gettext("Game over! Winner: {winners}.").split("{", 1)[0].rstrip()


NOW_RE = now_re()
MENTION_RE = re.compile(r"<@(\d+)>")


def tag_of(custom_id: str) -> str:
    """``sm:<ch>:<ver>:<tag>[:arg]`` -> tag."""
    parts = custom_id.split(":")
    return parts[3] if len(parts) > 3 else ""


def awaited_ids(message: FakeMessage, tr: Tr = ENGLISH) -> list[int]:
    """Who the post says the game waits for (from its ``**Now** — ...`` line, written in
    the language of ``tr``)."""
    m = (NOW_RE if tr is ENGLISH else now_re(tr)).search(message.content)
    return [int(x) for x in MENTION_RE.findall(m.group(1))] if m else []


@dataclass
class Table:
    """Three or four fake users at one channel, choosing among what the bot offers."""

    fake: FakeDiscord
    users: list[FakeUser]
    rng: random.Random = field(default_factory=lambda: random.Random(5))
    channel_id: int | None = None
    interactions: list[InteractionRecord] = field(default_factory=list)
    think: float = 0.0  # seconds a player "thinks" before each click (benchmark pacing)
    commands: float = 0.0  # share of takes and moves made with slash commands, not buttons
    # user id -> shift: that user's next split puts card i into offer (i + shift) % n
    split_shift: dict[int, int] = field(default_factory=dict)
    # "handled": the harness hook says the cog finished (in-process bot); "finished": judge
    # from the requests alone (a bot in another process, as in the benchmark).
    wait_for: str = "handled"
    pressed: Counter[str] = field(default_factory=Counter)  # tag -> times pressed/chosen
    confirmations: list[str] = field(default_factory=list)  # texts shown before "Confirm"
    # The languages the players read: the channel's posts (``public``) and their own
    # answers (``private``: the users' Discord language).
    public: Tr = ENGLISH
    private: Tr = ENGLISH
    choices: list[dict[str, Any]] = field(default_factory=list)  # every autocomplete offer

    def user(self, uid: int) -> FakeUser:
        return next(u for u in self.users if u.id == uid)

    async def click(self, user: FakeUser, msg: FakeMessage, cid: str) -> InteractionRecord:
        await self._think()
        self.pressed[tag_of(cid)] += 1
        rec = await self.fake.click(user, msg, cid)
        await asyncio.wait_for(getattr(rec, self.wait_for).wait(), 60)
        self.interactions.append(rec)
        return rec

    async def select(self, user: FakeUser, msg: FakeMessage, cid: str,
                     values: list[str]) -> InteractionRecord:
        await self._think()
        self.pressed[tag_of(cid)] += 1
        rec = await self.fake.select(user, msg, cid, values)
        await asyncio.wait_for(getattr(rec, self.wait_for).wait(), 60)
        self.interactions.append(rec)
        return rec

    async def _think(self) -> None:
        if self.think:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5) * self.think)

    async def build_offers(self, user: FakeUser, prompt: FakeMessage) -> InteractionRecord:
        """Open the builder from the channel prompt, assign cards round-robin, commit."""
        build = next(c for c in prompt.custom_ids() if tag_of(c) == "build")
        rec = await self.click(user, prompt, build)
        panel = rec.response
        assert panel.ephemeral, "the offer builder must be ephemeral"
        selects = [c for c in panel.all_components() if tag_of(c.get("custom_id", "")) == "asg"]
        n_cards = len(selects[0]["options"])
        shift = self.split_shift.pop(user.id, 0)
        for k in range(len(selects)):
            cid = next(c for c in panel.custom_ids() if tag_of(c) == "asg"
                       and c.split(":")[4].split(",")[1] == str(k))
            values = [str(i) for i in range(n_cards) if (i + shift) % len(selects) == k]
            await self.select(user, panel, cid, values)
        commit = next(c for c in panel.custom_ids() if tag_of(c) == "commit")
        return await self.click(user, panel, commit)

    async def play_panel(self, user: FakeUser, prompt: FakeMessage) -> None:
        """Press "Play next card"/"Your move" and choose until the panel says it is done."""
        nxt = next(c for c in prompt.custom_ids() if tag_of(c) == "next")
        rec = await self.click(user, prompt, nxt)
        panel = rec.response if rec.messages else rec.updated  # a private prompt is replaced
        assert panel is not None
        assert panel.ephemeral
        for _ in range(200):
            comps = {tag_of(c.get("custom_id", "")): c for c in panel.all_components()}
            if "card" in comps:
                opts = comps["card"]["options"]
                await self.select(user, panel, comps["card"]["custom_id"],
                                  [self.rng.choice(opts)["value"]])
            elif "grp" in comps:
                opts = comps["grp"]["options"]
                await self.select(user, panel, comps["grp"]["custom_id"],
                                  [self.rng.choice(opts)["value"]])
            elif "pick" in comps:
                opts = comps["pick"]["options"]
                await self.select(user, panel, comps["pick"]["custom_id"],
                                  [self.rng.choice(opts)["value"]])
            elif "ok" in comps:
                self.confirmations.append(panel.content)
                await self.click(user, panel, comps["ok"]["custom_id"])
            else:
                return  # "Done." or nothing more for this player
        raise AssertionError("the move panel never finished")

    async def offer_to_take(self, user: FakeUser, choices: list[str]) -> str:
        """Which Take button ``user`` presses (a random one)."""
        return self.rng.choice(choices)

    async def slash_take(self, user: FakeUser) -> InteractionRecord:
        """``/sanmarco take`` with a number offered by its autocomplete."""
        choices = await self.fake.autocomplete(user, "sanmarco take", "offer",
                                               channel_id=self.channel_id, offer=0)
        self.choices += choices
        assert choices, "autocomplete offered no offer to the awaited decision-maker"
        rec = await self.fake.slash(user, "sanmarco take", channel_id=self.channel_id,
                                    offer=self.rng.choice(choices)["value"])
        self.interactions.append(rec)
        return rec

    async def slash_play(self, user: FakeUser) -> InteractionRecord:
        """``/sanmarco play`` with a move offered by its autocomplete (one card)."""
        choices = await self.fake.autocomplete(user, "sanmarco play", "move",
                                               channel_id=self.channel_id, move="")
        self.choices += choices
        assert choices, "autocomplete offered no move to the awaited player"
        rec = await self.fake.slash(user, "sanmarco play", channel_id=self.channel_id,
                                    move=self.rng.choice(choices)["value"])
        self.interactions.append(rec)
        return rec

    async def play_until(self, tag: str) -> FakeMessage:
        """Play on until the newest channel post offers a component with ``tag``."""
        while tag not in {tag_of(c) for c in self.fake.last_channel_message(
                self.channel_id).custom_ids()}:
            assert await self.step(), f"the game ended before a {tag!r} prompt"
        return self.fake.last_channel_message(self.channel_id)

    async def step(self, post: FakeMessage | None = None) -> bool:
        """Act on the newest channel post (or on ``post``, e.g. the current prompt that came
        with an "outdated" answer). False when the game is over."""
        post = post or self.fake.last_channel_message(self.channel_id)
        if game_over_words(self.public) in post.content:
            return False
        tags = {tag_of(c): c for c in post.custom_ids()}
        waiting = awaited_ids(post, self.public) or awaited_ids(post, self.private)
        assert waiting, f"no awaited player in {post.content!r}"
        if "build" in tags:
            for uid in waiting:
                await self.build_offers(self.user(uid), post)
        elif "take" in tags:
            user = self.user(waiting[0])
            if self.rng.random() < self.commands:
                await self.slash_take(user)
            else:
                choices = [c for c in post.custom_ids() if tag_of(c) == "take"]
                await self.click(user, post, await self.offer_to_take(user, choices))
        elif "next" in tags:
            user = self.user(waiting[0])
            if self.rng.random() < self.commands:
                await self.slash_play(user)
            else:
                await self.play_panel(user, post)
        else:
            raise AssertionError(f"no prompt on {post.content!r}: {post.custom_ids()}")
        return True


# What an advised player is told to play: the action, among the legal actions of their
# decision (the order the bot's move chooser indexes), and the seats' names.
Advice = tuple[Action, list[Action], dict[str, str]]


@dataclass
class Advised(Table):
    """Players who play what ``advice`` says for them (e.g. the normal computer's choice),
    through the same buttons, offer builder and move chooser as anyone: a learner who
    follows the practice game's explanations."""

    advice: Callable[[FakeUser], Awaitable[Advice]] | None = None

    async def _advice(self, user: FakeUser) -> Advice:
        assert self.advice is not None, "an advised player needs its advice"
        return await self.advice(user)

    async def offer_to_take(self, user: FakeUser, choices: list[str]) -> str:
        action, _, _ = await self._advice(user)
        assert isinstance(action, TakeOffer), action
        return next(c for c in choices if c.endswith(f":take:{action.index}"))

    async def build_offers(self, user: FakeUser, prompt: FakeMessage) -> InteractionRecord:
        action, _, _ = await self._advice(user)
        assert isinstance(action, Split), action
        build = next(c for c in prompt.custom_ids() if tag_of(c) == "build")
        panel = (await self.click(user, prompt, build)).response
        assert panel.ephemeral, "the offer builder must be ephemeral"
        for k in sorted(set(action.assignment)):
            cid = next(c for c in panel.custom_ids() if tag_of(c) == "asg"
                       and c.split(":")[4].split(",")[1] == str(k))
            values = [str(i) for i, a in enumerate(action.assignment) if a == k]
            await self.select(user, panel, cid, values)
        commit = next(c for c in panel.custom_ids() if tag_of(c) == "commit")
        return await self.click(user, panel, commit)

    async def play_panel(self, user: FakeUser, prompt: FakeMessage) -> None:
        """Press "Play next card"/"Your move" and choose, screen by screen, the advised
        move (a Doge route the chooser shows once per outcome: the one to its target)."""
        nxt = next(c for c in prompt.custom_ids() if tag_of(c) == "next")
        rec = await self.click(user, prompt, nxt)
        panel = rec.response if rec.messages else rec.updated
        assert panel is not None and panel.ephemeral
        for _ in range(50):
            comps = {tag_of(c.get("custom_id", "")): c for c in panel.all_components()}
            if not comps.keys() & {"card", "grp", "pick", "ok"}:
                return  # "Done." or nothing more for this player
            # asked anew at each screen: the panel goes on to the player's next card
            action, legal, names = await self._advice(user)
            want = legal.index(action)
            if "card" in comps:
                cards = list(dict.fromkeys(card_of(a) for a in legal))
                value = str(cards.index(card_of(action)))
            elif "grp" in comps:
                key = group_key(self.private, action, names)[:MAX_OPTION_TEXT]
                value = next(o["value"] for o in comps["grp"]["options"] if o["label"] == key)
            elif "pick" in comps:
                values = [o["value"] for o in comps["pick"]["options"]]
                same = [v for v in values if legal[int(v)] == action or (
                    isinstance(action, Doge) and isinstance(legal[int(v)], Doge)
                    and legal[int(v)].target == action.target)]  # type: ignore[attr-defined]
                if str(want) not in values and not same and "more" in comps:
                    panel = await self._next_panel(user, panel, comps["more"]["custom_id"])
                    continue
                value = str(want) if str(want) in values else same[0]
            else:  # the Doge's route, confirmed
                self.confirmations.append(panel.content)
                await self.click(user, panel, comps["ok"]["custom_id"])
                continue
            kind = next(k for k in ("card", "grp", "pick") if k in comps)
            await self.select(user, panel, comps[kind]["custom_id"], [value])
        raise AssertionError("the move panel never finished")

    async def _next_panel(self, user: FakeUser, panel: FakeMessage, cid: str) -> FakeMessage:
        await self.click(user, panel, cid)
        return panel

"""What the player who acted reads privately when the public post of their saved change is
not simply there (it counts all the same): it will follow, the bot lacks a permission, the
channel is gone; and a channel catching up after an outage."""

from __future__ import annotations

from bot.i18n import N_, Tr


def posted(tr: Tr) -> str:
    return tr.gettext("Done: it is posted in the channel.")


def post_saved(tr: Tr) -> str:
    """A seat's page right after its move is saved, while its post goes to the channel."""
    return tr.gettext("Saved. Posting it in the channel…")


def post_state(tr: Tr, state: str, permission: str | None = None) -> str:
    """What a seat's page says of its move's post (``PostDelivery.state``), in the words a
    button's answer uses (without Discord's bold and code marks: a page shows them as
    they are): saved, then posted, or saved and waiting for Discord, or saved and not
    postable (a missing permission, a channel gone); nothing for ``none``."""
    words = {"saved": post_saved, "sent": posted, "waiting": post_pending,
             "gone": channel_gone}.get(state)
    if words is not None:
        said = words(tr)
    elif state == "blocked":
        said = not_posted(tr, permission or "send_messages")
    else:
        return ""
    return said.replace("**", "").replace("`", "")


# The names Discord's server settings give the bot's permissions (discord.py's names as
# keys; Discord's client shows them in the reader's language).
PERMISSION_NAMES: dict[str, str] = {
    "view_channel": N_("View Channel"), "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"), "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
    "create_public_threads": N_("Create Public Threads"),
    "create_private_threads": N_("Create Private Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
    "manage_threads": N_("Manage Threads"),
}


def permission_name(tr: Tr, permission: str) -> str:
    """A permission (discord.py's name, e.g. ``attach_files``) as Discord's settings call it."""
    name = PERMISSION_NAMES.get(permission)
    return tr.gettext(name) if name is not None else permission


def board_posted_as_text(tr: Tr, permission: str) -> str:
    """The player's private note when Discord refused the board picture but not the text."""
    return tr.gettext("Your move counts and is saved, but I could not post the board picture: "
                      "I lack the **{permission}** permission in this channel. I posted the "
                      "move as text, so the next player is still pinged; a server admin can "
                      "give me that permission.").format(
        permission=permission_name(tr, permission))


def not_posted(tr: Tr, permission: str) -> str:
    """The player's private note when Discord refused every post in the channel."""
    return tr.gettext("That counts and is saved, but I could not post it in this channel: I "
                      "lack the **{permission}** permission here, so nobody else sees it or is "
                      "pinged. A server admin can give me that permission; `/sanmarco status` "
                      "shows the game meanwhile.").format(
        permission=permission_name(tr, permission))


def post_pending(tr: Tr) -> str:
    """The player's private note when Discord has not taken the channel's post yet (it
    waits in the outbox and goes out as soon as Discord takes it)."""
    return tr.gettext("That counts and is saved. Discord has not taken my post in the channel "
                      "yet; it will appear there as soon as Discord takes it, and whoever is "
                      "next will be pinged then.")


def channel_gone(tr: Tr) -> str:
    """The player's private note when Discord says the game's channel is gone."""
    return tr.gettext("That counts and is saved, but Discord says this channel no longer "
                      "exists, so nothing can be posted in it: the game waits. Its opener or "
                      "a server manager can end it (`/sanmarco-server games` lists it).")


def missed_moves(tr: Tr, count: int) -> str:
    """A channel catching up after an outage: the oldest missed posts, only counted."""
    return tr.ngettext("While Discord was unreachable, {count} more thing happened here; "
                       "`/sanmarco game log` tells it.",
                       "While Discord was unreachable, {count} more things happened here; "
                       "`/sanmarco game log` tells them.", count).format(count=count)

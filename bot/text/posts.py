"""What the player who acted reads privately when Discord refused or failed the public post
of their saved change (it counts all the same), and what the bot lacks."""

from __future__ import annotations

from bot.i18n import N_, Tr


def posted(tr: Tr) -> str:
    return tr.gettext("Done: it is posted in the channel.")


# The names Discord's server settings give the bot's permissions (discord.py's names as
# keys; Discord's client shows them in the reader's language).
PERMISSION_NAMES: dict[str, str] = {
    "view_channel": N_("View Channel"), "send_messages": N_("Send Messages"),
    "attach_files": N_("Attach Files"), "embed_links": N_("Embed Links"),
    "read_message_history": N_("Read Message History"),
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


def post_failed(tr: Tr) -> str:
    """The player's private note when Discord failed the post for another reason."""
    return tr.gettext("That counts and is saved, but Discord did not take my post, so others "
                      "may not see it yet; `/sanmarco status` shows the game.")

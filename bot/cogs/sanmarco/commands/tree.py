"""The slash command tree: two top-level commands and the groups under them.

Discord takes at most 25 entries on one level of a command and 4,000 characters in one
command (names, descriptions and choices, counted in the longest of its languages), and
refuses the whole sync, every command of the bot, when one breaks a limit. So the commands
are spread to leave room on every level and in every command (``bot.cogs.command_limits``
and tests/bot/test_command_limits.py keep it so):

- ``/sanmarco`` plays this channel's game. The moves played most stay shortest to type,
  directly under it: ``take``, ``play``, ``offers``, ``hand``, ``board``, ``status``, and
  ``hint``, asked at one's decision beside them;
- ``/sanmarco game`` opens, joins, starts, reads back and ends this channel's game (``new``,
  ``join``, ``leave``, ``start``, ``computer``, ``log``, ``undo``, ``rules``, ``abandon``),
  and opens a newcomer's guided practice game in a private thread (``learn``);
- ``/sanmarco seat`` is about who plays a seat (``replace``, ``reclaim``), and being away
  from your games on this server and back (``away``, ``back``): the place too for a
  substitute taking over a seat;
- ``/sanmarco-server`` is San Marco across this server: its memory (``stats``,
  ``leaderboard``, ``history``, ``replay``, ``gamefile``), the channel's ``settings``, how
  you are notified (``notify``), your games here (``games``), the server's open
  ``lobbies``, and ``/sanmarco-server queue`` (``join``, ``leave``, ``list``) to find
  players.

Discord allows one level of groups under a top-level command (a group holds subcommands
only). The groups are made here, once, and each command module adds its commands to them;
the cog carries the top-level ones, so discord.py binds every command to it.
"""

from __future__ import annotations

from discord import app_commands

SANMARCO = app_commands.Group(name="sanmarco", description="Play San Marco in this channel")
GAME = app_commands.Group(name="game", parent=SANMARCO,
                          description="This channel's game: open, join, start, read back, end")
SEAT = app_commands.Group(name="seat", parent=SANMARCO,
                          description="Seats of absent players: a computer plays them, "
                                      "you take yours back, you are away")
SERVER = app_commands.Group(name="sanmarco-server",
                            description="San Marco on this server: records, past games, "
                                        "settings, your games")
QUEUE = app_commands.Group(name="queue", parent=SERVER,
                           description="Find players: wait for a table, and a thread opens "
                                       "when it is full")

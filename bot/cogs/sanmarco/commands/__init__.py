"""The slash commands a person types, one module per group (the cog, ``..cog``, mixes them
in): ``moves`` (the moves directly under ``/sanmarco``), ``game`` (``/sanmarco game``),
``practice`` (``/sanmarco game learn``), ``seat`` (``/sanmarco seat``), ``history`` (a
server's memory: stats, leaderboard, history, replay, game file), ``settings`` (the
channel's settings, notify, games), ``queue`` (the server's lobbies and queue), ``digest``
(since your last move), ``hints`` (``/sanmarco hint`` and the review button's answer);
``tree`` the command tree, ``autocomplete`` the lists of legal choices, ``inputs`` what a
command reads from its interaction, ``durations`` an away time as typed.

May import ``delivery`` (the pictures' worker), ``components`` (what a click does, what a
message shows) and ``shared``; nothing imports it but the cog. Its modules are public to the
cog.
"""

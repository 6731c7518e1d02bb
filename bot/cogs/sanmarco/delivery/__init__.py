"""The outbox's delivery: each channel's committed posts, in order, until Discord takes them
(docs/OUTBOX.md). ``worker`` (one worker per channel, the ``Deliverer``), ``failures`` (what
follows a failed step: a post's tries, its minimal post, a place that refuses), ``leases``
(one deliverer per channel across processes, fenced), ``plan`` (which waiting posts go next, pure),
``sending`` (how one step goes out), ``copies`` (a step's earlier copy on Discord, known
by its post's id), ``thread_steps`` (a game's thread renamed and archived),
``compose`` (a post's words and pictures in the channel's language), ``final`` (the final
post's extras), ``notify`` (DMs to awaited players), ``pictures`` (the pictures' worker,
off the event loop).

May import ``components`` (the buttons and prompt under a post) and ``shared``; the cog, the
commands and the periodic pass import it. Its modules are public to the rooms above.
"""

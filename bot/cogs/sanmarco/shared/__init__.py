"""What every room of the adapter shares: the interaction and its private answers
(``answers``: the ``Interaction`` alias, ``send_private``, where a message goes), the
reader's language (``language``), Discord's refusals (``faults``: one place reads the codes),
what the user who made a change is told once it is saved (``saved``), every interaction's
reception (``reception``: deferred in time, turned away while the bot stops, the one place
errors become answers), where a new game opens and its thread (``opening``: the
commands, the buttons and the periodic pass open games), and who may view a channel as
Discord says (``visibility``: the server's page lists only what every member may view).

Imports no other room of the adapter: every room may import it. Its modules are public to
the rooms above.
"""

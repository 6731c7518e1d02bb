"""Teaching newcomers San Marco: the guided practice game (a private thread with computer
players whose posts explain each idea at its first appearance), hints (the hard computer's
choice for the caller's decision with a reason, read from the caller's own view only: R15)
and the review of a finished game (each player's costliest decisions). Plain async Python
over the store and ``engine.ai``, like the rest of ``bot.service``; no Discord types.
"""

"""The persistent buttons and selects and what they show: ``items`` (one ``DynamicItem`` per
kind, registered at setup so a button works after a restart), ``custom_ids`` (what an id
says: channel, game, version, tag), ``clicks`` (what every item shares: the ``Clicks`` a
press asks for, the one error-answering wrapper it runs under, how a button is made),
``practice`` (a practice game's two buttons), ``panels`` (what each click does, over the
service: ``Panels``), ``screens`` (what a message shows: its text and components),
``hand_links`` (a player's signed link to their hand).

May import only ``shared`` (and the layers below the adapter): the outbox's deliverer is
named by a protocol (``panels.ChannelPosts``). ``delivery`` imports it for the buttons under a
post. Its modules are public to the rooms above.
"""

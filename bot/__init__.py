"""The San Marco bot: store and service (plain Python) and the discord.py adapter (bot.cogs).

Kept import-light on purpose: importing ``bot.service`` or ``bot.store`` must not pull in
discord.py, so tests and tools can use them without it.
"""

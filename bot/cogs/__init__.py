"""discord.py extensions (cogs) of the bot."""

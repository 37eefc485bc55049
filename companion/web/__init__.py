"""The players' phones: a small aiohttp server with each seat's private page, the public board
and live updates (server-sent events). It reads the game only through the rules' views."""

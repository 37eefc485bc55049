"""The players' phones: small aiohttp servers with each seat's private page, the public board
and live updates (server-sent events). ``common`` is the server every game's is built on;
``prison`` and ``dilemma`` are the games' own pages, templates and API. They read the game only
through the rules' views."""

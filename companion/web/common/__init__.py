"""What every phone server shares: the aiohttp server, event streams, limits, the address,
rendering and static files.
"""

"""The web tools: fetch, web_scrape, web_search.

``executor.py`` turns pages into text the model reads (framed as untrusted); ``client.py`` makes the GETs (the
address pinned after the SSRF check, every redirect checked again).
"""

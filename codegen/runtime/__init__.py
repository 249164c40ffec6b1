"""Runtime code of the generated packages: ordinary, typed, tested Python modules that the
backends copy verbatim into each package (``jsonrpc`` → ``<pkg>/_rpc.py``).  Nothing here
imports codegen; a generated package needs only pydantic (and aiohttp for WebSocket/HTTP).
"""

"""The web layer of ``bunco serve``: HTTP API, WebSocket stream, tokens, pub/sub, bots."""

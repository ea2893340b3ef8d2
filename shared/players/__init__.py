"""Players: an identity that lasts across games.

The pure parts live here (names, tokens, the player's events and their fold, the
trusted issuers of bring-your-own-identity JWTs); the store appends a player's events
and keeps the fold beside them. The API's routes are services/api/players.py; the
projector's read models of players (inbox, game records) are
services/projector/players.py.
"""

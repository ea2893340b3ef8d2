"""The single writer: every command, from HTTP, bots or timers, goes through here."""

from services.game.service import GameService

__all__ = ["GameService"]

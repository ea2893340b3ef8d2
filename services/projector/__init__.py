"""Follows the game streams and folds them into read models: per-seat and spectator
views, public summaries, the lobby, one checkpoint per game."""

from services.projector.projector import Projector

__all__ = ["Projector"]

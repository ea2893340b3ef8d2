"""Ratings: each player's skill per game and rule set, folded from finished games
(`fold.py`, pure: no Redis), with openskill's Plackett-Luce model."""

from shared.ratings.fold import (
    DISPLAY_BASE,
    DISPLAY_SCALE,
    PROVISIONAL_GAMES,
    STANDARD,
    Ratings,
    displayed,
    outcome,
    places,
    variant_of,
)

__all__ = [
    "DISPLAY_BASE",
    "DISPLAY_SCALE",
    "PROVISIONAL_GAMES",
    "STANDARD",
    "Ratings",
    "displayed",
    "outcome",
    "places",
    "variant_of",
]

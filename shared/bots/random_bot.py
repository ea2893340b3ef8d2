"""The `random` bot: any legal command, uniformly; out of turn, any reflex it may send."""


def choose(view, rng):
    """A uniformly random element of the view's legal commands."""
    return rng.choice(view["legal"])


def react(view, reflexes, rng):
    """A random legal command among the game's reflexes (a claim, a stack), or None."""
    quick = [c for c in view["legal"] if c["type"] in reflexes]
    return rng.choice(quick) if quick else None

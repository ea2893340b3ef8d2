"""The `random` bot: any legal command, uniformly."""


def choose(view, rng):
    """A uniformly random element of the view's legal commands."""
    return rng.choice(view["legal"])

"""tablestream's processes: api, game (the single writer), projector and worker."""

"""Each game's bot knowledge: greedy play, reflexes, and sampling the unseen cards."""

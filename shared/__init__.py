"""tablestream's own package: the games' rules, events, the event store and the bots."""

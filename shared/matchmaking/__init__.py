"""Quick match: tickets in queues, matched into games (docs/matchmaking.md).

`tickets` holds the queue's events and their fold (pure), `matching` the rules that
group waiting tickets (pure), `store` the queue's stream and read model in Redis.
"""

"""The matchmaker: a process of its own (`python -m services.matchmaker`, started by
`make run`) that seats quick-match tickets (services/matchmaker/matchmaker.py)."""

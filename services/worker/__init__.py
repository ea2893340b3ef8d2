"""RQ jobs: bot turns (and, later, timers). Run by `python -m services.worker`."""

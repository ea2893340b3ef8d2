"""Webhooks: subscriptions, URL safety, and delivery by the RQ worker.

The projector derives notifications from the events it projects (shared/webhooks.py)
and enqueues one delivery job per subscriber and notification on the `webhooks` queue
(`Notifier`); `python -m services.webhooks worker` delivers them, signed, with retries
and a dead-letter list. The API only stores subscriptions: it never delivers.
"""

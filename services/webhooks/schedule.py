"""Putting delivery attempts on the webhooks queue.

The job is named by its import path, so the projector (which enqueues) need not import
the worker's job module, nor the job module the composition root.
"""

from datetime import timedelta

DELIVER = "services.webhooks.jobs.deliver"
KEEP_RESULT = 60  # seconds
KEEP_FAILURE = 24 * 3600


def job_id(nonce, attempt):
    return f"webhook-{nonce}-{attempt}"


def enqueue(queue, game_id, subscriber, body, nonce, attempt=1, delay=None):
    """Put one delivery attempt on the webhooks queue, now or after `delay` seconds."""
    args = (game_id, subscriber, body, nonce, attempt)
    options = {
        "job_id": job_id(nonce, attempt),
        "result_ttl": KEEP_RESULT,
        "failure_ttl": KEEP_FAILURE,
    }
    if delay is None:
        return queue.enqueue(DELIVER, *args, **options)
    return queue.enqueue_in(timedelta(seconds=delay), DELIVER, *args, **options)

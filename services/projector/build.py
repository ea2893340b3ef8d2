"""The projector of a deployment, as its processes build it: bots and timers scheduled
on the deployment's queues, webhooks on its webhooks queue, expiry and retention as its
Config says."""

from services import deps as deps_module
from services.projector.projector import Projector
from services.projector.retention import Retention
from services.projector.sweep import Expiry
from services.webhooks.notifier import Notifier


def projector_of(d, consumer=None):
    """The projector of deployment `d` (Deps); `consumer` names it in the feed's group."""
    config = d.config
    expiry = Expiry(config.waiting_expires_after, config.idle_expires_after)
    retention = Retention(config.finished_read_models_ttl)
    notifier = Notifier(d.redis, d.keys, d.webhook_queue)
    return Projector(
        d.store,
        d.scheduler,
        consumer,
        expiry,
        notifier,
        retention=retention,
        rate_bots=config.rate_bot_games,
    )


def from_config(config):
    """The projector of the deployment `config` names, on connections of its own (each
    process of a parallel rebuild builds its own)."""
    return projector_of(deps_module.build(config))

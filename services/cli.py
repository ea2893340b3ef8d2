"""`tablestream`: one command for everything an operator or a developer runs.

    tablestream run                  the whole service on this machine (make run)
    tablestream api | projector | worker | matchmaker   one process of a deployment
    tablestream rebuild              every read model again from the streams (--jobs N)
    tablestream backup FILE          the streams, webhooks and token secret, as JSON Lines
    tablestream restore FILE         a backup into a fresh Redis; rebuild; verify every game
    tablestream export-finished FILE every finished game's log, one game a line
    tablestream replay LOG...        check finished games' logs offline
    tablestream tournament ...       bots against bots
    tablestream bots check LEVEL     does a bot level decide only from what its seat sees?
    tablestream bot run ...          a bot level plays a seat through the public API
    tablestream bench [NAME] ...     a benchmark from bench/ (a checkout only)
    tablestream openapi [--write]    the OpenAPI document

Each subcommand calls the module that does the work; this file only parses.
"""

import importlib
import json
import os
import subprocess
import sys
from pathlib import Path

import click

from shared.config import Config

ROOT = Path(__file__).resolve().parents[1]
PASS_THROUGH = {"ignore_unknown_options": True, "allow_extra_args": True}


@click.group()
def cli():
    """tablestream: hidden-information card games over a REST API."""


@cli.command()
def run():
    """Redis (embedded unless REDIS_URL is set), the API, projector and workers, kept up
    until Ctrl-C."""
    from services import run as supervisor

    supervisor.main()


@cli.command()
@click.option("--bind", default=lambda: f"0.0.0.0:{Config.from_env().port}")
def api(bind):
    """The API under gunicorn (deploy/gunicorn.conf.py) on BIND (0.0.0.0:$PORT)."""
    # deploy/ sits beside services/ in a checkout, or in the working directory (the image).
    places = [ROOT / "deploy" / "gunicorn.conf.py", Path.cwd() / "deploy" / "gunicorn.conf.py"]
    config = next((p for p in places if p.exists()), places[0])
    command = [sys.executable, "-m", "gunicorn", "--config", str(config), "--bind", bind]
    os.execv(sys.executable, [*command, "services.api:create_app()"])


@cli.command()
def projector():
    """One projector: follows the feed (several share it through a consumer group)."""
    from services.projector.__main__ import main

    _quietly(main, [])


@cli.command()
def matchmaker():
    """One matchmaker: seats quick-match tickets (several may run at once)."""
    from services.matchmaker.__main__ import main

    _quietly(main)


@cli.command(context_settings=PASS_THROUGH)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def worker(args):
    """One RQ worker for bot turns and timers (ARGS go to `python -m services.worker`)."""
    sys.argv = ["python -m services.worker", *args]
    from services.worker.__main__ import main

    _quietly(main)


@cli.command()
@click.option("--progress/--no-progress", default=True, help="A progress bar on stderr.")
@click.option("--jobs", default=1, show_default=True, help="Processes that share the games.")
def rebuild(progress, jobs):
    """Throw every read model away and build them again from the streams."""
    from tqdm import tqdm

    from services.projector import build
    from services.projector import rebuild as rebuilding
    from shared.config import Config

    def bar(game_ids):
        return tqdm(game_ids, desc="rebuilding", unit="game", disable=not progress)

    count = rebuilding.in_parallel(build.from_config, Config.from_env(), jobs, progress=bar)
    click.echo(f"rebuilt the read models of {count} games")


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def backup(path):
    """Copy the streams (games, players, quick match), webhooks and the token secret to
    PATH (JSON Lines)."""
    from services import backup as backups
    from services import deps as deps_module

    with open(path, "w") as out:
        count = backups.backup(deps_module.build(), out)
    click.echo(f"backed up {count} games to {path}")


@cli.command()
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def restore(path):
    """Restore PATH into this deployment's Redis (holding no game yet), rebuild every
    read model and verify every game; exits 1 if any game does not check out."""
    from services import backup as backups
    from services import deps as deps_module
    from services.projector.build import projector_of

    d = deps_module.build()
    with open(path) as lines:
        try:
            answer = backups.restore(d, lines, projector_of(d, consumer="restore"))
        except backups.NotEmpty as error:
            raise click.ClickException(str(error)) from None
    click.echo(json.dumps(answer, indent=2))
    if answer["problems"]:
        sys.exit(1)


@cli.command("export-finished")
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def export_finished(path):
    """Every finished game's whole log to PATH, one game a line (JSON Lines)."""
    from services import backup as backups
    from services import deps as deps_module

    with open(path, "w") as out:
        count = backups.export_finished(deps_module.build(), out)
    click.echo(f"exported {count} finished games to {path}")


@cli.command()
@click.argument("logs", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@click.option("--at", type=int, help="Show the table at this version (one log).")
@click.option("--seat", type=int, help="As this seat saw it (default: a spectator).")
@click.option("--progress/--no-progress", default=True, help="A progress bar on stderr.")
def replay(logs, at, seat, progress):
    """Check finished games' logs (each what GET /v1/games/{id}/events answers): the seed
    matches its published hash and every event is decided again. Exits 1 if one fails."""
    from services import replay as replaying

    if len(logs) == 1:
        argv = [logs[0], *(["--at", str(at)] if at is not None else [])]
        argv += ["--seat", str(seat)] if seat is not None else []
        sys.exit(replaying.main(argv))
    if at is not None or seat is not None:
        raise click.UsageError("--at and --seat show one log: name only one")
    from tqdm import tqdm

    from shared import replay as checking

    failed = 0
    for path in tqdm(logs, desc="replaying", unit="log", disable=not progress):
        with open(path) as file:
            loaded = json.load(file)
        records = loaded["events"] if isinstance(loaded, dict) else loaded
        problems = checking.check(records)
        failed += bool(problems)
        for problem in problems:
            click.echo(f"{path}: {problem}")
    click.echo(f"{len(logs) - failed} of {len(logs)} logs check out")
    sys.exit(1 if failed else 0)


@cli.command(context_settings={**PASS_THROUGH, "help_option_names": []})
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def tournament(args):
    """Bots against bots: ARGS go to services.tournament (see its --help)."""
    try:
        module = importlib.import_module("services.tournament")
    except ModuleNotFoundError:
        raise click.ClickException("this version has no tournament runner") from None
    sys.exit(module.main(list(args)))


@cli.group()
def bots():
    """Bot levels: the built-in ones and installed plugins (docs/bots.md)."""


@bots.command("list")
def bots_list():
    """The levels installed, the games each plays, and any that did not load."""
    from shared.bots import registry

    for name, level in registry.levels().items():
        click.echo(f"{name}: {', '.join(level.games)}  {level.description}".rstrip())
    for name, why in registry.problems().items():
        click.echo(f"{name}: not served: {why}")


@bots.command("check")
@click.argument("level")
@click.option("--positions", default=20, show_default=True, help="Positions per game.")
@click.option("--worlds", default=2, show_default=True, help="Other tables per position.")
@click.option("--repeats", default=2, show_default=True, help="Decisions on the real table.")
@click.option("--game", "game_names", multiple=True, help="Only this game (repeatable).")
@click.option("--think-ms", type=int, help="The budget per decision (default: the level's).")
@click.option("--seed", default="check", show_default=True)
def bots_check(level, positions, worlds, repeats, game_names, think_ms, seed):
    """Change only what the seat cannot see, over many positions of every game LEVEL
    plays; report any decision that changed, and decision time against the budget.
    Exits 1 when a decision changed or was late, 2 when LEVEL cannot be checked."""
    from services import fairness
    from shared.bots import registry

    try:
        registry.get(level)
        for game in game_names:
            registry.get(level, game)
    except registry.UnknownLevel as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(2)
    report = fairness.check(
        level, positions, worlds, repeats, seed, think_ms, list(game_names) or None
    )
    click.echo(report.text())
    sys.exit(0 if report.passed else 1)


@cli.group()
def bot():
    """A bot that plays over the public API, from any machine (docs/bots.md)."""


@bot.command("run")
@click.option("--url", required=True, help="The API's base URL, e.g. http://127.0.0.1:8000.")
@click.option("--token", required=True, help="The seat's token (it names game and seat).")
@click.option("--level", required=True, help="An installed level: random, greedy, ismcts...")
@click.option("--think-ms", type=int, help="The budget per decision (default: the level's).")
@click.option("--max-seconds", type=float, help="Give up after this long (default: never).")
@click.option(
    "--transport",
    type=click.Choice(["auto", "ws", "poll"]),
    default="auto",
    show_default=True,
    help="The WebSocket (/v1/ws), long-poll, or the WebSocket when the server has it.",
)
def bot_run(url, token, level, think_ms, max_seconds, transport):
    """Play the seat of TOKEN with LEVEL until the game is over; print how it ended."""
    from services import botrun
    from shared.bots import registry

    try:
        runner, view = botrun.run(url, token, level, think_ms, max_seconds, transport)
    except registry.UnknownLevel as error:
        click.echo(f"Error: {error}", err=True)
        sys.exit(2)
    except botrun.ApiError as error:
        raise click.ClickException(f"the API refused: {error}") from None
    status = view["status"] if view else "not reached"
    ended = {"status": status, "sent": runner.sent, "transport": runner.transport}
    click.echo(json.dumps({**ended, "result": (view or {}).get("result")}))
    sys.exit(0 if status in botrun.OVER else 1)


@cli.command(context_settings=PASS_THROUGH)
@click.argument("name", default="moves_per_second")
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
def bench(name, args):
    """Run bench/NAME.py (moves_per_second, long_poll) with ARGS; needs a checkout."""
    script = ROOT / "bench" / f"{name}.py"
    if not script.exists():
        raise click.ClickException(f"no benchmark {script}")
    # bench/ is a package of the checkout (not installed): run it from the checkout's root.
    command = [sys.executable, "-m", f"bench.{name}", *args]
    sys.exit(subprocess.run(command, cwd=ROOT).returncode)


@cli.command()
@click.option("--write", is_flag=True, help="Update openapi.yaml instead of printing.")
def openapi(write):
    """The OpenAPI document, as YAML."""
    from services.api import openapi as document

    text = document.document()
    if write:
        document.PATH.write_text(text)
    else:
        click.echo(text, nl=False)


def _quietly(main, *args):
    from services.ops import logs

    logs.run_quietly(main, *args)


def main():
    """The console script."""
    try:
        cli()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()

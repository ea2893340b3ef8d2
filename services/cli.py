"""`tablestream`: one command for everything an operator or a developer runs.

    tablestream run                  the whole service on this machine (make run)
    tablestream api | projector | worker   one process of a deployment
    tablestream rebuild              every read model again from the streams (--jobs N)
    tablestream replay LOG...        check finished games' logs offline
    tablestream tournament ...       bots against bots
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

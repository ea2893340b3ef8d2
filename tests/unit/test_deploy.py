"""deploy/: the Kubernetes manifests validate against the Kubernetes schemas (shipped
by kubernetes-validate, offline), the Compose file against the compose-spec schema
(shipped by check-jsonschema), and both, the image and the Grafana dashboard name only
commands and metrics that exist. Docker itself cannot run here: docs/operations.md."""

import inspect
import json
import re
from importlib import resources
from pathlib import Path

import jsonschema
import kubernetes_validate
import pytest
import yaml

from services import cli
from services.matchmaker.matchmaker import WaitingCollector
from services.ops import health, metrics

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
KUBERNETES = "1.30.0"  # the oldest minor version the manifests promise to run on


def manifests():
    return [
        (path.name, doc)
        for path in sorted((DEPLOY / "k8s").glob("*.yaml"))
        for doc in yaml.safe_load_all(path.read_text())
    ]


def compose_schema():
    vendored = resources.files("check_jsonschema") / "builtin_schemas/vendor/compose-spec.json"
    return json.loads(vendored.read_text())


def compose():
    return yaml.safe_load((DEPLOY / "compose.yaml").read_text())


@pytest.mark.parametrize(
    "doc", [d for _, d in manifests()], ids=[f"{n}:{d['kind']}" for n, d in manifests()]
)
def test_each_manifest_is_valid_kubernetes(doc):
    kubernetes_validate.validate(doc, KUBERNETES, strict=True)


def test_the_validator_refuses_a_broken_manifest():
    deployment = next(d for _, d in manifests() if d["kind"] == "Deployment")
    broken = {**deployment, "spec": {**deployment["spec"], "replicas": "two"}}
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, KUBERNETES, strict=True)
    unknown = {**deployment, "spec": {**deployment["spec"], "replica": 2}}  # a typo
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(unknown, KUBERNETES, strict=True)


def test_every_deployment_has_probes_resources_and_a_disruption_budget():
    docs = [d for _, d in manifests()]
    deployments = {d["metadata"]["name"]: d for d in docs if d["kind"] == "Deployment"}
    assert set(deployments) == {"api", "projector", "worker", "matchmaker"}
    budgets = {d["metadata"]["name"]: d for d in docs if d["kind"] == "PodDisruptionBudget"}
    for name, deployment in deployments.items():
        pod = deployment["spec"]["template"]
        (container,) = pod["spec"]["containers"]
        assert container["args"] == [name] and name in cli.cli.commands
        assert container["livenessProbe"] and container["readinessProbe"]
        assert container["resources"]["requests"] and container["resources"]["limits"]
        assert pod["spec"]["securityContext"]["runAsNonRoot"] is True
        selector = budgets[name]["spec"]["selector"]["matchLabels"]
        assert selector.items() <= pod["metadata"]["labels"].items()
    api = deployments["api"]["spec"]["template"]["spec"]["containers"][0]
    assert api["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert api["livenessProbe"]["httpGet"]["path"] == "/healthz"
    (autoscaler,) = [d for d in docs if d["kind"] == "HorizontalPodAutoscaler"]
    assert autoscaler["spec"]["scaleTargetRef"] == {
        "apiVersion": "apps/v1",
        "kind": "Deployment",
        "name": "api",
    }
    (redis,) = [d for d in docs if d["kind"] == "StatefulSet"]
    args = redis["spec"]["template"]["spec"]["containers"][0]["args"]
    assert args[args.index("--appendonly") + 1] == "yes"


def test_the_compose_file_is_valid_compose():
    schema = compose_schema()
    validator = jsonschema.validators.validator_for(schema)(schema)
    assert list(validator.iter_errors(compose())) == []
    broken = compose()
    broken["services"]["worker"]["restart"] = ["always"]
    assert list(validator.iter_errors(broken))  # the schema is not a rubber stamp


def test_compose_runs_redis_with_aof_and_workers_that_scale():
    services = compose()["services"]
    assert set(services) == {"redis", "api", "projector", "worker", "matchmaker"}
    command = services["redis"]["command"]
    assert command[command.index("--appendonly") + 1] == "yes"
    assert services["redis"]["volumes"]
    for name in ("api", "projector", "worker", "matchmaker"):
        assert services[name]["command"] == [name] and name in cli.cli.commands
        assert services[name]["depends_on"]["redis"]["condition"] == "service_healthy"
    # `docker compose up --scale worker=3`: no fixed name and no host port to collide on.
    assert "container_name" not in services["worker"] and "ports" not in services["worker"]


def test_one_slim_non_root_image_runs_every_process():
    dockerfile = (DEPLOY / "Dockerfile").read_text()
    bases = re.findall(r"^FROM (\S+)", dockerfile, re.MULTILINE)
    assert bases and all(base.endswith("-slim") for base in bases)
    users = re.findall(r"^USER (\S+)", dockerfile, re.MULTILINE)
    assert users and users[-1] not in ("root", "0")
    assert 'ENTRYPOINT ["tablestream"]' in dockerfile
    assert "[test]" not in dockerfile  # the service's dependencies only


def exposed_families():
    """Every metric family name a tablestream process can expose."""
    names = {m._name for m in vars(metrics).values() if hasattr(m, "_name")}
    names |= {f"{n}_total" for n in names} | {f"{n}_bucket" for n in names}
    names |= {f"{n}_count" for n in names}
    for source in (health.GamesCollector, health.QueueCollector, WaitingCollector):
        names |= set(re.findall(r'"(tablestream_[a-z_]+)"', inspect.getsource(source)))
    return names


def test_the_grafana_dashboard_charts_only_metrics_that_exist():
    dashboard = json.loads((DEPLOY / "grafana" / "tablestream.json").read_text())
    exprs = [t["expr"] for p in dashboard["panels"] for t in p["targets"]]
    charted = {n for e in exprs for n in re.findall(r"tablestream_[a-z_]+", e)}
    assert charted <= exposed_families(), charted - exposed_families()
    for family in ("requests", "commands_refused", "projection_lag", "queue_jobs", "bot_"):
        assert any(family in name for name in charted)

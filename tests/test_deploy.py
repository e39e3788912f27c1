"""The deployment files: Compose validated against the Compose spec, the Kubernetes manifests
against the Kubernetes API schemas (both offline, from packages), and both kept in step with
what the server needs (probes on real paths, the capabilities the sandbox layers need)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import kubernetes_validate
import pytest
import yaml

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
MANIFESTS = sorted((DEPLOY / "k8s").glob("*.yaml"))
SANDBOX_CAPABILITIES = {"SETUID", "SETGID", "SYS_ADMIN", "KILL"}


def test_compose_file_follows_the_compose_spec() -> None:
    checked = subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.compose-spec",
         str(DEPLOY / "compose.yaml")],
        capture_output=True, text=True,
    )  # fmt: skip

    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_compose_runs_migrations_once_then_three_replicas_with_the_sandbox_capabilities() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    api, migrate = compose["services"]["api"], compose["services"]["migrate"]

    assert api["deploy"]["replicas"] == 3
    assert api["depends_on"]["migrate"]["condition"] == "service_completed_successfully"
    assert migrate["command"] == ["quiver", "db", "upgrade"]
    assert set(api["cap_add"]) == SANDBOX_CAPABILITIES and api["cap_drop"] == ["ALL"]
    assert {"postgres", "redis", "lb"} <= compose["services"].keys()


@pytest.mark.parametrize("path", MANIFESTS, ids=[p.name for p in MANIFESTS])
def test_kubernetes_manifest_is_valid(path: Path) -> None:
    for document in yaml.safe_load_all(path.read_text()):
        kubernetes_validate.validate(document, kubernetes_validate.latest_version(), strict=True)


def test_the_deployment_probes_real_paths_and_keeps_only_the_sandbox_capabilities() -> None:
    kinds = {doc["kind"] for path in MANIFESTS for doc in yaml.safe_load_all(path.read_text())}
    deployment = yaml.safe_load((DEPLOY / "k8s" / "deployment.yaml").read_text())
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    security = container["securityContext"]

    assert {"Deployment", "Service", "PodDisruptionBudget", "HorizontalPodAutoscaler", "Job",
            "Secret"} <= kinds  # fmt: skip
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    assert container["lifecycle"]["preStop"]
    assert security["capabilities"]["drop"] == ["ALL"]
    assert set(security["capabilities"]["add"]) == SANDBOX_CAPABILITIES


def _production_problems(env: dict[str, str]) -> list[str]:
    from server.preflight import unsafe_for_production
    from server.settings import Settings

    fields = {k.removeprefix("QUIVER_").lower(): v for k, v in env.items()}
    assert fields.get("environment") == "production"
    return unsafe_for_production(Settings(**fields))


def test_the_deployments_start_as_production_nodes_with_what_production_needs() -> None:
    compose = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    api = compose["services"]["api"]["environment"]
    interpolated = {k: re.sub(r"\$\{(\w+):\?[^}]*\}", r"<\1>", str(v)) for k, v in api.items()}
    deployment = yaml.safe_load((DEPLOY / "k8s" / "deployment.yaml").read_text())
    container = deployment["spec"]["template"]["spec"]["containers"][0]
    secret = next(
        doc for doc in yaml.safe_load_all((DEPLOY / "k8s" / "secret.yaml").read_text())
        if doc["kind"] == "Secret"
    )  # fmt: skip
    k8s = {**secret["stringData"], **{e["name"]: e["value"] for e in container["env"]}}

    assert _production_problems(interpolated) == []
    assert _production_problems(k8s) == []
    assert _production_problems({**k8s, "QUIVER_CORS_ORIGINS": "*"})  # the check can fail

"""docs/deploy's Containerfile and Kubernetes manifests, checked without a container engine or a
cluster (neither runs on the machines the tests run on): the YAML parses (PyYAML) into the
Deployment, Service and HorizontalPodAutoscaler, which point at each other; the readiness probe
asks SandboxFusion's public `/v1/ping`; every `wasmeval serve` flag they pass exists in the binary's
`serve --help`; and, where kubectl is installed, `kubectl kustomize docs/deploy` renders them.

Usage: python tests/deploy/test_manifests.py --wasmeval target/release/wasmeval
Prints `deploy manifests: ok`; any problem raises.
"""
import argparse
import os
import re
import shutil
import subprocess

import yaml

DEPLOY = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "deploy")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--wasmeval", required=True)
    args = parser.parse_args()
    help_text = subprocess.run([args.wasmeval, "serve", "--help"], capture_output=True, text=True,
                               check=True).stdout
    known = set(re.findall(r"--[a-z][a-z-]+", help_text))

    with open(os.path.join(DEPLOY, "kubernetes.yaml")) as file:
        documents = [d for d in yaml.safe_load_all(file) if d]
    by_kind = {d["kind"]: d for d in documents}
    assert sorted(by_kind) == ["Deployment", "HorizontalPodAutoscaler", "Service"], sorted(by_kind)
    deployment, service, hpa = by_kind["Deployment"], by_kind["Service"], by_kind["HorizontalPodAutoscaler"]

    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"].items() <= labels.items(), labels
    assert service["spec"]["selector"].items() <= labels.items(), service["spec"]["selector"]
    assert service["spec"]["type"] == "ClusterIP", "the SandboxFusion API has no token: not outside the cluster"
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"]), target
    assert hpa["spec"]["minReplicas"] <= hpa["spec"]["maxReplicas"]

    (container,) = deployment["spec"]["template"]["spec"]["containers"]
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports == {"http": 8080}, ports
    assert service["spec"]["ports"][0]["targetPort"] in ("http", 8080)
    for probe in ("readinessProbe", "livenessProbe"):
        get = container[probe]["httpGet"]
        assert (get["path"], get["port"]) == ("/v1/ping", "http"), (probe, get)
    resources = container["resources"]
    for key in ("cpu", "memory"):
        assert key in resources["requests"] and key in resources["limits"], resources
    for flag in [a for a in container["args"] if a.startswith("--")]:
        assert flag in known, f"kubernetes.yaml passes {flag}, which `wasmeval serve` does not take"

    with open(os.path.join(DEPLOY, "Containerfile")) as file:
        containerfile = file.read()
    entrypoint = re.search(r"^ENTRYPOINT (\[.*\])$", containerfile, re.M)
    cmd = re.search(r"^CMD (\[.*\])$", containerfile, re.M)
    assert entrypoint and cmd, "the Containerfile needs an ENTRYPOINT and a CMD in exec form"
    words = yaml.safe_load(entrypoint.group(1)) + yaml.safe_load(cmd.group(1))
    assert words[:2] == ["wasmeval", "serve"] and "0.0.0.0:8080" in words, words
    for flag in [w for w in words if w.startswith("--")]:
        assert flag in known, f"the Containerfile passes {flag}, which `wasmeval serve` does not take"
    # The modules are compiled at build time, by a `serve` stopped once it prints its address.
    assert "serving on" in containerfile and "kill -TERM" in containerfile
    for script in re.findall(r"scripts/[a-z-]*[a-z](?![-*a-z])", containerfile):
        assert os.path.exists(os.path.join(DEPLOY, "..", "..", script)), script

    kubectl = shutil.which("kubectl")
    if kubectl:
        rendered = subprocess.run([kubectl, "kustomize", DEPLOY], capture_output=True, text=True, check=True).stdout
        kinds = sorted(d["kind"] for d in yaml.safe_load_all(rendered) if d)
        assert kinds == ["Deployment", "HorizontalPodAutoscaler", "Service"], kinds
    print("deploy manifests: ok" + ("" if kubectl else " (no kubectl: kustomize not checked)"))


if __name__ == "__main__":
    main()

"""openapi.yaml against itself, its generator and the router: valid OpenAPI 3.1, exactly what
scripts/openapi/generate.py writes, and every route of the server in the spec and back."""
import pathlib
import re
import subprocess
import sys

import yaml
from openapi_spec_validator import validate

from conftest import ROOT, binary

SPEC = ROOT / "openapi.yaml"


def load():
    return yaml.safe_load(SPEC.read_text())


def test_spec_is_valid_openapi_3_1():
    spec = load()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_spec_is_what_the_generator_writes():
    generated = subprocess.run([sys.executable, str(ROOT / "scripts/openapi/generate.py")], capture_output=True, text=True, check=True).stdout
    assert generated == SPEC.read_text(), "openapi.yaml is stale: python3 scripts/openapi/generate.py > openapi.yaml"


def spec_routes(spec):
    routes = set()
    for path, item in spec["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "patch", "delete"):
                routes.add((method.upper(), re.sub(r"\{[^}]+\}", "{}", path)))
    return routes


def server_routes(spec):
    """The router's templates with `:collection` spelled out for every collection the spec has."""
    output = subprocess.run([binary(), "routes"], capture_output=True, text=True, check=True).stdout
    collections = {path.split("/")[2] for path in spec["paths"] if path.startswith("/v1/") and path.count("/") == 2}
    routes = set()
    for line in output.splitlines():
        method, template = line.split(" ", 1)
        expansions = [template.replace(":collection", c) for c in sorted(collections)] if ":collection" in template else [template]
        for path in expansions:
            # The explorer's assets are one literal route each; the spec has /explorer/{asset}.
            path = re.sub(r"^/explorer/[^/]+$", "/explorer/:asset", path)
            routes.add((method, re.sub(r":[A-Za-z]+", "{}", path)))
    return routes


def test_every_route_is_in_the_spec_and_back():
    spec = load()
    documented = spec_routes(spec)
    served = server_routes(spec)
    # The router serves every collection name at /v1/:collection; writes to samples do not exist.
    assert documented - served == set(), f"documented but not served: {sorted(documented - served)}"
    assert served - documented == set(), f"served but not documented: {sorted(served - documented)}"

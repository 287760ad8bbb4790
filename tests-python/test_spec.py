"""openapi.yaml against itself, its generator and the router: valid OpenAPI 3.1, exactly what
`rowserver openapi` writes for the demo definition, and every route of the server in the spec and
back, for the demo and for examples/tickets.yaml."""
import pathlib
import re
import subprocess
import sys

import pytest
import yaml
from openapi_spec_validator import validate

from conftest import ROOT, binary

SPEC = ROOT / "openapi.yaml"


DEFINITIONS = [None, str(ROOT / "examples/tickets.yaml")]


def load():
    return yaml.safe_load(SPEC.read_text())


def definition_args(definition):
    return ["--collections", definition] if definition else []


def generated(definition=None):
    return subprocess.run([binary(), "openapi", *definition_args(definition)], capture_output=True, text=True, check=True).stdout


def test_spec_is_valid_openapi_3_1():
    spec = load()
    assert spec["openapi"].startswith("3.1")
    validate(spec)


def test_spec_is_what_the_generator_writes():
    assert generated() == SPEC.read_text(), "openapi.yaml is stale: .build/debug/rowserver openapi > openapi.yaml"


def test_the_examples_document_is_valid_openapi_3_1():
    validate(yaml.safe_load(generated(DEFINITIONS[1])))


def spec_routes(spec):
    routes = set()
    for path, item in spec["paths"].items():
        for method in item:
            if method in ("get", "post", "put", "patch", "delete"):
                routes.add((method.upper(), re.sub(r"\{[^}]+\}", "{}", path)))
    return routes


def read_only_collections(definition=None):
    """The collections the definition file declares `writable: false`: the server answers their
    write routes with 405, so they are not served writes."""
    path = pathlib.Path(definition) if definition else ROOT / "definitions/demo.yaml"
    collections = yaml.safe_load(path.read_text())["collections"]
    return {name for name, body in collections.items() if body.get("writable", True) is False}


def collections_of(definition=None):
    path = pathlib.Path(definition) if definition else ROOT / "definitions/demo.yaml"
    return yaml.safe_load(path.read_text())["collections"]


def outlines(definition=None):
    """The collections the definition makes outlines (`tree`): only theirs have `/roots`; every
    other collection's answers 404."""
    return {name for name, body in collections_of(definition).items() if body.get("tree")}


def text_sorted(definition=None):
    """The collections with a sort by a text, an email or a phone field: only their lists have a
    letter index (`/index`); every other collection's answers 400 NO_LETTER_INDEX."""
    names = set()
    for name, body in collections_of(definition).items():
        fields = body.get("fields", {})
        sorts = body.get("sort", [])
        sorted_fields = sorts.values() if isinstance(sorts, dict) else sorts
        types = [(fields.get(field) or {}).get("type") for field in sorted_fields]
        if any(kind in ("text", "email", "phone") for kind in types):
            names.add(name)
    return names


def server_routes(spec, definition=None):
    """The router's templates with `:collection` spelled out for every top-level collection the
    spec has, and `:collection/:id/:child` for every child list it has; writes only for the
    writable ones."""
    output = subprocess.run([binary(), "routes", *definition_args(definition)], capture_output=True, text=True, check=True).stdout
    collections = {path.split("/")[2] for path in spec["paths"] if path.startswith("/v1/") and path.count("/") == 2}
    children = {(path.split("/")[2], path.split("/")[4]) for path in spec["paths"] if path.startswith("/v1/") and path.count("/") == 4}
    read_only = read_only_collections(definition)
    trees, texts = outlines(definition), text_sorted(definition)

    def serves(template, name):
        # A level of an outline, and a letter index, are served where the definition offers them.
        if re.search(r"/roots\b", template) and name not in trees:
            return False
        return not (template.endswith("/index") and name not in texts)

    routes = set()
    for line in output.splitlines():
        method, template = line.split(" ", 1)
        writes = method in ("POST", "PUT", "PATCH", "DELETE")
        if re.search(r":child\b", template):
            expansions = [re.sub(r":child\b", c, template.replace(":collection", p))
                          for p, c in sorted(children) if not (writes and c in read_only) and serves(template, c)]
        elif ":collection" in template:
            expansions = [template.replace(":collection", c) for c in sorted(collections)
                          if not (writes and c in read_only) and serves(template, c)]
        else:
            expansions = [template]
        for path in expansions:
            # The explorer's assets and the client module are one literal route each; the spec
            # has /explorer/{asset} and /client/{file}.
            path = re.sub(r"^/explorer/[^/]+$", "/explorer/:asset", path)
            path = re.sub(r"^/client/[^/]+$", "/client/:file", path)
            routes.add((method, re.sub(r":[A-Za-z]+", "{}", path)))
    return routes


@pytest.mark.parametrize("definition", DEFINITIONS, ids=["demo", "tickets"])
def test_every_route_is_in_the_spec_and_back(definition):
    spec = yaml.safe_load(generated(definition))
    documented = spec_routes(spec)
    served = server_routes(spec, definition)
    # The router serves every collection name at /v1/:collection; a read-only one answers writes with 405.
    assert documented - served == set(), f"documented but not served: {sorted(documented - served)}"
    assert served - documented == set(), f"served but not documented: {sorted(served - documented)}"

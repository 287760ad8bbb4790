#!/usr/bin/env python3
"""Writes openapi.yaml: rowserver's API, one path per collection.

The spec spells out every collection's paths, parameters and schemas (sortable fields as
enumerations, filters, views), which by hand would be hundreds of repeated lines. Edit this
script, run it, commit both: `python3 scripts/openapi/generate.py > openapi.yaml`.
tests-python/test_spec.py fails when the two differ.
"""
import itertools
import json
import pathlib
import re
import sys

LOCALES = ["en-US", "en-GB", "de-DE", "fr-FR", "ja-JP"]
ID_PATTERN = "^{}_[0-9a-hjkmnp-tv-z]{{16}}$"

# name, id prefix, sortable fields, default sort, filters, sections, table, writable
COLLECTIONS = [
    ("products", "prd", ["name", "price"], ["name"], ["minPrice", "maxPrice"], False, True, True),
    ("departments", "dep", ["name"], ["name"], [], False, False, True),
    ("people", "per", ["familyName", "givenName", "emailAddress"], ["familyName", "givenName"], ["department"], True, True, True),
    ("articles", "art", ["headline"], ["headline"], [], False, False, True),
    ("documents", "doc", ["title"], ["title"], [], False, False, True),
    ("tracks", "trk", ["title"], ["title"], [], False, False, True),
]
SAMPLES = ("samples", "smp", ["timestamp"], ["timestamp"], [], False, True, False)

ROOT = pathlib.Path(__file__).resolve().parents[2]
# The currencies the server knows: Domain's ISO 4217 table, read so the two cannot drift apart.
CURRENCIES = sorted(set(re.findall(r"\b[A-Z]{3}\b", (ROOT / "Sources/Domain/Models/ISO4217.swift").read_text())) - {"ISO"})
NO_NUL = "^[^\\x00]*$"
NOT_BLANK = "^[^\\x00]*[^\\s\\x00][^\\x00]*$"

TITLES = {"products": "Product", "departments": "Department", "people": "Person", "articles": "Article",
          "documents": "Document", "tracks": "Track", "samples": "Sample"}


def ref(name, kind="schemas"):
    return {"$ref": f"#/components/{kind}/{name}"}


def sort_values(fields):
    """Every valid sort expression: each field at most once, any order, either direction."""
    values = []
    for n in range(1, len(fields) + 1):
        for combo in itertools.permutations(fields, n):
            for signs in itertools.product(["", "-"], repeat=n):
                values.append(",".join(s + f for s, f in zip(signs, combo)))
    return values


def problem_responses(*statuses):
    return {str(s): ref(f"Problem{s}", "responses") for s in statuses}


def list_parameters(c):
    name, _, sortable, _, filters, sections, table, _ = c
    params = [
        ref("Limit", "parameters"),
        ref("Cursor", "parameters"),
        {"name": "sort", "in": "query", "required": False,
         "description": "Comma-separated fields, `-` for descending; each field at most once. The id is always the last key.",
         "schema": {"type": "string", "enum": sort_values(sortable)}},
        *([ref("Search", "parameters")] if name != "samples" else []),
        {"name": "view", "in": "query", "required": False,
         "description": "`table` for columns and cells instead of rows." if table else "Only `rows` for this collection.",
         "schema": {"type": "string", "enum": ["rows", "table"] if table else ["rows"]}},
    ]
    if sections:
        params.append({"name": "group", "in": "query", "required": False,
                       "description": "`department` cuts the page into sections, departments ordered by name. Not with `view=table`.",
                       "schema": {"type": "string", "enum": ["department"]}})
    for f in filters:
        if f == "department":
            params.append({"name": "department", "in": "query", "required": False,
                           "description": "Only people of this department.",
                           "schema": {"type": "string", "pattern": ID_PATTERN.format("dep")}})
        else:
            params.append({"name": f, "in": "query", "required": False,
                           "description": f"Products priced {'at least' if f == 'minPrice' else 'at most'} this many minor units.",
                           "schema": {"type": "string", "pattern": "^[0-9]{1,15}$"}})
    params += [ref("AcceptLanguage", "parameters"), ref("IfNoneMatch", "parameters")]
    return params


def list_operation(c, path_params=()):
    name, _, _, _, _, sections, table, _ = c
    schemas = [ref("RowPage")]
    if sections:
        schemas.append(ref("SectionPage"))
    if table:
        schemas.append(ref("TablePage"))
    body = schemas[0] if len(schemas) == 1 else {"oneOf": schemas}
    return {
        "tags": ["lists"],
        "operationId": f"list{name[0].upper()}{name[1:]}",
        "summary": f"A page of {name}: rows" + (", sections" if sections else "") + (" or a table" if table else "") + ".",
        "parameters": list(path_params) + list_parameters(c),
        "responses": {
            "200": {"description": "A page. `next` is null on the last page.",
                    "headers": {"ETag": ref("ETag", "headers"), "Link": ref("Link", "headers"),
                                "Content-Language": ref("ContentLanguage", "headers"), "Vary": ref("Vary", "headers"),
                                "Cache-Control": ref("CacheControl", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
                    "content": {"application/json": {"schema": body}}},
            "304": ref("NotModified", "responses"),
            **problem_responses(400, 404),
            "default": ref("Problem", "responses"),
        },
    }


def changes_operation(c):
    name = c[0]
    return {
        "tags": ["lists"],
        "operationId": f"changes{name[0].upper()}{name[1:]}",
        "summary": f"Changes to {name} after a token, in commit order.",
        "description": "Without `since`: no changes and a token for \"from now\". Replaying a token is safe; "
                       "a token older than the retained history is 410, so the client reloads the list.",
        "parameters": [
            {"name": "since", "in": "query", "required": False, "description": "A token from a previous answer's `next`.",
             "schema": {"type": "string", "maxLength": 256}},
            {"name": "limit", "in": "query", "required": False, "description": "Changes per answer, 1 to 1000 (default 100).",
             "schema": {"type": "integer", "minimum": 1, "maximum": 1000, "default": 100}},
            ref("AcceptLanguage", "parameters"),
        ],
        "responses": {
            "200": {"description": "Changes, the token to resume from, and whether more follow.",
                    "headers": {"Content-Language": ref("ContentLanguage", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
                    "content": {"application/json": {"schema": ref("ChangeFeed")}}},
            **problem_responses(400, 404, 410),
            "default": ref("Problem", "responses"),
        },
    }


def id_param(prefix, name="id", description="The item's id, as links give it."):
    return {"name": name, "in": "path", "required": True, "description": description,
            "schema": {"type": "string", "pattern": ID_PATTERN.format(prefix)}}


def detail_operation(c, params):
    name = c[0]
    title = TITLES[name]
    return {
        "tags": ["items"],
        "operationId": f"get{title}",
        "summary": f"One {title.lower()} by id: the full detail.",
        "parameters": params + [ref("AcceptLanguage", "parameters"), ref("IfNoneMatch", "parameters")],
        "responses": {
            "200": {"description": "The detail.",
                    "headers": {"ETag": ref("ETag", "headers"), "Content-Language": ref("ContentLanguage", "headers"),
                                "Vary": ref("Vary", "headers"), "Cache-Control": ref("CacheControl", "headers"),
                                "X-Request-ID": ref("XRequestID", "headers")},
                    "content": {"application/json": {"schema": ref(f"{title}Detail")}}},
            "304": ref("NotModified", "responses"),
            **problem_responses(404),
            "default": ref("Problem", "responses"),
        },
    }


def write_operations(c):
    name, prefix = c[0], c[1]
    title = TITLES[name]
    created = {"description": "Created. The body is the new item's detail.",
               "headers": {"Location": ref("Location", "headers"), "ETag": ref("ETag", "headers"),
                           "Content-Language": ref("ContentLanguage", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
               "content": {"application/json": {"schema": ref(f"{title}Detail")}}}
    updated = {"description": "Updated. The body is the item's new detail; the id never changes.",
               "headers": {"ETag": ref("ETag", "headers"), "Content-Language": ref("ContentLanguage", "headers"),
                           "X-Request-ID": ref("XRequestID", "headers")},
               "content": {"application/json": {"schema": ref(f"{title}Detail")}}}
    post = {
        "tags": ["items"], "operationId": f"create{title}", "summary": f"Create a {title.lower()}; the server assigns its id.",
        "parameters": [ref("AcceptLanguage", "parameters")],
        "requestBody": {"required": True, "content": {"application/json": {"schema": ref(f"{title}Input")}}},
        "responses": {"201": created, **problem_responses(400, 413, 415, 422), "default": ref("Problem", "responses")},
    }
    patch = {
        "tags": ["items"], "operationId": f"update{title}", "summary": f"Change a {title.lower()} with a JSON merge patch (RFC 7396).",
        "parameters": [id_param(prefix), ref("IfMatch", "parameters"), ref("AcceptLanguage", "parameters")],
        "requestBody": {"required": True, "content": {
            "application/merge-patch+json": {"schema": ref(f"{title}Patch")},
            "application/json": {"schema": ref(f"{title}Patch")}}},
        "responses": {"200": updated, **problem_responses(400, 404, 412, 413, 415, 422), "default": ref("Problem", "responses")},
    }
    delete = {
        "tags": ["items"], "operationId": f"delete{title}", "summary": f"Delete a {title.lower()}.",
        "parameters": [id_param(prefix), ref("IfMatch", "parameters")],
        "responses": {"204": {"description": "Deleted.", "headers": {"X-Request-ID": ref("XRequestID", "headers")}},
                      **(problem_responses(404, 409, 412) if name == "departments" else problem_responses(404, 412)),
                      "default": ref("Problem", "responses")},
    }
    return post, patch, delete


def paths():
    p = {}
    p["/health"] = {"get": {
        "tags": ["operations"], "operationId": "getHealth", "summary": "Whether the server and its database answer.",
        "responses": {
            "200": {"description": "Every check passed.", "headers": {"X-Request-ID": ref("XRequestID", "headers")},
                    "content": {"application/json": {"schema": ref("Health")}}},
            "503": {"description": "A check failed.", "headers": {"X-Request-ID": ref("XRequestID", "headers")},
                    "content": {"application/json": {"schema": ref("Health")}}},
            "default": ref("Problem", "responses")}}}
    p["/metrics"] = {"get": {
        "tags": ["operations"], "operationId": "getMetrics",
        "summary": "Prometheus text: request counts and durations by method, route template and status class.",
        "responses": {"200": {"description": "The metrics.", "headers": {"X-Request-ID": ref("XRequestID", "headers")},
                              "content": {"text/plain": {"schema": {"type": "string"}}}},
                      "default": ref("Problem", "responses")}}}
    p["/openapi.yaml"] = {"get": {
        "tags": ["operations"], "operationId": "getOpenAPI", "summary": "This document, as the server was built with it.",
        "responses": {"200": {"description": "The spec.", "headers": {"X-Request-ID": ref("XRequestID", "headers")},
                              "content": {"application/yaml": {"schema": {"type": "string"}}}},
                      "default": ref("Problem", "responses")}}}
    p["/"] = {"get": {
        "tags": ["operations"], "operationId": "getExplorer", "summary": "The explorer: a browser client of this API.",
        "responses": {"200": {"description": "The explorer's page (strict Content-Security-Policy).",
                              "headers": {"ETag": ref("ETag", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
                              "content": {"text/html": {"schema": {"type": "string"}}}},
                      "304": ref("NotModified", "responses"), "default": ref("Problem", "responses")}}}
    p["/explorer/{asset}"] = {"get": {
        "tags": ["operations"], "operationId": "getExplorerAsset", "summary": "A script or style sheet of the explorer.",
        "parameters": [{"name": "asset", "in": "path", "required": True, "description": "The file name.",
                        "schema": {"type": "string", "pattern": "^[a-z]+[.](js|css)$"}}],
        "responses": {"200": {"description": "The asset.",
                              "headers": {"ETag": ref("ETag", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
                              "content": {"text/javascript": {"schema": {"type": "string"}}, "text/css": {"schema": {"type": "string"}}}},
                      "304": ref("NotModified", "responses"), **problem_responses(404), "default": ref("Problem", "responses")}}}
    p["/v1"] = {"get": {
        "tags": ["lists"], "operationId": "getIndex",
        "summary": "Every collection: title, links, sortable fields, default sort, filters, sections and table.",
        "parameters": [ref("IfNoneMatch", "parameters")],
        "responses": {"200": {"description": "The index.",
                              "headers": {"ETag": ref("ETag", "headers"), "X-Request-ID": ref("XRequestID", "headers")},
                              "content": {"application/json": {"schema": ref("Index")}}},
                      "304": ref("NotModified", "responses"), "default": ref("Problem", "responses")}}}
    for c in COLLECTIONS:
        name, prefix = c[0], c[1]
        post, patch, delete = write_operations(c)
        p[f"/v1/{name}"] = {"get": list_operation(c), "post": post}
        p[f"/v1/{name}/changes"] = {"get": changes_operation(c)}
        p[f"/v1/{name}/{{id}}"] = {"get": detail_operation(c, [id_param(prefix)]), "patch": patch, "delete": delete}
    track = id_param("trk", "trackID", "The track's id.")
    p["/v1/tracks/{trackID}/samples"] = {"get": list_operation(SAMPLES, [track])}
    p["/v1/tracks/{trackID}/samples/{sampleID}"] = {
        "get": detail_operation(SAMPLES, [track, id_param("smp", "sampleID", "The sample's id.")])}
    return p


def string(max_length, min_length=None, **extra):
    """A text field as the server validates it: at most `max_length` Unicode scalars, never NUL,
    and when required (`min_length`) not only whitespace."""
    s = {"type": "string", "maxLength": max_length, "pattern": NOT_BLANK if min_length else NO_NUL}
    if min_length is not None:
        s["minLength"] = min_length
    s.update(extra)
    return s


NULLABLE_STRING = {"type": ["string", "null"]}
LINK = {"type": "string", "pattern": "^/v1/"}


def obj(properties, required=None, additional=False):
    return {"type": "object", "properties": properties, "required": required if required is not None else list(properties),
            "additionalProperties": additional}


def schemas():
    s = {}
    s["Problem"] = obj({
        "type": {"type": "string"}, "title": {"type": "string"}, "status": {"type": "integer", "minimum": 400, "maximum": 599},
        "detail": {"type": "string"},
        "code": {"type": "string", "pattern": "^[A-Z][A-Z0-9_]*$", "description": "Stable, machine-readable."},
        "parameter": {"type": "string", "description": "The query parameter or header at fault."},
        "instance": {"type": "string"},
        "errors": {"type": "array", "items": obj({"pointer": {"type": "string"}, "detail": {"type": "string"}})},
    }, required=["type", "title", "status", "detail", "code"])
    s["Health"] = obj({
        "status": {"type": "string", "enum": ["ok", "unavailable"]}, "version": {"type": "string"},
        "checks": {"type": "array", "items": obj({"name": {"type": "string"}, "status": {"type": "string", "enum": ["ok", "failed"]},
                                                   "detail": {"type": "string"}}, required=["name", "status"])}})
    s["Index"] = obj({"collections": {"type": "array", "items": obj({
        "id": {"type": "string"}, "title": {"type": "string"},
        "sortable": {"type": "array", "items": {"type": "string"}},
        "defaultSort": {"type": "array", "items": ref("SortKey")},
        "filters": {"type": "array", "items": obj({"name": {"type": "string"}, "type": {"type": "string"},
                                                    "description": {"type": "string"}})},
        "sections": {"type": "boolean"}, "table": {"type": "boolean"},
        "links": obj({"list": LINK, "sections": {"type": ["string", "null"]}, "table": {"type": ["string", "null"]},
                      "changes": LINK})})}})
    s["SortKey"] = obj({"field": {"type": "string"}, "order": {"type": "string", "enum": ["ascending", "descending"]}})
    s["RenderRow"] = {**obj({
        "id": {"type": "string"}, "title": {"type": "string"}, "subtitle": NULLABLE_STRING, "trailing": NULLABLE_STRING,
        "image": NULLABLE_STRING, "detail": LINK}), "description": "Every row has every key; absent values are null."}
    s["EmptyState"] = obj({"title": {"type": "string"}, "description": {"type": "string"},
                           "image": {"type": "string", "description": "An SF Symbols name."}})
    s["PageLinks"] = obj({"self": LINK, "next": {"type": ["string", "null"]}})
    page_common = {"next": {"type": ["string", "null"], "description": "The cursor of the next page; null on the last one."},
                   "limit": {"type": "integer", "minimum": 1, "maximum": 200},
                   "empty": {"oneOf": [ref("EmptyState"), {"type": "null"}],
                             "description": "What to show when there are no rows; null otherwise."},
                   "links": ref("PageLinks")}
    s["RowPage"] = obj({"rows": {"type": "array", "items": ref("RenderRow")}, **page_common})
    s["Section"] = obj({"id": {"type": "string"}, "header": {"type": "string"}, "detail": LINK,
                        "rows": {"type": "array", "items": ref("RenderRow")}})
    s["SectionPage"] = obj({"sections": {"type": "array", "items": ref("Section")}, **page_common})
    s["TableColumn"] = obj({"id": {"type": "string"}, "title": {"type": "string"}, "sortable": {"type": "boolean"},
                            "alignment": {"type": "string", "enum": ["leading", "numeric"]},
                            "links": {"oneOf": [obj({"ascending": LINK, "descending": LINK}), {"type": "null"}]}})
    s["TableRow"] = obj({"id": {"type": "string"}, "cells": {"type": "object", "additionalProperties": NULLABLE_STRING},
                         "compact": obj({"title": {"type": "string"}, "subtitle": NULLABLE_STRING}), "detail": LINK})
    s["TablePage"] = obj({"columns": {"type": "array", "items": ref("TableColumn")},
                          "sort": {"type": "array", "items": obj({"column": {"type": "string"},
                                                                  "order": {"type": "string", "enum": ["ascending", "descending"]}})},
                          "rows": {"type": "array", "items": ref("TableRow")}, **page_common})
    s["ChangeFeed"] = obj({
        "changes": {"type": "array", "items": {"oneOf": [
            obj({"op": {"const": "upsert"}, "id": {"type": "string"}, "row": ref("RenderRow")}),
            obj({"op": {"const": "delete"}, "id": {"type": "string"}})]}},
        "next": {"type": "string"}, "more": {"type": "boolean"}, "links": obj({"next": LINK})})
    s.update(detail_schemas())
    return s


def detail_schemas():
    """Details and write bodies; the limits are those the server validates."""
    s = {}
    money = obj({"minorUnits": {"type": "integer", "minimum": 0, "maximum": 10**15},
                 "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}, "formatted": {"type": "string"}})
    links = lambda *extra: obj({"self": LINK, "collection": LINK, **{e: LINK for e in extra}})
    s["ProductDetail"] = obj({"id": {"type": "string"}, "name": {"type": "string"}, "shortDescription": {"type": "string"},
                              "longDescription": {"type": "string"}, "price": money, "links": links()})
    s["DepartmentDetail"] = obj({"id": {"type": "string"}, "name": {"type": "string"}, "links": links("people")})
    s["PersonDetail"] = obj({"id": {"type": "string"}, "givenName": {"type": "string"}, "familyName": {"type": "string"},
                             "fullName": {"type": "string"}, "emailAddress": {"type": "string"}, "phoneNumber": {"type": "string"},
                             "departmentID": {"type": "string"},
                             "department": obj({"id": {"type": "string"}, "name": NULLABLE_STRING, "detail": LINK}),
                             "links": links()})
    s["ArticleDetail"] = obj({"id": {"type": "string"}, "headline": {"type": "string"}, "markdown": {"type": "string"},
                              "preview": NULLABLE_STRING, "links": links()})
    s["DocumentDetail"] = obj({"id": {"type": "string"}, "title": {"type": "string"}, "body": {"type": "string"},
                               "preview": NULLABLE_STRING, "links": links()})
    s["TrackDetail"] = obj({"id": {"type": "string"}, "title": {"type": "string"},
                            "channels": {"type": "array", "items": obj({"id": {"type": "string"}, "name": {"type": "string"}})},
                            "links": links("samples", "samplesTable")})
    s["SampleDetail"] = obj({"id": {"type": "string"}, "trackID": {"type": "string"}, "timestampMilliseconds": {"type": "integer"},
                             "timestamp": {"type": "string"},
                             "levels": {"type": "array", "items": obj({"channel": NULLABLE_STRING, "name": NULLABLE_STRING,
                                                                      "level": {"type": ["number", "null"]},
                                                                      "formatted": NULLABLE_STRING})},
                             "links": links("track")})
    price_input = obj({"minorUnits": {"type": "integer", "minimum": 0, "maximum": 10**15},
                       "currency": {"type": "string", "enum": CURRENCIES}})
    inputs = {
        "Product": {"name": string(200, 1), "shortDescription": string(500), "longDescription": string(10000), "price": price_input},
        "Department": {"name": string(100, 1)},
        "Person": {"givenName": string(100, 1), "familyName": string(100, 1),
                   "emailAddress": string(254, 3, pattern="^[^@\\s\\x00]+@[^@\\s\\x00]+$"),
                   "phoneNumber": string(40, 1, pattern="^[ ()+.-]*[0-9][0-9 ()+.-]*$"),
                   "departmentID": {"type": "string", "pattern": ID_PATTERN.format("dep"),
                                    "description": "An existing department's id (422 when none has it)."}},
        "Article": {"headline": string(200, 1), "markdown": string(100000)},
        "Document": {"title": string(200, 1), "body": string(100000)},
        "Track": {"title": string(200, 1), "channels": {"type": "array", "minItems": 1, "maxItems": 16,
                                                        "items": obj({"name": string(50, 1)})}},
    }
    required = {"Product": ["name", "price"], "Department": ["name"],
                "Person": ["givenName", "familyName", "emailAddress", "phoneNumber", "departmentID"],
                "Article": ["headline"], "Document": ["title"], "Track": ["title", "channels"]}
    for title, props in inputs.items():
        # An optional field may be null: the server reads null as absent (its default, "").
        props = {k: ({**v, "type": ["string", "null"]} if k not in required[title] and v.get("type") == "string" else v)
                 for k, v in props.items()}
        s[f"{title}Input"] = obj(props, required=required[title])
        # Merge patches merge into nested objects too: `{"price": {"currency": "EUR"}}` keeps the
        # amount, so nothing inside a patched object is required.
        patchable = {k: ({**v, "required": []} if v.get("type") == "object" else v)
                     for k, v in props.items() if not (title == "Track" and k == "channels")}
        description = "A JSON merge patch: the fields to change; the id never changes."
        if title == "Track":
            description += (" Channels are read here as written by POST; a patch that sends `channels` must keep every"
                            " existing channel's id at its position and may only append new ones (sample levels are"
                            " stored by position), so the schema leaves them out.")
        s[f"{title}Patch"] = {"type": "object", "properties": patchable, "additionalProperties": False, "description": description}
    return s


def components():
    return {
        "parameters": {
            "Limit": {"name": "limit", "in": "query", "required": False, "description": "Rows per page, 1 to 200.",
                      "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}},
            "Cursor": {"name": "cursor", "in": "query", "required": False,
                       "description": "The `next` of the previous page: opaque, signed, bound to the query it came from.",
                       "schema": {"type": "string", "minLength": 1, "maxLength": 2048}},
            "Search": {"name": "q", "in": "query", "required": False,
                       "description": "Case- and diacritic-insensitive substring search over what the rows show.",
                       "schema": {"type": "string", "maxLength": 200}},
            "AcceptLanguage": {"name": "Accept-Language", "in": "header", "required": False,
                               "description": "Formatting locale: " + ", ".join(LOCALES) + " (fallback en-US).",
                               "schema": {"type": "string"}},
            "IfNoneMatch": {"name": "If-None-Match", "in": "header", "required": False,
                            "description": "An ETag from an earlier answer: 304 when it is still current.",
                            "schema": {"type": "string"}},
            "IfMatch": {"name": "If-Match", "in": "header", "required": False,
                        "description": "The detail's ETag: the write happens only if the item is still at that version (else 412).",
                        "schema": {"type": "string"}},
        },
        "headers": {
            "ETag": {"description": "A strong validator of this representation.", "schema": {"type": "string"}},
            "Link": {"description": "`<url>; rel=\"next\"` when there is a next page.", "schema": {"type": "string"}},
            "Location": {"description": "The new item's detail URL.", "schema": {"type": "string"}},
            "ContentLanguage": {"description": "The locale the values are formatted in.", "schema": {"type": "string", "enum": LOCALES}},
            "Vary": {"description": "Accept-Language (and Origin when CORS is on).", "schema": {"type": "string"}},
            "CacheControl": {"description": "no-cache: clients revalidate with If-None-Match.", "schema": {"type": "string"}},
            "XRequestID": {"description": "The request's id: the client's X-Request-ID when well-formed, else generated.",
                           "schema": {"type": "string"}},
        },
        "responses": {
            "NotModified": {"description": "The representation is unchanged (If-None-Match named the current ETag).",
                            "headers": {"ETag": ref("ETag", "headers"), "X-Request-ID": ref("XRequestID", "headers")}},
            "Problem": {"description": "An error.", "content": {"application/problem+json": {"schema": ref("Problem")}}},
            **{f"Problem{s}": {"description": d, "content": {"application/problem+json": {"schema": ref("Problem")}}}
               for s, d in [(400, "Bad request: the code names what (INVALID_LIMIT, INVALID_CURSOR, INVALID_SORT, UNKNOWN_PARAMETER,"
                                  " DUPLICATE_PARAMETER, INVALID_VIEW, INVALID_GROUP, INVALID_FILTER, INVALID_SEARCH, INVALID_TOKEN,"
                                  " MALFORMED_JSON, INVALID_UTF8, JSON_TOO_DEEP, DUPLICATE_KEY, INVALID_PATH, INVALID_QUERY)."),
                            (404, "No such item or path (NOT_FOUND)."),
                            (409, "The item is still referenced (CONFLICT)."),
                            (410, "The change token is older than the retained history (CHANGES_EXPIRED)."),
                            (412, "If-Match named another version (PRECONDITION_FAILED)."),
                            (413, "The body is larger than the limit (PAYLOAD_TOO_LARGE)."),
                            (415, "The body is not JSON (UNSUPPORTED_MEDIA_TYPE)."),
                            (422, "Validation failed (VALIDATION_FAILED): one entry in `errors` per field, by JSON pointer.")]},
        },
        "schemas": schemas(),
    }


def main():
    spec = {
        "openapi": "3.1.0",
        "info": {
            "title": "rowserver", "version": "0.1.0", "summary": "Render rows for list screens, served by ID.",
            "description": "List endpoints return render rows (a stable id, a title, an optional subtitle, a preformatted "
                           "trailing value, an image hint and the link to the detail), sections and sortable tables; detail "
                           "endpoints are addressed by ID. Clients follow links and never build URLs. Every error is "
                           "application/problem+json (RFC 9457) with a stable `code`. Every GET also answers HEAD; every "
                           "path answers OPTIONS.",
        },
        "servers": [{"url": "http://127.0.0.1:8080"}],
        "tags": [{"name": "operations"}, {"name": "lists"}, {"name": "items"}],
        "paths": paths(),
        "components": components(),
    }
    # JSON is valid YAML 1.2; block-style YAML from a stdlib-only script keeps this free of PyYAML.
    sys.stdout.write(to_yaml(spec))


def to_yaml(value, indent=0):
    """A small block-style YAML emitter for the JSON data model (strings always quoted)."""
    pad = "  " * indent
    if isinstance(value, dict):
        if not value:
            return "{}\n"
        out = ""
        for key, item in value.items():
            plain = str(key).replace("_", "").replace("-", "").isalnum() and not str(key).isdigit()
            k = key if plain else json.dumps(key)
            if isinstance(item, (dict, list)) and item:
                out += f"{pad}{k}:\n{to_yaml(item, indent + 1)}"
            else:
                out += f"{pad}{k}: {scalar(item)}\n"
        return out
    if isinstance(value, list):
        if not value:
            return "[]\n"
        out = ""
        for item in value:
            if isinstance(item, (dict, list)) and item:
                body = to_yaml(item, indent + 1)
                out += f"{pad}- {body.lstrip()}"
            else:
                out += f"{pad}- {scalar(item)}\n"
        return out
    return scalar(value) + "\n"


def scalar(value):
    if isinstance(value, dict):
        return "{}"
    if isinstance(value, list):
        return "[]"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return json.dumps(value)
    return json.dumps(value, ensure_ascii=False)


if __name__ == "__main__":
    main()

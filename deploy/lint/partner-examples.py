#!/usr/bin/env python3
"""One callback body per transition kind, made from the OpenAPI document's `webhooks` section.

The relay's OpenAPI document (Sources/RelayHTTP/Resources/openapi.json, served at
/openapi.json) describes every callback kind with a JSON schema. This script walks each kind's
schema, fills every property from a table of sample values (the kind's own `const` values win),
checks the result against the schema (required properties, no others, types, enums, consts),
and prints the Markdown that docs/partners.md holds between its markers:

    python3 deploy/lint/partner-examples.py                        # print the block
    python3 deploy/lint/partner-examples.py --write docs/partners.md  # replace it in the page

deploy/lint/docs.py fails when the page's block differs from this output, so a kind added to
the document, or a field added to a schema, shows up as a failing check until the page has it.
"""
import json
import textwrap
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
OPENAPI = ROOT / "Sources/RelayHTTP/Resources/openapi.json"
BEGIN = "<!-- partner examples: begin (python3 deploy/lint/partner-examples.py) -->"
END = "<!-- partner examples: end -->"

# Sample values, by property name. Illustrative, not real Entrupy identifiers.
ITEM = {
    "entrupy_id": "ENT0000123456", "customer_item_id": "sku-42", "result": "authentic", "result_final": True,
    "flag": "none", "brand": "nike", "model": "Air Jordan 1 High", "category": "sneakers", "username": "acme-u7",
    "certificate_url": None, "occurred_at": "2026-11-21T19:13:34.512Z", "result_header": None,
    "result_message": None, "flag_reason": None, "flag_message": None,
    "photo_url": "https://images.example.com/ENT0000123456/1.jpg", "unique_user_id": "emp-42",
    "certificate_id": None, "retake_reasons": [], "customer_state": None,
}
OPERATIONAL = {
    "occurred_at": "2026-11-21T19:13:34.512Z", "target": "https://hooks.example.com/***#1f0c9a4e5b7d2c83",
    "target_state": None, "error": None, "failing_since": None, "by": None, "delivery": None,
}
# What differs from the samples above for each kind: the item as it is after the transition.
BY_KIND = {
    "item.created": {"result": "needs_review", "result_final": False, "from": None, "to": "needs_review"},
    "result.changed": {"result": "authentic", "result_final": False, "from": "needs_review", "to": "authentic"},
    "result.final": {"from": "needs_review", "to": "authentic", "result_header": "Authentic",
                     "certificate_url": "https://certificates.example.com/ENT0000123456"},
    "flag.raised": {"flag": "flagged", "from": "none", "to": "flagged", "flag_reason": "Customer disputes",
                    "flag_message": "Says the bag is genuine."},
    "flag.cleared": {"from": "flagged", "to": "none"},
    "flag.resolved": {"flag": "resolved", "from": "flagged", "to": "resolved", "flag_reason": "Customer disputes",
                      "flag_message": "Reviewed again: the result stands."},
    "flag.reviewed": {"flag": "reviewed_ok", "from": "flagged", "to": "reviewed_ok"},
    "flag.changed": {"flag": "escalated", "from": "flagged", "to": "escalated"},
    "result.retake_requested": {"result": "data_required", "result_final": False, "from": "needs_review",
                                "to": "data_required", "retake_reasons": ["The logo photo is blurred"]},
    "result.overdue": {"result": "needs_review", "result_final": False, "from": "needs_review", "to": "24h"},
    "delivery.dead": {"error": "HTTP 400",
                      "delivery": {"id": 6, "rule": "partner-callback", "channel": "webhook",
                                   "entrupy_id": "ENT0000123456", "transition": "result.final",
                                   "idempotency_key": "dlv_5e0b7a61c2d94f3e8a17b6c0d2e4f901", "attempts": 10}},
    "target.opened": {"error": "HTTP 503", "failing_since": "2026-11-21T19:08:02.117Z"},
    "target.disabled": {"error": "no response within 10 s", "failing_since": "2026-11-18T19:08:02.117Z"},
    "target.recovered": {},
    "target.enabled": {"by": "console alice"},
}


def resolve(document, schema):
    """The schema with its $ref followed and its allOf merged (the kind's own properties last)."""
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return resolve(document, document["components"]["schemas"][name])
    merged = {}
    for part in schema.get("allOf", []):
        merge(merged, resolve(document, part))
    merge(merged, {key: value for key, value in schema.items() if key != "allOf"})
    return merged


def merge(into, schema):
    for key, value in schema.items():
        if key == "properties":
            properties = into.setdefault("properties", {})
            for name, sub in value.items():
                properties[name] = {**properties.get(name, {}), **sub}
                if "properties" in sub and "properties" in properties[name]:
                    properties[name]["properties"] = {**properties[name].get("properties", {}), **sub["properties"]}
        else:
            into[key] = value


def full(document, schema):
    """Every nested $ref resolved, for checking."""
    schema = resolve(document, schema)
    for name, sub in list(schema.get("properties", {}).items()):
        own = {key: value for key, value in sub.items() if key != "$ref"}
        base = full(document, {"$ref": sub["$ref"]}) if "$ref" in sub else {}
        merged = dict(base)
        merge(merged, own)
        schema["properties"][name] = full(document, merged) if "properties" in merged or "allOf" in merged else merged
    return schema


def problems(value, schema, path):
    """Why value does not fit schema, as a list of lines (a small subset of JSON Schema)."""
    found = []
    if "oneOf" in schema:
        if not any(not problems(value, option, path) for option in schema["oneOf"]):
            found.append(f"{path}: fits none of oneOf")
        return found
    kinds = schema.get("type")
    kinds = [kinds] if isinstance(kinds, str) else kinds
    names = {type(None): "null", bool: "boolean", int: "integer", str: "string", dict: "object", list: "array"}
    if kinds and names.get(type(value)) not in kinds:
        found.append(f"{path}: {names.get(type(value))} is not {kinds}")
    if "const" in schema and value != schema["const"]:
        found.append(f"{path}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{path}: {value!r} not in {schema['enum']}")
    if isinstance(value, dict):
        properties = schema.get("properties", {})
        for name in schema.get("required", []):
            if name not in value:
                found.append(f"{path}.{name}: required, missing")
        if schema.get("additionalProperties") is False:
            found += [f"{path}.{name}: not in the schema" for name in value if name not in properties]
        for name, sub in properties.items():
            if name in value:
                found += problems(value[name], sub, f"{path}.{name}")
    return found


def example(document, kind, schema):
    """A callback body of this kind: the samples, then the kind's overrides, then its consts."""
    data_schema = full(document, schema)["properties"]["data"]
    operational = "target" in data_schema.get("properties", {})
    base = dict(OPERATIONAL if operational else ITEM)
    base.update(BY_KIND[kind])
    data = {}
    for name in data_schema.get("required", []) + [n for n in data_schema.get("properties", {}) if n not in data_schema.get("required", [])]:
        sub = data_schema["properties"][name]
        if "const" in sub:
            data[name] = sub["const"]
        elif name in base:
            data[name] = base[name]
        else:
            raise SystemExit(f"partner-examples: no sample value for {kind} data.{name}: add one to this script")
    body = {"type": kind, "timestamp": data["occurred_at"], "data": data}
    found = problems(body, full(document, schema), kind)
    if found:
        raise SystemExit("partner-examples: the example does not fit its schema:\n  " + "\n  ".join(found))
    return body


def block(document):
    lines = [BEGIN]
    for kind, path_item in document["webhooks"].items():
        operation = path_item["post"]
        schema = operation["requestBody"]["content"]["application/json"]["schema"]
        summary = operation["summary"].replace("Sent to a rule's webhook target ", "Sent ").rstrip(".")
        lines += ["", f"#### `{kind}`", "", textwrap.fill(summary + ".", 100), "", "```json",
                  json.dumps(example(document, kind, schema), indent=2, ensure_ascii=False), "```"]
    lines += ["", END]
    return "\n".join(lines)


def kinds():
    return list(json.loads(OPENAPI.read_text())["webhooks"])


def generated():
    return block(json.loads(OPENAPI.read_text()))


def check(page):
    """Problems with the page's block, as `file:line: message` lines."""
    text = page.read_text()
    name = page.relative_to(ROOT) if page.is_relative_to(ROOT) else page
    if BEGIN not in text or END not in text:
        return [f"{name}:1: no partner examples block ({BEGIN})"]
    start = text.index(BEGIN)
    line = text.count("\n", 0, start) + 1
    current = text[start:text.index(END, start) + len(END)]
    found = [f"{name}:{line}: no example for {kind}" for kind in kinds() if f"#### `{kind}`" not in current]
    try:
        expected = generated()
    except SystemExit as problem:
        return found + [f"{name}:{line}: {problem}"]
    if current != expected:
        found.append(f"{name}:{line}: the partner examples differ from the OpenAPI document's schemas; "
                     f"regenerate: python3 deploy/lint/partner-examples.py --write {name}")
    return found


def main(argv):
    if len(argv) == 3 and argv[1] == "--write":
        page = pathlib.Path(argv[2])
        text = page.read_text()
        start, end = text.index(BEGIN), text.index(END) + len(END)
        page.write_text(text[:start] + generated() + text[end:])
        return 0
    if len(argv) == 3 and argv[1] == "--check":
        found = check(pathlib.Path(argv[2]).resolve())
        print("\n".join(found)) if found else None
        return 1 if found else 0
    print(generated())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

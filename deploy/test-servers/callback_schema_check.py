"""Checks callback bodies against the OpenAPI document's `webhooks`: each body's `type` must be a
callback type the document describes, and the body must be valid against that type's JSON
schema, formats included (jsonschema_rs, which schemathesis brings).

    python callback_schema_check.py OPENAPI_JSON BODIES_JSONL
Prints one JSON object: {"types": [the types checked], "failures": ["...", ...]}.
"""
import json
import sys

import jsonschema_rs


def main():
    document = json.load(open(sys.argv[1]))
    types, failures = set(), []
    for number, line in enumerate(open(sys.argv[2]), 1):
        body = json.loads(line)
        kind = body.get("type") if isinstance(body, dict) else None
        operation = document.get("webhooks", {}).get(kind)
        if operation is None:
            failures.append(f"callback {number}: no callback type {kind!r} in the document's webhooks")
            continue
        root = dict(document)
        root["$schema"] = "https://json-schema.org/draft/2020-12/schema"
        root["$ref"] = operation["post"]["requestBody"]["content"]["application/json"]["schema"]["$ref"]
        validator = jsonschema_rs.validator_for(root, validate_formats=True)
        failures += [f"callback {number} ({kind}) at {list(e.instance_path)}: {e.message}" for e in validator.iter_errors(body)]
        types.add(kind)
    print(json.dumps({"types": sorted(types), "failures": failures}))


if __name__ == "__main__":
    main()

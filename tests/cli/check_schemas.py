#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12).

    check_schemas.py SCHEMA PATH...

Each PATH is a JSON file or a directory searched recursively for *.json (except *.schema.json).
Relative "$ref"s in the schema resolve against the schema file's location. Prints one line per
document that does not validate (file, JSON path, message) and exits 1 if any; exits 2 on a bad
schema or an unreadable file. Works with python3-jsonschema 4.10 (Debian 12) and later.
"""
import json
import pathlib
import sys
import warnings

import jsonschema
from jsonschema import Draft202012Validator


def documents(paths):
    for p in map(pathlib.Path, paths):
        if p.is_dir():
            yield from sorted(f for f in p.rglob("*.json")
                              if not f.name.endswith(".schema.json") and not f.name.startswith("."))
        else:
            yield p


def pointer(path):
    return "/" + "/".join(str(part).replace("~", "~0").replace("/", "~1") for part in path)


def main(argv):
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    schema_path = pathlib.Path(argv[1]).resolve()
    try:
        schema = json.loads(schema_path.read_text())
        Draft202012Validator.check_schema(schema)
    except (OSError, ValueError, jsonschema.exceptions.SchemaError) as e:
        print(f"{schema_path}: bad schema: {e}", file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver, kept for 4.10
        resolver = jsonschema.RefResolver(base_uri=schema_path.as_uri(), referrer=schema)
        validator = Draft202012Validator(schema, resolver=resolver)
        failed = checked = 0
        for doc_path in documents(argv[2:]):
            try:
                doc = json.loads(doc_path.read_text())
            except (OSError, ValueError) as e:
                print(f"{doc_path}: cannot read: {e}", file=sys.stderr)
                return 2
            checked += 1
            errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
            for e in errors:
                print(f"{doc_path}: {pointer(e.absolute_path)}: {e.message}")
            failed += bool(errors)
    print(f"{schema_path.name}: {checked - failed} of {checked} document(s) valid")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

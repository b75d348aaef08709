#!/usr/bin/env python3
"""Validates JSON documents against a JSON Schema (draft 2020-12).

    check_schemas.py SCHEMA PATH...

Each PATH is a JSON file or a directory searched recursively for *.json (except *.schema.json).
Relative "$ref"s resolve against the schema file's location; the schemas of the project
(../*/*.schema.json and ../*/*/*.schema.json, e.g. a model's) are preloaded, also under their
"$id" (which may be relative). Prints one line per document that does not validate (file, JSON
path, message) and exits 1 if any; exits 2 on a bad schema or an unreadable file. Works with
python3-jsonschema 4.10 (Debian 12) and later.
"""
import json
import pathlib
import sys
import urllib.parse
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


def schema_store(schema_path):
    """The schemas of the project (<root>/*/*.schema.json, <root>/*/*/*.schema.json), by file URI
    and by "$id"."""
    store = {}
    root = schema_path.parent.parent
    for f in sorted([*root.glob("*/*.schema.json"), *root.glob("*/*/*.schema.json")]):
        doc = json.loads(f.read_text())
        uri = f.resolve().as_uri()
        store[uri] = doc
        if isinstance(doc, dict) and isinstance(doc.get("$id"), str):
            store[urllib.parse.urljoin(uri, doc["$id"])] = doc
    return store


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
    store = schema_store(schema_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        try:  # jsonschema >= 4.18 resolves references (also for unevaluated*) with `referencing`
            import referencing
            import referencing.jsonschema
            registry = referencing.Registry().with_resources(
                (uri, referencing.Resource.from_contents(
                    doc, default_specification=referencing.jsonschema.DRAFT202012))
                for uri, doc in store.items())
            rooted = dict(schema)
            rooted.setdefault("$id", schema_path.as_uri())
            validator = Draft202012Validator(rooted, registry=registry)
        except ImportError:  # 4.10 (Debian 12): RefResolver
            resolver = jsonschema.RefResolver(base_uri=schema_path.as_uri(), referrer=schema,
                                              store=store)
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

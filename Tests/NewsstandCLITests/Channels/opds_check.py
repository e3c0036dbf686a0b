"""Validates OPDS 2.0 feeds offline against the OPDS 2.0 JSON Schema's rules.

The feed schema (opds-community/drafts, schema/*.schema.json, commit 798bba27c921) builds
on Readium's Web Publication Manifest schemas, which are vendored unchanged in
webpub-manifest/ (BSD 3-Clause, see SOURCE.md). The drafts repository carries no licence,
so its seven schema files are not copied: their rules are written out below from reading
them, one dict per file under the same $id (so Readium's link schema, which refers to the
OPDS link properties, resolves to ours), with one simplification: the ISO 4217 list of a
price's currency is its pattern (three capital letters).

JSON Schema's patterns are ECMA-262 regular expressions; Readium's language tags name their
groups as ECMA does, (?<name>...), which Python spells (?P<name>...): the vendored schemas
are read with that one rewrite.

Formats are checked: uri and uri-reference by rfc3987 (Debian's python3-rfc3987), date by
jsonschema, date-time by RFC 3339's grammar below when jsonschema has no checker for it
(Debian's 4.10 needs a module Debian does not package).

Usage: python3 opds_check.py FEED.json...  Prints 'FILE: valid' or 'FILE: <path>: <error>'
per problem; exits 1 when any feed is invalid, 2 when the checks cannot run.
"""
import json, os, re, sys
from datetime import datetime

try:
    import jsonschema
except ImportError:
    print("opds_check: python3-jsonschema is not installed (make deps)", file=sys.stderr)
    sys.exit(2)

HERE = os.path.dirname(os.path.abspath(__file__))
OPDS = "https://drafts.opds.io/schema/"
READIUM = "https://readium.org/webpub-manifest/schema/"
LINK = {"$ref": READIUM + "link.schema.json"}
DRAFT7 = "http://json-schema.org/draft-07/schema#"
ACQUISITION_RELS = [
    "preview",
    "http://opds-spec.org/acquisition",
    "http://opds-spec.org/acquisition/buy",
    "http://opds-spec.org/acquisition/open-access",
    "http://opds-spec.org/acquisition/borrow",
    "http://opds-spec.org/acquisition/sample",
    "http://opds-spec.org/acquisition/subscribe",
]
IMAGE_TYPES = ["image/jpeg", "image/webp", "image/avif", "image/png", "image/jxl", "image/gif"]


def rel_is(condition):
    """A rel that is a string meeting `condition`, or an array containing one."""
    return {"anyOf": [dict(type="string", **condition), {"type": "array", "contains": dict(condition)}]}


def links(minimum=None, unique=False, **extra):
    schema = dict(type="array", items=LINK, **extra)
    if minimum is not None:
        schema["minItems"] = minimum
    if unique:
        schema["uniqueItems"] = True
    return schema


TEXT = {"type": ["string", "array", "object"]}
FEED_METADATA = {
    "$schema": DRAFT7, "$id": OPDS + "feed-metadata.schema.json", "type": "object",
    "properties": {
        "identifier": {"type": "string", "format": "uri"},
        "@type": {"type": "string", "format": "uri"},
        "title": TEXT, "subtitle": TEXT,
        "modified": {"type": "string", "format": "date-time"},
        "description": {"type": "string"},
        "itemsPerPage": {"type": "integer", "exclusiveMinimum": 0},
        "currentPage": {"type": "integer", "exclusiveMinimum": 0},
        "numberOfItems": {"type": "integer", "minimum": 0},
    },
    "required": ["title"],
}
PUBLICATION = {
    "$schema": DRAFT7, "$id": OPDS + "publication.schema.json", "type": "object",
    "properties": {
        "metadata": {"$ref": READIUM + "metadata.schema.json"},
        # At least one acquisition link.
        "links": links(contains={"properties": {"rel": rel_is({"enum": ACQUISITION_RELS})}}),
        # At least one image in a format every client shows.
        "images": links(minimum=1, allOf=[{"contains": {"properties": {"type": {"enum": IMAGE_TYPES}}}}]),
    },
    "required": ["metadata", "links"],
}
GROUP = {
    "type": "object",
    "properties": {
        "metadata": {"$ref": "feed-metadata.schema.json"},
        "links": links(1, True),
        "publications": {"type": "array", "items": {"$ref": "publication.schema.json"}, "uniqueItems": True, "minItems": 1},
        "navigation": links(1, True),
    },
    "required": ["metadata"],
}
FEED = {
    "$schema": DRAFT7, "$id": OPDS + "feed.schema.json", "type": "object",
    "properties": {
        "metadata": {"$ref": "feed-metadata.schema.json"},
        # A self link among the feed's links.
        "links": links(1, True, contains={"properties": {"rel": rel_is({"const": "self"})}, "required": ["rel"]}),
        "publications": {"type": "array", "items": {"$ref": "publication.schema.json"}, "uniqueItems": True, "minItems": 1},
        # Every navigation link has a title.
        "navigation": links(1, True, allOf=[{"items": {"required": ["title"]}}]),
        "facets": {
            "type": "array", "uniqueItems": True, "minItems": 1,
            "items": {"type": "object", "properties": {"metadata": {"$ref": "feed-metadata.schema.json"}, "links": links(1, True)}},
        },
        "groups": {"type": "array", "items": GROUP},
    },
    "required": ["metadata", "links"],
    "additionalProperties": {"$ref": READIUM + "subcollection.schema.json"},
    "anyOf": [{"required": ["publications"]}, {"required": ["navigation"]}, {"required": ["groups"]}],
}
STATE_TIME = {"type": "string", "anyOf": [{"format": "date"}, {"format": "date-time"}]}
PROPERTIES = {
    "$schema": DRAFT7, "$id": OPDS + "properties.schema.json", "type": "object",
    "properties": {
        "numberOfItems": {"type": "integer", "minimum": 0},
        "price": {
            "type": "object",
            "properties": {"value": {"type": "number", "minimum": 0}, "currency": {"type": "string", "pattern": "^[A-Z]{3}$"}},
            "required": ["currency", "value"],
        },
        "indirectAcquisition": {"type": "array", "items": {"$ref": "acquisition-object.schema.json"}},
        "holds": {"type": "object", "properties": {"total": {"type": "integer", "minimum": 0}, "position": {"type": "integer", "minimum": 0}}},
        "copies": {"type": "object", "properties": {"total": {"type": "integer", "minimum": 0}, "available": {"type": "integer", "minimum": 0}}},
        "availability": {
            "type": "object",
            "properties": {
                "state": {"type": "string", "enum": ["available", "unavailable", "reserved", "ready"]},
                "since": STATE_TIME, "until": STATE_TIME,
            },
            "required": ["state"],
        },
    },
}
ACQUISITION_OBJECT = {
    "$schema": DRAFT7, "$id": OPDS + "acquisition-object.schema.json", "type": "object",
    "properties": {"type": {"type": "string"}, "child": {"type": "array", "items": {"$ref": "acquisition-object.schema.json"}}},
    "required": ["type"],
}

# RFC 3339, section 5.6: full-date "T" full-time, with an offset or Z.
DATE_TIME = re.compile(r"^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$")


def fail(message):
    print("opds_check: " + message, file=sys.stderr)
    sys.exit(2)


def format_checker():
    checker = jsonschema.FormatChecker()
    if "date-time" not in checker.checkers:
        @checker.checks("date-time", raises=ValueError)
        def date_time(value):
            if not isinstance(value, str):
                return True
            if not DATE_TIME.match(value):
                return False
            # The grammar passed; a 30 February or an hour 25 raises ValueError. Fractions go
            # first (Python 3.10's fromisoformat reads only 3 or 6 digits of them).
            text = re.sub(r"\.\d+", "", re.sub(r"[Zz]$", "+00:00", value)).replace("t", "T")
            datetime.fromisoformat(text)
            return True
    missing = [name for name in ("uri", "uri-reference", "date", "date-time") if name not in checker.checkers]
    if missing:
        fail("cannot check the formats %s (install python3-rfc3987)" % ", ".join(missing))
    return checker


ECMA_GROUP = re.compile(r"\(\?<(?=[A-Za-z])")


def python_patterns(node):
    """`node` with every pattern's ECMA-262 named groups in Python's syntax."""
    if isinstance(node, list):
        return [python_patterns(item) for item in node]
    if not isinstance(node, dict):
        return node
    result = {}
    for key, value in node.items():
        if key == "pattern" and isinstance(value, str):
            result[key] = ECMA_GROUP.sub("(?P<", value)
        elif key == "patternProperties" and isinstance(value, dict):
            result[key] = {ECMA_GROUP.sub("(?P<", name): python_patterns(item) for name, item in value.items()}
        else:
            result[key] = python_patterns(value)
    return result


def store():
    schemas = {}
    folder = os.path.join(HERE, "webpub-manifest")
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".schema.json"):
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    schema = python_patterns(json.load(f))
                schemas[schema["$id"]] = schema
    for schema in (FEED, FEED_METADATA, PUBLICATION, PROPERTIES, ACQUISITION_OBJECT):
        schemas[schema["$id"]] = schema
    if len(schemas) < 28:
        fail("only %d schemas found in %s" % (len(schemas), folder))
    return schemas


def main(paths):
    schemas = store()
    checker = format_checker()
    resolver = jsonschema.RefResolver(FEED["$id"], FEED, store=schemas)
    validator = jsonschema.Draft7Validator(FEED, resolver=resolver, format_checker=checker)
    invalid = False
    for path in paths:
        with open(path, encoding="utf-8") as f:
            feed = json.load(f)
        errors = sorted(validator.iter_errors(feed), key=lambda e: list(e.absolute_path))
        for error in errors:
            where = "/".join(str(part) for part in error.absolute_path) or "(root)"
            print("%s: %s: %s" % (path, where, error.message))
        if errors:
            invalid = True
        else:
            print("%s: valid" % path)
    return 1 if invalid else 0


if __name__ == "__main__":
    import warnings
    warnings.simplefilter("ignore", DeprecationWarning)  # RefResolver, deprecated in later jsonschema
    sys.exit(main(sys.argv[1:]))

#!/usr/bin/env python3
"""Fails when a module's DocC landing page leaves a public top-level symbol out of its Topics.

Usage: docs-curation.py <Module.md> <Module.symbols.json>

docc files an uncurated symbol under a generic heading without a word; the landing page is
meant to group every one of them by what an app does with it."""
import json
import re
import sys

page, graph = sys.argv[1], sys.argv[2]
text = open(page, encoding="utf-8").read()
topics = text.split("## Topics", 1)
if len(topics) != 2:
    sys.exit("docs-curation: %s has no '## Topics' section" % page)
curated = set(re.findall(r"^- ``([A-Za-z0-9_]+)``", topics[1], re.M))
symbols = json.load(open(graph, encoding="utf-8"))["symbols"]
public = {s["pathComponents"][0] for s in symbols if len(s["pathComponents"]) == 1}
missing = sorted(public - curated)
unknown = sorted(curated - public)
if missing or unknown:
    if missing:
        print("docs-curation: %s does not curate: %s" % (page, ", ".join(missing)), file=sys.stderr)
    if unknown:
        print("docs-curation: %s curates what the module does not declare: %s" % (page, ", ".join(unknown)), file=sys.stderr)
    sys.exit(1)
print("docs-curation: %s curates all %d public top-level symbols" % (page, len(public)))

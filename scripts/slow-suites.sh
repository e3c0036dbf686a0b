#!/bin/sh
# Prints the `swift test --skip` pattern of the suites tagged .needsServer or .needsTools
# (Tests/NewsstandTestSupport/TestTiers.swift), read from the test sources: `make test-fast`
# skips them. Swift 6.3's `swift test --filter` and `--skip` match test names only (a `tag:`
# pattern matches nothing), so the tags are turned into names here; the tags stay the one
# place a tier is declared, and TestTierTests checks that every suite starting a process has one.
set -eu
cd "$(dirname "$0")/.."
find Tests -path '*/Support' -prune -o -path 'Tests/*Tests/*.swift' -print | while read -r file; do
  module=$(echo "$file" | cut -d/ -f2)
  awk -v module="$module" '
    # A top-level @Suite attribute, possibly over several lines, up to its type declaration.
    /^(    )?@Suite/ { attribute = ""; open = 1 }
    open { attribute = attribute $0 "\n" }
    open && match($0, /(struct|class|enum|actor) [A-Za-z0-9_]+/) {
      split(substr($0, RSTART, RLENGTH), words, " ")
      if (attribute ~ /\.tags\(\.(needsServer|needsTools)/) print module "\\." words[2]
      open = 0
    }
  ' "$file"
done | sort -u | paste -sd'|' | sed 's/^/^(/; s/$/)(\/|$)/'

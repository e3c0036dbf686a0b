#!/bin/sh
# Builds the DocC site of NewsstandReader and NewsstandCore into $1 (default .build/docs), offline:
# symbol graphs from the debug build's modules (swift-symbolgraph-extract, the compiler's own
# tool, so the build's flags and products are not touched), then the toolchain's docc, one site
# per module (<out>/NewsstandReader, <out>/NewsstandCore), transformed for static hosting.
# Fails on any docc warning, or when a public type is missing from its landing page's Topics.
# Needs `swift build --target NewsstandReader` first (make docs does it).
set -eu
out="${1:-.build/docs}"
bin="${NEWSSTAND_BIN_PATH:-.build/debug}"
triple="$(uname -m)-unknown-linux-gnu"
docc="${DOCC:-$(command -v docc || echo /opt/swift/usr/bin/docc)}"
extract="${SYMBOLGRAPH_EXTRACT:-$(command -v swift-symbolgraph-extract || echo /opt/swift/usr/bin/swift-symbolgraph-extract)}"
[ -d "$bin/Modules" ] || { echo "build-docs: no $bin/Modules: run swift build --target NewsstandReader first" >&2; exit 1; }
work="$out/.symbol-graphs"
rm -rf "$out"
for module in NewsstandCore NewsstandReader; do
  mkdir -p "$work/$module"
  "$extract" -module-name "$module" -target "$triple" -minimum-access-level public \
    -I "$bin/Modules" -Xcc "-fmodule-map-file=$bin/CZlib.build/module.modulemap" -I Sources/CZlib/include \
    -I Sources/CCurl -I Sources/CSQLite -I Sources/CCrypto -output-dir "$work/$module"
  python3 scripts/docs-curation.py "Sources/$module/Documentation.docc/$module.md" "$work/$module/$module.symbols.json"
  log="$work/$module.log"
  "$docc" convert "Sources/$module/Documentation.docc" \
    --additional-symbol-graph-dir "$work/$module" \
    --fallback-display-name "$module" --fallback-bundle-identifier "org.newsstand.$module" \
    --output-path "$out/$module" --transform-for-static-hosting \
    --experimental-documentation-coverage --coverage-summary-level brief --warnings-as-errors >"$log" 2>&1 || {
      cat "$log" >&2; echo "build-docs: docc failed for $module" >&2; exit 1; }
  if grep -q 'warning:' "$log"; then cat "$log" >&2; echo "build-docs: docc warned for $module" >&2; exit 1; fi
  cat "$log"
done
echo "build-docs: wrote $out/NewsstandReader and $out/NewsstandCore"

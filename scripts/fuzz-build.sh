#!/usr/bin/env bash
# Builds the libFuzzer targets (Fuzz/README.md): ASan and libFuzzer's coverage on our Swift
# code, linked against libFuzzer's driver without its main (each main.swift calls the driver).
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT=${SWIFT:-swift}
BUILD_PATH=${FUZZ_BUILD_PATH:-.build/fuzz}
TARGETS=${FUZZ_TARGETS:-FuzzPlist FuzzPageConfig FuzzImageHeader FuzzCatalog FuzzZipExtract FuzzZipRecord FuzzRecords FuzzBundleStream}
toolchain=$(dirname "$(dirname "$(command -v "$SWIFT")")")
lib=$(ls "$toolchain"/lib/clang/*/lib/linux/libclang_rt.fuzzer_no_main-x86_64.a 2>/dev/null | head -1)
[ -n "$lib" ] || { echo "fuzz-build: libclang_rt.fuzzer_no_main-x86_64.a not found under $toolchain/lib/clang" >&2; exit 1; }
for target in $TARGETS; do
  NEWSSTAND_FUZZ=1 "$SWIFT" build --build-path "$BUILD_PATH" --product "$target" \
    -Xswiftc -sanitize=address \
    -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp \
    -Xlinker "$lib" -Xlinker -lstdc++
done

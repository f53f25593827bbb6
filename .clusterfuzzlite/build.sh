#!/bin/bash -eu
# Builds every cargo-fuzz target of fuzz/cargo-fuzz/ with the sanitizer the
# ClusterFuzzLite/OSS-Fuzz run asks for (cargo fuzz reads $SANITIZER through
# OSS-Fuzz's cargo wrapper) and copies them to $OUT, each with a seed corpus
# of the project's programs.
cd "$SRC/runestone/fuzz/cargo-fuzz"
cargo fuzz build -O --fuzz-dir .
release=target/x86_64-unknown-linux-gnu/release
for target in $(cargo fuzz list --fuzz-dir .); do
  cp "$release/$target" "$OUT/"
done
# Seed corpora: the project's Futhark programs for the targets that read
# text (the others read generator choice sequences; any bytes will do).
seeds=$(mktemp -d)
find "$SRC/runestone/tests/programs" "$SRC/runestone/examples" -name '*.fut' -exec cp {} "$seeds/" \;
for target in parse typecheck testblock; do
  (cd "$seeds" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done

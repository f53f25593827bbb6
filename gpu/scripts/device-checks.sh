#!/bin/bash
# The GPU backend's checks on a machine with a real GPU, from release
# binaries built elsewhere (the GPU machine needs no Rust toolchain).
#
#   gpu/scripts/device-checks.sh pack DIR
#       (here, in the repository) build `runestone`, the `bandwidth` bench and
#       the `gpu` test binaries in release mode and put them, stripped, in DIR.
#   gpu/scripts/device-checks.sh run DIR OUT [CAMPAIGN_SECONDS] [SEED]
#       (there, in a copy of the repository: the test binaries read
#       tests/programs) run, writing each log under OUT:
#         1. `runestone devices`;
#         2. the test programs on the GPU (`runestone test --backend gpu`);
#         3. the `gpu` test binaries under the validation layer;
#         4. the bandwidth benchmark, 2^16 … 2^28 in one process, then 2^26,
#            2^27 and 2^28 one process each (gpu/NOTES.md, "On an NVIDIA H100");
#         5. a GPU-oracle campaign of CAMPAIGN_SECONDS (default 120) from SEED
#            (default 300004) on every core.
#
# Needs there: a Vulkan loader and driver, `spirv-val` on PATH, and the
# Khronos validation layer at least as new as the driver's Vulkan version
# (VK_LAYER_PATH): an older layer rejects the property structures vulkano
# chains.
set -u -o pipefail
usage() { sed -n '2,/^set /p' "$0" | grep '^#' >&2; exit 2; }
[ $# -ge 2 ] || usage
mode=$1 dir=$2
case "$mode" in
pack)
  mkdir -p "$dir"
  log=$(mktemp)
  cargo build --release -p runestone --bin runestone || exit 1
  cp target/release/runestone "$dir/"
  { cargo bench -p gpu --bench bandwidth --no-run && cargo test --release -p gpu --no-run; } 2>&1 | tee "$log" || exit 1
  grep -oE 'target/release/deps/[a-z_]+-[0-9a-f]+' "$log" | sort -u | while read -r binary; do
    name=$(basename "$binary" | sed -E 's/-[0-9a-f]+$//')
    case "$name" in bandwidth) cp "$binary" "$dir/bandwidth" ;; *) cp "$binary" "$dir/gputest-$name" ;; esac
  done
  strip "$dir"/* 2>/dev/null
  rm -f "$log"
  ls -la "$dir"
  ;;
run)
  [ $# -ge 3 ] || usage
  out=$3 seconds=${4:-120} seed=${5:-300004}
  mkdir -p "$out"
  export PATH="$dir:$PATH"
  runestone devices 2>&1 | tee "$out/devices.log" || exit 3
  echo "== test programs on the GPU"
  runestone test --backend gpu tests/programs > "$out/corpus.log" 2>&1; echo "exit $?"; tail -n 2 "$out/corpus.log"
  echo "== gpu test binaries under the validation layer"
  for binary in "$dir"/gputest-*; do
    RUNESTONE_VALIDATION=1 timeout 300 "$binary" --test-threads 4 > "$out/$(basename "$binary").log" 2>&1
    echo "$(basename "$binary"): exit $? $(grep -E '^test result' "$out/$(basename "$binary").log")"
  done
  echo "== bandwidth"
  bandwidth --min-log2 16 --max-log2 28 --repetitions 10 --no-write > "$out/bandwidth.log" 2>&1; tail -n 52 "$out/bandwidth.log"
  for k in 26 27 28; do
    bandwidth --min-log2 $k --max-log2 $k --repetitions 10 --no-write 2>&1 | grep -E '^(copy|map|reduce|scan) '
  done | tee "$out/bandwidth_alone.log"
  echo "== GPU-oracle campaign, ${seconds}s from seed $seed"
  runestone fuzz --oracle gpu --seed "$seed" --time "${seconds}s" --jobs "$(nproc)" --out "$out/counterexamples" > "$out/campaign.log" 2>&1
  echo "exit $?"; grep -v '^\[' "$out/campaign.log" | head -n 30
  ;;
*) usage ;;
esac

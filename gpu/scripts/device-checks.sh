#!/bin/bash
# The GPU backend's checks on a machine with a real GPU, from release
# binaries built elsewhere (the GPU machine needs no Rust toolchain).
#
#   gpu/scripts/device-checks.sh pack DIR
#       (here, in the repository) build `runestone`, the `bandwidth` bench and
#       the `gpu` test binaries in release mode and put them, stripped, in DIR.
#   gpu/scripts/device-checks.sh run DIR OUT [CAMPAIGN_SECONDS] [SEED] [DEBS]
#       (there, in a copy of the repository: the test binaries read
#       tests/programs) run, writing each log under OUT and printing a short
#       summary last:
#         0. unpack the .deb files in DEBS (default .gl, if there): the
#            Vulkan loader and libglvnd's libraries into / (ldconfig), the
#            tools and the validation layer into a private root that PATH,
#            LD_LIBRARY_PATH and VK_LAYER_PATH name; NVIDIA's ICD if the
#            loader finds no driver;
#         1. `runestone devices` (memory types, multiprocessors);
#         2. the bandwidth benchmark with PyTorch beside it, 2^20 ... 2^28 in
#            one process, nvidia-smi sampling the clocks every 100 ms (rows
#            carry their time of day; rows_with_clocks.log puts each beside
#            the SM clock sampled just before it); then
#            variants at 2^24 ... 2^28 (--warm-up-ms 2000: two seconds of
#            back-to-back runs before timing, for the SM clock;
#            --memory-block-mib 4096: no dedicated allocations up to 2 GiB;
#            --pool-mib 16384: idle large buffers kept) and 2^26, 2^27,
#            2^28 one process each (gpu/NOTES.md, "On an NVIDIA H200");
#         3. the test programs on the GPU (`runestone test --backend gpu`)
#            and the `gpu` test binaries under the validation layer, side
#            by side (after the timings, so they do not disturb them);
#         4. the benchmark programs timed (`runestone bench benches/programs`,
#            every dataset, at most 1 s of convergence per case) on the GPU
#            through the SOAC IR and the segmented IR and on the CPU, and
#            their PyTorch peers (`benches/torch/peers.py`: each checked on its
#            program's small case, then timed on the large dataset);
#         5. a GPU-oracle campaign of CAMPAIGN_SECONDS (default 30) from
#            SEED (default 300004) on every core.
#
# Needs there: a Vulkan loader and driver, `spirv-val`, and the Khronos
# validation layer at least as new as the driver's Vulkan version: the
# packages in DEBS (libvulkan1, libglvnd0, spirv-tools, Debian 13's
# vulkan-validationlayers; gpu/NOTES.md, "Running on a lent GPU machine").
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
  out=$3 seconds=${4:-30} seed=${5:-300004} debs=${6:-.gl}
  mkdir -p "$out"
  export PATH="$dir:$PATH"
  if compgen -G "$debs/*.deb" > /dev/null; then
    # The loader and libglvnd's libraries go into / (NVIDIA's Vulkan driver
    # finds them through the linker's cache, as the lent machines' notes
    # say); the tools and the layer into a private root.
    root=/tmp/runestone-vulkan-root
    for package in "$debs"/*.deb; do
      case "$(basename "$package")" in
        libvulkan1_*|libglvnd0_*|libegl1_*|libopengl0_*|libgl1_*|libglx0_*|libgles2_*) dpkg -x "$package" / ;;
        *) dpkg -x "$package" "$root" ;;
      esac
    done
    ldconfig
    export LD_LIBRARY_PATH="$root/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
    export PATH="$root/usr/bin:$PATH"
    export VK_LAYER_PATH="$root/usr/share/vulkan/explicit_layer.d"
  fi
  for vendor in /usr/local/nvidia/share/glvnd/egl_vendor.d/10_nvidia.json; do
    [ -f "$vendor" ] && export __EGL_VENDOR_LIBRARY_FILENAMES=$vendor
  done
  if ! runestone devices > "$out/devices.log" 2>&1; then
    # The loader found no driver: NVIDIA's manifest where it is installed,
    # else one written here for the driver library (NVIDIA's Vulkan driver
    # is libGLX_nvidia.so.0).
    icd=$(find /usr/local/nvidia /usr/share/vulkan /etc/vulkan /usr/lib -name 'nvidia_icd*.json' 2>/dev/null | head -n 1)
    if [ -z "$icd" ]; then
      library=$(find / -xdev -name 'libGLX_nvidia.so.0' 2>/dev/null | head -n 1)
      find / -xdev \( -name 'libGLX_nvidia.so*' -o -name 'nvidia_icd*.json' -o -name 'libnvidia-glcore.so*' \) 2>/dev/null | head -n 20 > "$out/nvidia-files.log"
      if [ -n "$library" ]; then
        icd=/tmp/runestone_nvidia_icd.json
        printf '{"file_format_version":"1.0.0","ICD":{"library_path":"%s","api_version":"1.3.0"}}\n' "$library" > "$icd"
        export LD_LIBRARY_PATH="$(dirname "$library"):$LD_LIBRARY_PATH"
      fi
    fi
    [ -n "$icd" ] && export VK_DRIVER_FILES=$icd
    echo "VK_DRIVER_FILES=${VK_DRIVER_FILES:-unset}"
    runestone devices > "$out/devices.log" 2>&1 || { cat "$out/devices.log" "$out/nvidia-files.log"; ls /usr/local/nvidia /usr/local/nvidia/* 2>&1 | head -n 40; exit 3; }
  fi
  cat "$out/devices.log"
  nvidia-smi --query-gpu=name,driver_version,clocks.mem,clocks.sm,memory.used --format=csv > "$out/nvidia-smi.log" 2>&1
  # The clocks while the bandwidth is measured (every 100 ms).
  nvidia-smi --query-gpu=timestamp,pstate,clocks.mem,clocks.sm,power.draw,temperature.gpu --format=csv -lms 100 > "$out/clocks.log" 2>&1 &
  clocks=$!
  echo "== bandwidth (PyTorch beside), 2^20 ... 2^28 in one process"
  timeout 240 bandwidth --min-log2 20 --max-log2 28 --repetitions 10 --no-write > "$out/bandwidth.log" 2>&1
  echo "exit $?"
  echo "== variants, 2^24 ... 2^28"
  for variant in "--warm-up-ms 2000" "--memory-block-mib 4096" "--pool-mib 16384"; do
    # shellcheck disable=SC2086
    timeout 180 bandwidth --min-log2 24 --max-log2 28 --repetitions 10 --no-write --no-torch $variant > "$out/bandwidth_${variant// /_}.log" 2>&1
    echo "$variant: exit $?"
  done
  for k in 26 27 28; do
    timeout 60 bandwidth --min-log2 $k --max-log2 $k --repetitions 10 --no-write --no-torch 2>&1 | grep -E '^(copy|map|reduce|scan)'
  done > "$out/bandwidth_alone.log"
  kill "$clocks" 2>/dev/null
  echo "== test programs and gpu test binaries (validation layer), side by side"
  timeout 150 runestone test --backend gpu tests/programs > "$out/corpus.log" 2>&1 &
  for binary in "$dir"/gputest-*; do
    RUNESTONE_VALIDATION=1 timeout 150 "$binary" --test-threads 2 > "$out/$(basename "$binary").log" 2>&1 &
  done
  wait
  echo "== whole programs: gpu (SOAC IR, segmented IR), cpu, and the PyTorch peers"
  for config in "gpu" "gpu --segmented" "cpu"; do
    # shellcheck disable=SC2086
    timeout 240 runestone bench benches/programs --backend $config --convergence-max-seconds 1 \
      --json "$out/bench_${config// /_}.json" > "$out/bench_${config// /_}.log" 2>&1
    echo "bench $config: exit $?"
  done
  timeout 240 python3 benches/torch/peers.py > "$out/torch_peers.log" 2>&1
  echo "peers: exit $?"
  echo "== GPU-oracle campaign, ${seconds}s from seed $seed"
  timeout $((seconds + 60)) runestone fuzz --oracle gpu --seed "$seed" --time "${seconds}s" --jobs "$(nproc)" --out "$out/counterexamples" > "$out/campaign.log" 2>&1
  echo "campaign exit $?"
  echo "======== summary"
  grep -E '^(device|driver|PyTorch|copy|map|reduce|scan)' "$out/bandwidth.log"
  for log in "$out"/bandwidth_--*.log; do echo "-- $(basename "$log")"; grep -E '^(copy|map|reduce|scan)' "$log"; done
  echo "-- alone"; cat "$out/bandwidth_alone.log"
  echo "-- each bandwidth row beside the SM clock sampled just before it was verified"
  python3 - "$out/clocks.log" "$out"/bandwidth*.log <<'PYTHON' > "$out/rows_with_clocks.log" 2>&1
import bisect, re, sys
samples = []
for line in open(sys.argv[1]):
    fields = [field.strip() for field in line.split(",")]
    match = re.match(r"\d+/\d+/\d+ (\d+):(\d+):([\d.]+)", fields[0])
    if match and len(fields) > 3:
        hours, minutes, seconds = match.groups()
        samples.append((int(hours) * 3600 + int(minutes) * 60 + float(seconds), fields[3]))
samples.sort()
times = [time for time, _ in samples]
for path in sys.argv[2:]:
    print("--", path.rsplit("/", 1)[-1])
    for line in open(path):
        match = re.search(r"(\d\d):(\d\d):(\d\d\.\d+)\s*$", line)
        if not match or not samples:
            continue
        hours, minutes, seconds = match.groups()
        at = int(hours) * 3600 + int(minutes) * 60 + float(seconds)
        position = max(bisect.bisect_right(times, at) - 1, 0)
        print(f"{line.rstrip()}  SM {samples[position][1]}")
PYTHON
  cat "$out/rows_with_clocks.log"
  echo "-- clocks (memory MHz, SM MHz: how often each was seen)"
  cut -d, -f3 "$out/clocks.log" | sort | uniq -c | sort -rn | head -n 5
  cut -d, -f4 "$out/clocks.log" | sort | uniq -c | sort -rn | head -n 5
  echo "-- corpus"; tail -n 3 "$out/corpus.log"
  for log in "$out"/gputest-*.log; do echo "$(basename "$log"): $(grep -E '^test result|FAILED|panicked' "$log" | head -n 3 | tr '\n' ' ')"; done
  for log in "$out"/bench_*.log; do echo "-- $(basename "$log")"; grep -E '10000000|4096|1000i64|\[1000\]\[1000\]' "$log"; done
  echo "-- PyTorch peers"; cat "$out/torch_peers.log"
  echo "-- campaign"; grep -v '^\[' "$out/campaign.log" | tail -n 8
  ;;
*) usage ;;
esac

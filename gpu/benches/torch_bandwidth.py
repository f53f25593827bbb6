"""PyTorch's figures beside the bandwidth benchmark (gpu/benches/bandwidth.rs).

    python3 gpu/benches/torch_bandwidth.py MIN_LOG2 MAX_LOG2 REPETITIONS

The same operations on the same f32 data (i % 7 - 3) at 2^MIN_LOG2 ...
2^MAX_LOG2 elements on the first CUDA device: copy (`y.copy_(x)`), map
(`torch.mul(x, 2.0, out=y)`: one read and one write, as runestone's
`x*2+1`), reduce (`torch.sum(x)`), scan (`torch.cumsum(x, 0, out=y)`) and
the scan of every row of 1 024 (`cumsum` along dimension 1 of the array
viewed as rows).
Each runs back to back for 100 ms first (as the Rust side warms up), then
is timed with CUDA events around the one operation, best of REPETITIONS
back to back, as the Rust side times one submission with timestamp
queries. Output, one line each (what bandwidth.rs reads):

    unavailable REASON
    device NAME
    version TORCH_VERSION
    result OPERATION LOG2 SECONDS
    failed OPERATION LOG2 REASON
"""

import sys
import time


def best_seconds(torch, operation, repetitions):
    """The best of REPETITIONS timed runs after 100 ms of warm-up runs."""
    warm_up_start = time.perf_counter()
    warm_up_runs = 0
    while warm_up_runs < 3 or time.perf_counter() - warm_up_start < 0.1:
        operation()
        torch.cuda.synchronize()
        warm_up_runs += 1
    best = float("inf")
    for _ in range(repetitions):
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        operation()
        end.record()
        end.synchronize()
        best = min(best, start.elapsed_time(end) / 1000.0)
    return best


def main():
    try:
        import torch
    except Exception as error:  # noqa: BLE001 - any failure means "no peer"
        print(f"unavailable torch cannot be imported ({error})")
        return 0
    if not torch.cuda.is_available():
        print("unavailable torch sees no CUDA device")
        return 0
    minimum_log2, maximum_log2, repetitions = (int(argument) for argument in sys.argv[1:4])
    device = torch.device("cuda")
    print(f"device {torch.cuda.get_device_name(device)}")
    print(f"version {torch.__version__}")
    for log2 in range(minimum_log2, maximum_log2 + 1):
        count = 1 << log2
        x = (torch.arange(count, device=device, dtype=torch.int64) % 7 - 3).to(torch.float32)
        y = torch.empty_like(x)
        operations = {
            "copy": lambda: y.copy_(x),
            "map": lambda: torch.mul(x, 2.0, out=y),
            "reduce": lambda: torch.sum(x),
            "scan": lambda: torch.cumsum(x, 0, out=y),
            "rowscan": lambda: torch.cumsum(x.view(-1, 1024), 1, out=y.view(-1, 1024)),
        }
        for name, operation in operations.items():
            try:
                best = best_seconds(torch, operation, repetitions)
            except Exception as error:  # noqa: BLE001 - one operation's failure is reported, the rest go on
                print(f"failed {name} {log2} {error}", flush=True)
                continue
            print(f"result {name} {log2} {best:.9f}", flush=True)
        del x, y
        torch.cuda.empty_cache()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""PyTorch peers of the benchmark programs (`benches/programs/*.fut`).

Issue 27, item 6: every GPU figure of `runestone bench --backend gpu` gets a
peer beside it, timed in the same run of `gpu/scripts/device-checks.sh`. Each
peer computes what its Futhark program computes, on the sizes of the
program's `large` dataset, with its inputs already on the device (as
`futhark bench` and `runestone bench` time a call), and reports the median
and minimum of its runs in microseconds, timed with CUDA events.

Before timing, each peer is checked against the expected output of its
program's small `-- ==` case (`check` lines); a peer that disagrees is
reported as such and not timed.

Usage: python3 benches/torch/peers.py [--device cuda|cpu] [--runs N]
                                      [--only NAME]...
Exit 2 without PyTorch or without the device; 1 when a check fails.
"""

import argparse
import statistics
import sys
import time

try:
    import torch
except ImportError:
    print("peers: PyTorch is not installed", file=sys.stderr)
    sys.exit(2)


# ---- the programs -----------------------------------------------------------


def saxpy(a, xs, ys):
    return a * xs + ys


def dot(xs, ys):
    return torch.dot(xs, ys)


def wrapping_sum(xs):
    # Futhark's i32 addition wraps: sum exactly in 64 bits, keep the low 32.
    return xs.sum(dtype=torch.int64).to(torch.int32)


def wrapping_prefix_sum(xs):
    return xs.cumsum(0, dtype=torch.int64).to(torch.int32)


def segmented_sum(flags, xs):
    # The inclusive scan restarting at every true flag (and at the start):
    # the running sum minus the running sum just before the segment's start.
    sums = xs.cumsum(0, dtype=torch.int64)
    before = sums - xs.to(torch.int64)
    positions = torch.arange(xs.shape[0], device=xs.device)
    starts = torch.where(flags, positions, torch.zeros_like(positions))
    segment_start = torch.cummax(starts, 0).values
    return (sums - before[segment_start]).to(torch.int32)


def mandelbrot(h, w, limit, device):
    x = torch.arange(w, device=device, dtype=torch.float32)
    y = torch.arange(h, device=device, dtype=torch.float32)
    cr = (-2.0 + 3.0 * x / w).expand(h, w)
    ci = (-1.5 + 3.0 * y / h).unsqueeze(1).expand(h, w)
    zr = torch.zeros(h, w, device=device)
    zi = torch.zeros(h, w, device=device)
    count = torch.zeros(h, w, device=device, dtype=torch.int32)
    for _ in range(limit):
        # The while loop's condition, checked before each step; a pixel
        # that has escaped keeps its z and its count.
        active = zr * zr + zi * zi < 4.0
        new_zr = zr * zr - zi * zi + cr
        new_zi = 2.0 * zr * zi + ci
        zr = torch.where(active, new_zr, zr)
        zi = torch.where(active, new_zi, zi)
        count += active.to(torch.int32)
    return count


def nbody(dt, xs, ys, zs, vxs, vys, vzs, ms):
    # Row i: the acceleration of body i by every body j (j - i differences).
    dx = xs.unsqueeze(0) - xs.unsqueeze(1)
    dy = ys.unsqueeze(0) - ys.unsqueeze(1)
    dz = zs.unsqueeze(0) - zs.unsqueeze(1)
    d2 = dx * dx + dy * dy + dz * dz + 0.01
    s = ms.unsqueeze(0) / (d2 * torch.sqrt(d2))
    axs = (dx * s).sum(1)
    ays = (dy * s).sum(1)
    azs = (dz * s).sum(1)
    vxs2 = vxs + axs * dt
    vys2 = vys + ays * dt
    vzs2 = vzs + azs * dt
    return (xs + vxs2 * dt, ys + vys2 * dt, zs + vzs2 * dt, vxs2, vys2, vzs2)


def spmv_generated(cols_raw, vals, x):
    nnz, n = vals.shape[0], x.shape[0]
    rows = torch.arange(n + 1, device=x.device, dtype=torch.int64)
    offsets = rows * nnz // n
    cols = torch.remainder(cols_raw, n)
    counts = offsets[1:] - offsets[:-1]
    row_of_entry = torch.repeat_interleave(rows[:-1], counts)
    return torch.zeros(n, device=x.device, dtype=vals.dtype).index_add_(
        0, row_of_entry, vals * x[cols]
    )


def life(board, generations=4):
    # Conway's rules on a torus, `generations` steps (both life programs).
    for _ in range(generations):
        cells = board.to(torch.int32)
        neighbours = sum(
            torch.roll(cells, shifts=(di, dj), dims=(0, 1))
            for di in (-1, 0, 1)
            for dj in (-1, 0, 1)
            if (di, dj) != (0, 0)
        )
        board = (neighbours == 3) | (board & (neighbours == 2))
    return board


# ---- checks against the programs' small cases --------------------------------


def checks(device):
    f32 = dict(device=device, dtype=torch.float32)
    i32 = dict(device=device, dtype=torch.int32)
    glider = torch.tensor(
        [[0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [1, 1, 1, 0, 0, 0]]
        + [[0] * 6] * 3,
        device=device,
    ).bool()
    after = torch.tensor(
        [[0] * 6, [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 1, 1, 1, 0, 0]]
        + [[0] * 6] * 2,
        device=device,
    ).bool()
    return [
        (
            "saxpy",
            lambda: saxpy(2.0, torch.tensor([1, 2, 3], **f32), torch.tensor([0.5, 0, -1], **f32)),
            torch.tensor([2.5, 4, 5], **f32),
        ),
        ("dot", lambda: dot(torch.tensor([1, 2, 3], **f32), torch.tensor([4, 5, 6], **f32)), torch.tensor(32.0, **f32)),
        ("sum_scan:sum", lambda: wrapping_sum(torch.tensor([2147483647, 1], **i32)), torch.tensor(-2147483648, **i32)),
        ("sum_scan:prefix_sum", lambda: wrapping_prefix_sum(torch.tensor([1, 2, 3, 4], **i32)), torch.tensor([1, 3, 6, 10], **i32)),
        (
            "segscan:segmented_sum",
            lambda: segmented_sum(
                torch.tensor([False, False, True, True], device=device), torch.tensor([5, -1, 2, 7], **i32)
            ),
            torch.tensor([5, 4, 2, 7], **i32),
        ),
        ("mandelbrot", lambda: mandelbrot(2, 3, 10, device), torch.tensor([[1, 2, 2], [1, 10, 10]], **i32)),
        (
            "spmv:spmv_generated",
            lambda: spmv_generated(
                torch.tensor([5, -1, 3, 4], device=device, dtype=torch.int64),
                torch.tensor([1, 2, 3, 4], **f32),
                torch.tensor([1, 10, 100], **f32),
            ),
            torch.tensor([100, 200, 43], **f32),
        ),
        ("life", lambda: life(glider), after),
    ]


# ---- timing -------------------------------------------------------------------


def microseconds(run, runs, device):
    """The times of `runs` calls of `run` after three warm-up calls, in µs."""
    for _ in range(3):
        run()
    times = []
    for _ in range(runs):
        if device == "cuda":
            start = torch.cuda.Event(enable_timing=True)
            end = torch.cuda.Event(enable_timing=True)
            start.record()
            run()
            end.record()
            end.synchronize()
            times.append(start.elapsed_time(end) * 1000.0)
        else:
            start = time.perf_counter()
            run()
            times.append((time.perf_counter() - start) * 1e6)
    return times


def large_cases(device):
    """Each program's `large` dataset (the `notest` inputs of its test
    blocks), built on the device: (name, dataset, call)."""
    generator = torch.Generator(device=device).manual_seed(2026)
    n = 10_000_000

    def f32(*shape):
        return torch.rand(*shape, device=device, generator=generator)

    def i32(count):
        return torch.randint(-(2**31), 2**31 - 1, (count,), device=device, generator=generator, dtype=torch.int32)

    xs, ys = f32(n), f32(n)
    ints = i32(n)
    flags = torch.rand(n, device=device, generator=generator) < 0.5
    bodies = [f32(4096) for _ in range(7)]
    cols_raw = torch.randint(-(2**62), 2**62, (n,), device=device, generator=generator, dtype=torch.int64)
    vals, x = f32(n), f32(1_000_000)
    board = torch.rand(1000, 1000, device=device, generator=generator) < 0.5
    return [
        ("saxpy", "[10000000]f32 x2", lambda: saxpy(0.5, xs, ys)),
        ("dot", "[10000000]f32 x2", lambda: dot(xs, ys)),
        ("sum_scan:sum", "[10000000]i32", lambda: wrapping_sum(ints)),
        ("sum_scan:prefix_sum", "[10000000]i32", lambda: wrapping_prefix_sum(ints)),
        ("segscan:segmented_sum", "[10000000]bool [10000000]i32", lambda: segmented_sum(flags, ints)),
        ("mandelbrot", "1000 1000 100", lambda: mandelbrot(1000, 1000, 100, device)),
        ("nbody", "[4096]f32 x7", lambda: nbody(0.5, *bodies)),
        ("spmv:spmv_generated", "[10000000]i64 [10000000]f32 [1000000]f32", lambda: spmv_generated(cols_raw, vals, x)),
        ("life", "[1000][1000]bool", lambda: life(board)),
    ]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--device", default="cuda", choices=["cuda", "cpu"])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--only", action="append", default=[], help="run only the peers whose name contains this")
    args = parser.parse_args()
    if args.device == "cuda" and not torch.cuda.is_available():
        print("peers: no CUDA device", file=sys.stderr)
        return 2
    device = args.device
    if device == "cuda":
        print(f"device {torch.cuda.get_device_name(0)}; PyTorch {torch.__version__}, CUDA {torch.version.cuda}")
    else:
        print(f"device cpu; PyTorch {torch.__version__}")
    selected = lambda name: not args.only or any(part in name for part in args.only)
    failed = set()
    for name, compute, expected in checks(device):
        if not selected(name):
            continue
        actual = compute()
        agrees = actual.shape == expected.shape and bool(torch.all(actual == expected))
        print(f"check {name}: {'agrees' if agrees else f'DISAGREES: {actual.tolist()} != {expected.tolist()}'}")
        if not agrees:
            failed.add(name)
    for name, dataset, run in large_cases(device):
        if not selected(name) or name in failed:
            continue
        times = microseconds(run, args.runs, device)
        print(
            f"peer {name} ({dataset}): median {statistics.median(times):.0f}µs, "
            f"min {min(times):.0f}µs ({args.runs} runs)"
        )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

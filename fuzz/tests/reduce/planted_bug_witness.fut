-- A small statistics and number-theory library with a few entry points:
-- the 200-line witness of a planted bug (fuzz/tests/reduce_planted_bug.rs).
-- ==
-- entry: main
-- input { [3, 1, 4, 1, 5, 9, 2, 6] 7 }
-- input { [2, 7, 1, 8] 3 }

-- ==
-- entry: summary
-- input { [1.5f32, 2.5f32, 4.0f32] }

-- ==
-- entry: primes_below
-- input { 30 }

def square (x: i32) : i32 = x * x

def cube (x: i32) : i32 = x * x * x

def clamp (lo: i32) (hi: i32) (x: i32) : i32 =
  i32.max lo (i32.min hi x)

def sum (xs: []i32) : i32 =
  reduce (+) 0 xs

def product (xs: []i32) : i32 =
  reduce (*) 1 xs

def maximum (xs: []i32) : i32 =
  reduce i32.max i32.lowest xs

def minimum (xs: []i32) : i32 =
  reduce i32.min i32.highest xs

def prefix_sums (xs: []i32) : []i32 =
  scan (+) 0 xs

def count_if (p: i32 -> bool) (xs: []i32) : i32 =
  reduce (+) 0 (map (\x -> if p x then 1 else 0) xs)

def dot [n] (xs: [n]i32) (ys: [n]i32) : i32 =
  reduce (+) 0 (map2 (*) xs ys)

def polynomial (coefficients: []i32) (x: i32) : i32 =
  loop acc = 0 for c in coefficients do
    acc * x + c

def gcd (a: i32) (b: i32) : i32 =
  let (result, _) =
    loop (a, b) = (i32.abs a, i32.abs b) while b != 0 do
      (b, a % b)
  in result

def lcm (a: i32) (b: i32) : i32 =
  if a == 0 || b == 0 then 0 else i32.abs (a / gcd a b * b)

def fibonacci (n: i32) : i32 =
  let (a, _) =
    loop (a, b) = (0, 1) for _i < n do
      (b, a + b)
  in a

def is_prime (n: i32) : bool =
  if n < 2 then false
  else
    let (prime, _) =
      loop (prime, d) = (true, 2) while prime && d * d <= n do
        (n % d != 0, d + 1)
    in prime

def digit_sum (n: i32) : i32 =
  let (total, _) =
    loop (total, m) = (0, i32.abs n) while m > 0 do
      (total + m % 10, m / 10)
  in total

def histogram (buckets: i64) (xs: []i32) : []i32 =
  let indices = map (\x -> i64.i32 x) xs
  in reduce_by_index (replicate buckets 0) (+) 0 indices (map (const 1) xs)

def mean_f32 (xs: []f32) : f32 =
  f32.sum xs / f32.i64 (length xs)

def variance_f32 (xs: []f32) : f32 =
  let m = mean_f32 xs
  let deviations = map (\x -> (x - m) * (x - m)) xs
  in f32.sum deviations / f32.i64 (length xs)

def range_f32 (xs: []f32) : f32 =
  f32.maximum xs - f32.minimum xs

def normalise (xs: []f32) : []f32 =
  let lo = f32.minimum xs
  let width = range_f32 xs
  in map (\x -> if width == 0 then 0 else (x - lo) / width) xs

def moving_sums [n] (window: i64) (xs: [n]i32) : []i32 =
  let sums = scan (+) 0 xs
  in tabulate n (\i ->
       let before = if i >= window then sums[i - window] else 0
       in sums[i] - before)

def interleave [n] (xs: [n]i32) (ys: [n]i32) : []i32 =
  flatten (map2 (\x y -> [x, y]) xs ys)

def reverse_array [n] (xs: [n]i32) : [n]i32 =
  tabulate n (\i -> xs[n - 1 - i])

def evens (xs: []i32) : []i32 =
  filter (\x -> x % 2 == 0) xs

def odds (xs: []i32) : []i32 =
  filter (\x -> x % 2 != 0) xs

def pairwise_max [n] (xs: [n]i32) (ys: [n]i32) : [n]i32 =
  map2 i32.max xs ys

def weighted_total (weights: []i32) (xs: []i32) : i32 =
  let n = i64.min (length weights) (length xs)
  in dot (take n weights) (take n xs)

def checksum (xs: []i32) : i32 =
  let mixed = map (\(i, x) -> x * (i32.i64 i + 1)) (zip (indices xs) xs)
  in reduce (+) 0 mixed % 1000003

def statistics (xs: []i32) : (i32, i32, i32, i32) =
  (sum xs, product (map (clamp 1 3) xs), maximum xs, minimum xs)

def fingerprint (xs: []i32) (k: i32) : i32 =
  let (s, p, hi, lo) = statistics xs
  let d = digit_sum (s + p)
  let g = gcd hi lo
  in d * 31 + g * 7 + fibonacci (k % 10)

def answer (k: i32) : i32 =
  let base = square k - cube 1
  let twice = base - k + 1
  in clamp 0 100 twice

def powers (x: i32) (n: i64) : []i32 =
  let (result, _) =
    loop (result, p) = (replicate n 0, 1) for i < n do
      (result with [i] = p, p * x)
  in result

def collatz_steps (n: i32) : i32 =
  let (steps, _) =
    loop (steps, m) = (0, n) while m > 1 && steps < 1000 do
      (steps + 1, if m % 2 == 0 then m / 2 else 3 * m + 1)
  in steps

def triangle (n: i32) : i32 =
  n * (n + 1) / 2

def sum_of_squares (xs: []i32) : i32 =
  sum (map square xs)

def describe (xs: []i32) (k: i32) : [4]i32 =
  [sum_of_squares xs, triangle k, collatz_steps (k + 1), lcm k 6]

entry main (xs: []i32) (k: i32) : (i32, i32, i32, []i32) =
  let s = sum xs
  let count = count_if (\x -> x > 2) xs
  let result = answer k
  let print = fingerprint xs k
  let extra = describe xs k
  in (s + count, result, print + extra[0], prefix_sums xs)

entry summary (xs: []f32) : (f32, f32, f32, []f32) =
  (mean_f32 xs, variance_f32 xs, range_f32 xs, normalise xs)

entry primes_below (n: i32) : []i32 =
  filter is_prime (map i32.i64 (iota (i64.i32 n)))

entry series (x: i32) (n: i64) : []i32 =
  let ps = powers x n
  in interleave ps (reverse_array ps)

entry windows (window: i64) (xs: []i32) : ([]i32, []i32, []i32) =
  (moving_sums window xs, evens xs, odds xs)

entry mix (ws: []i32) (xs: []i32) : (i32, i32, []i32) =
  let n = i64.min (length ws) (length xs)
  in (weighted_total ws xs, checksum xs, pairwise_max (take n ws) (take n xs))

entry counts (buckets: i64) (xs: []i32) : []i32 =
  histogram buckets (map (\x -> clamp 0 (i32.i64 buckets - 1) x) xs)

entry numbers (n: i32) : (i32, i32, bool, i32) =
  (fibonacci n, polynomial [1, 2, 3] n, is_prime n, collatz_steps n)

def running_maximum (xs: []i32) : []i32 =
  scan i32.max i32.lowest xs

def count_runs (xs: []i32) : i32 =
  let n = length xs
  in if n == 0 then 0
     else 1 + i32.sum (tabulate (n - 1) (\i -> if xs[i] != xs[i + 1] then 1 else 0))

entry shapes (xs: []i32) : ([]i32, i32, i32) =
  (running_maximum xs, count_runs xs, triangle (i32.i64 (length xs)))

-- accept: main : [n]bool -> [n]i32 -> [n]i32
-- A segmented scan written with the core language only (ICFP'18 Fig. 2
-- without its modules): a scan over (flag, value) pairs.

type^ monoid 't = {zero: t, op: t -> t -> t}

def segmented_op 't (op: t -> t -> t) (a: (bool, t)) (b: (bool, t)) : (bool, t) =
  let (fa, xa) = a
  let (fb, xb) = b
  in (fa || fb, if fb then xb else op xa xb)

def segmented_scan [n] 't (op: t -> t -> t) (zero: t) (flags: [n]bool) (xs: [n]t) : [n]t =
  let pairs = scan (segmented_op op) (false, zero) (zip flags xs)
  let (_, ys) = unzip pairs
  in ys

def main [n] (flags: [n]bool) (xs: [n]i32) : [n]i32 =
  segmented_scan (+) 0 flags xs

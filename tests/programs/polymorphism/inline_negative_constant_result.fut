-- Inlined calls whose arguments and results are negative constants, chained
-- (one inlined call's result is the next one's argument) and used as a size:
-- every name the inliner substitutes a negative constant for stays bound
-- where a dimension keeps the name (the shape of `replicate` fails at run
-- time with the reference's message).
-- ==
-- input { 3i64 } output { -2i64 }
-- input { -3i64 } error: Cannot replicate a negative number \(-2\) of times\.

def minus_two (x: i64) : i64 =
  let unused = x in
  -2i64

def pick 'a (keep: bool) (x: a) (y: a) : a =
  if keep then x else y

entry main (k: i64) : i64 =
  let m = pick true (minus_two k) k in
  if k > 0 then m else length (replicate m 0i32)

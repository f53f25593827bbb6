-- `assert c e` is `e` when `c` holds, else a run-time error at the
-- `assert`; the condition is checked before `e` is evaluated, inside a
-- `map` as at the top level, and `assert` applies like a function of two
-- arguments (its result here is the left operand of `+`).
-- ==
-- input { [1, 2, 3] 1i64 } output { 3 [2, 3, 4] }
-- input { [1, 2, 3] 3i64 } error: Assertion is false
-- input { [1, -2, 3] 0i64 } error: Assertion is false
-- input { empty([0]i32) 0i64 } error: Assertion is false

def checked_index (xs: []i32) (i: i64) : i32 =
  assert (i >= 0 && i < length xs) xs[i]

entry main (xs: []i32) (i: i64) : (i32, []i32) =
  let positive = map (\x -> assert (x > 0) x + 1) xs
  in (checked_index xs i + 1, positive)

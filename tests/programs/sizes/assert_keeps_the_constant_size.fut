-- `assert c e` has the type of `e`, sizes included: `map2` of its `[4]`
-- array and a `[5]` array is a compile-time size error, as it is without
-- the `assert` (found by `runestone fuzz --oracle verdict --seed 20261128`,
-- programs 7949 and 8585: the reference's constant-size judgment did not
-- look through `assert` and accepted).
-- ==
-- error: sizes do not match
entry main (x: i32) = map2 (+) (assert (x > 0) (replicate 4 x)) (replicate 5 x)

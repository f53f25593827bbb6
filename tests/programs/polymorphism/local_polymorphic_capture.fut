-- A local polymorphic function that captures a variable and takes a size
-- parameter, used at two element types; each use is its own instance,
-- defined where the function is (SPEC_NOTES TFP18-17).
-- ==
-- input { 10i64 [1, 2, 3] [true, false] }
-- output { [1, 2, 3, 10] [1i64, 0i64, 10i64] }
def main (k: i64) (xs: []i32) (bs: []bool) =
  let with_last [n] 't (to_i64: t -> i64) (ys: [n]t) : []i64 =
    map to_i64 ys ++ [k]
  in (map i32.i64 (with_last i64.i32 xs), with_last (\b -> if b then 1 else 0) bs)

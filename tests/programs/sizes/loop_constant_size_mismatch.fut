-- A loop's result has its parameter's annotated type, constant sizes
-- included: here `[1]i32`, so `map2` of it and a `[2]i32` array is a
-- compile-time error, as in Futhark (SPEC_NOTES TFP18-19). Found by
-- `runestone fuzz --oracle verdict --seed 11` at depth 5 (program 45): the
-- optimising front end accepted this program (it forgot every size of a
-- loop parameter); its loop now keeps the annotation's constant sizes.
-- ==
-- error: sizes do not match
def main (x: i32) : i32 =
  let ys = map2 (+) (loop (acc: [1]i32) = replicate 1i64 x for i < 4i64 do acc)
                    (replicate 2i64 0i32)
  in ys[0i64]

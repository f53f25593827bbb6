-- Branches of different sizes: the `if` has an existential (unknown) size.
-- Found by `runestone fuzz --oracle verdict --seed 1` (program 560), reduced:
-- the optimising checker rejected it, Futhark and the reference accept it.
-- ==
-- input { true } output { 1i64 }
-- input { false } output { 2i64 }

entry main (b: bool) : i64 =
  let arr = if b then replicate 1i64 0i8 else replicate 2i64 1i8
  in length arr

-- `++` on arrays (Futhark's prelude operator): the concatenation.
-- Found by `runestone fuzz --oracle verdict --seed 1` (program 418), reduced.
-- ==
-- input { [1i64, 2i64] } output { [1i64, 2i64, 2i64, 2i64] }

entry main (xs: []i64) : []i64 = xs ++ replicate 2i64 2i64

-- The same escape as `existential_size_escapes_let.fut`, with the result
-- sliced (`runestone fuzz --oracle value --seed 2026`, program 1564).
-- ==
-- input { [1i32, 2i32, 3i32] } output { [3i32] }
-- input { empty([0]i32) } output { empty([0]i32) }

entry main (xs: []i32) : []i32 =
  let arr = let [m] (ys : [m]i32) = filter (\(p : i32) -> p > 1i32) xs in ys
  in arr[length arr / 2i64:]

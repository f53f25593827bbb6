-- A size bound by an inner `let [m]` is existential outside it: the outer
-- binding's type forgets it (`runestone fuzz --oracle value --seed 2026`,
-- programs 1266 and 1564, shrunk by hand; the optimising compiler's
-- defunctionalisation kept `[m]` in the outer `let`'s type, out of scope).
-- ==
-- input { true } output { 1i64 }
-- input { false } output { 0i64 }

entry main (x: bool) : i64 =
  let arr = let [m] (ys : [m]i32) = filter (\(p : i32) -> x) [1i32] in ys
  in length arr

-- Every top-level constant is evaluated, in order, before the entry point
-- runs, used or not (the reference's semantics: Σ is built from every
-- declaration first), so an unused constant that fails fails the run
-- (`runestone fuzz --oracle value --seed 2026`, programs 1007 and 1123,
-- shrunk by hand; the optimising compiler dropped unused constants).
-- ==
-- input { 1i32 }
-- error: Index \[3\] out of bounds for array of shape \[1\]

def unused : i32 = [7i32][3i64]

def used : i32 = 2i32

entry main (x: i32) : i32 = x + used

-- Counterexample found by `runestone ablate --premise TFP18_T_ARRAY_ELEMENTS --seed 0` (program 379).
-- Check: Theorem 1
-- Theorem 1 fails: f1: static values differ: Arr (Dyn bool) and Arr (Dyn i32) (core expression 7 of 13 replaced)
-- ==
-- input { 18u8 } output { 15i32 }

def f1 (x2 : {a: bool, b: i64}) (x3 : (f32, i32)) (x4 : u64) : ?[m5].[m5][1]i32 =
  copy [[14i32], replicate 1i64 3i32]

entry main (x6 : u8) : i32 = 15i32

-- Counterexample found by `runestone ablate --premise TFP18_T_LOOP_BODY --seed 0` (program 1263).
-- Check: Theorem 1
-- TFP18 D-Loop: static values differ: Arr (Dyn u32) and Dyn bool (core expression 47 of 50 replaced)
-- ==
-- input { 2i64 [-16i32] 11u64 } output { 9u32 }

type pair1 'a = (a, a)

def f2 (x3 : bool) : u16 = 11u16

entry main (x4 : i64) (x5 : [1]i32) (x6 : u64) : u32 =
  (let [m7] (ys8 : [m7]bool) = filter (!= true) [true, false] in
  let (x9 : u8) = 6u8 in
  11u32) & (loop (acc10 : [1]u32) = replicate 1i64 9u32 for i11 < 3i64 do acc10)[0i64]

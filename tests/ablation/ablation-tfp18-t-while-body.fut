-- Counterexample found by `runestone ablate --premise TFP18_T_WHILE_BODY --seed 0` (program 751).
-- Check: Theorem 1
-- Theorem 1 fails: f2: static values differ: Rcd {0 ↦ Dyn i32, 1 ↦ Dyn i32} and Dyn bool (core expression 54 of 80 replaced)
-- ==
-- input { true -13i32 4i32 } output { true }

type pair1 'a = (a, a)

def f2 [n3] (x4 : [n3]u8) (x5 : [3]i64) : i32 =
  (loop (acc8 : i32, c9) = (let arr7 =
      let (x6 : []bool) = [true, false] in
      [7i32, 10i32, 5i32]
    in
    if length arr7 > 0i64 then arr7[2i64 % length arr7] else 5i32, 0i32) while c9 < 2i32 do
    ((if true then 8i32 else 5i32) - 6i32 / 8i32, c9 + 1i32)).0

def f10 [n11] (x12 : [n11]u64) : (bool, i64) = (false, 11i64)

entry main (x14 : bool) (x15 : i32) (x16 : i32) : bool = (true, 5u8).0

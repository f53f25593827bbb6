-- Counterexample found by `runestone ablate --premise TFP18_T_IF_CONDITION --seed 0` (program 999).
-- Check: Theorem 1
-- Theorem 1 fails: f4: static values differ: Dyn bool and Dyn i32 (core expression 8 of 39 replaced)
-- ==
-- input { 2.5f32 } output { (#node 7i64) }

type shape1 = #leaf | #node i64

type point2 = {x: f32, y: i8}

type pair3 'a = (a, a)

def f4 (x5 : shape1) (x6 : u8) : [2]shape1 =
  copy (let xs7 =
    [if (true : bool) then reduce (*) 1i64 (replicate 2i64 1i64) else 4i64 % 7i64]
  in
  let xs7[0i64] = 13i64 in
  [x5, x5])

entry main (x8 : f32) : shape1 = (#node 7i64) : shape1

-- Counterexample found by `runestone ablate --premise TFP18_T_LOOP_ORDER_ZERO --seed 0` (program 1069).
-- Check: Theorem 1
-- Theorem 1 fails: f4: static values differ: Lam p6 … and Lam p10 …
-- Mutation: TFP'18 orderZero: a loop returns a function
-- ==
-- error:

type shape1 = #node | #none f32

type shape2 = #left i8 f32 | #right

type pair3 'a = (a, a)

def f4 (x5 : u32) : i32 -> i32 =
  loop (h7 : i32 -> i32) = \(p6 : i32) -> p6 for i9 < 1i64 do
    \(p10 : i32) -> h7 p10

entry main (x11 : []i64) : [4]f32 -> shape1 =
  \(x12 : [4]f32) ->
    (#none ((let (x13, x14) = (15u8, (#none 6.5f32) : shape1) in
    2.0f32) / 3.5f32)) : shape1

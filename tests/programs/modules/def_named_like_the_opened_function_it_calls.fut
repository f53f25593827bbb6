-- A declaration in a functor body calls the function of the same name that
-- an `open` brought into scope (a `def` is not recursive). The reference's
-- typing at elaboration (ICFP18 tfp18-core-typed-elaboration) typed the
-- body in an environment where the name already meant the new declaration
-- and rejected it (`T-VarInst: pick takes 0 type arguments`); found by
-- `runestone fuzz --oracle value --seed 2026` (program 210) in CI.
-- ==
-- input { true } output { 2i32 }
-- input { false } output { 2i32 }
module M = {
  def pick '^a (x: a) (y: a) (k: i32) : a = y
}

open M

module F (X: {}) = {
  def pick (b: bool) : i32 = pick 1i32 2i32 (if b then 1 else 0)
}

module P = F {}

entry main (b: bool) : i32 = P.pick b

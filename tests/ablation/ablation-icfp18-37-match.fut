-- Counterexample found by `runestone ablate --premise ICFP18_37_MATCH --seed 0` (program 1205).
-- Check: Proposition 6.1
-- static interpretation failed: rule 37: the module does not match the module type: missing val op4
-- Mutation: a structure ascribed a module type without a val it specifies (ICFP'18 rule 37: E'' ≤ Σ)
-- ==
-- error:

module type S1 = {
  type t
  val mk2 : i32 -> t
  val get3 : t -> i32
  val op4 : t -> t -> t
}

module M5 = {
  type t = i32

  def mk2 (x6 : i32) : t = x6

  def get3 (x7 : t) : i32 = x7
} : S1

entry main (x10 : i32) (x11 : i32) (x12 : i32) : i32 = x11

-- runestone-options: or-conditionals
-- The Or option (TFP'18 §7) in a module-level program: a conditional
-- choosing between functions inside a functor's body.
-- ==
-- input { true 5i32 } output { 10i32 }
-- input { false 5i32 } output { 6i32 }
module type S = { val k : i32 }
module F (P: S) = {
  def pick (b: bool) (x: i32) : i32 =
    let f = if b then (\(y: i32) -> y * P.k) else (\(y: i32) -> y + 1)
    in f x
}
module G = F { def k = 2i32 }
entry main (b: bool) (x: i32) : i32 = G.pick b x

-- error: rule 29: argument does not match the parameter module type: missing type cell
-- the second argument of a curried functor, applied through its partial application (ICFP18-5).
module F (A: {val s: i32}) : (B: {type cell}) -> {} = \(B: {type cell}) -> {}
module G = F({def s = 1})
module H = G({})

-- error: rule 29: argument does not match the parameter module type: missing val dying_speed
-- the first argument of a curried functor.
module F (A: {val dying_speed: i32}) : (B: {}) -> {} = \(B: {}) -> {}
module G = F({})

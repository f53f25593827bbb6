-- error: rule 29: argument does not match the parameter module type: val y has type i32 → i32 but the specification requires i32
-- S(t) = i32 from the type component, then y does not fit.
module F (X: {type t val x: t val y: t}) = {}
module M = F({type t = i32 def x = 1 def y (z: i32) = z})

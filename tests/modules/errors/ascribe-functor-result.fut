-- error: rule 37: the module does not match the module type: result: val y has type i32 but the specification requires
-- the functor's result does not match.
module M : (X: {type t val x: t}) -> {val y: X.t} = \(X: {type t val x: t}) -> {def y : i32 = 1}

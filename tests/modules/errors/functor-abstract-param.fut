-- error: rule 12: the expression does not have the ascribed type
-- the parameter's type is abstract in the body.
module F (X: {type t val x: t}) = { def y : i32 = X.x }

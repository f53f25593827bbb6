-- error: rule 16: E'(X.u) = t: the module type has no type X.u
-- a qualified `with` through a nested module.
module type S = {module X: {type t}} with X.u = i32

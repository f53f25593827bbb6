-- error: rule 14: the function's parameter type τ must be the argument's type
-- functors are generative: two applications give two abstract types.
module F (X: {}) : {type t val x: t val f: t -> i32} = {type t = i32 def x : t = 1 def f (y: t) : i32 = y}
module A = F({})
module B = F({})
def z = B.f A.x

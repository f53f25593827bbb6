-- error: rule 29: argument does not match the parameter module type: val x has type t
-- an abstract type is not i32.
module M = {type t = i32 def x : t = 1} : {type t val x : t}
module F (X: {val x: i32}) = {}
module N = F(M)

-- error: rule 16: t ∈ T: type u is not abstract in the module type
-- the refined type is a type variable bound outside the module type (t ∉ T).
module M = {type t = i32} : {type t}
module type S = {type u = M.t} with u = i32

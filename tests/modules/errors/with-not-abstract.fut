-- error: rule 16: t ∈ T: type t is not abstract in the module type (it is i32)
-- `with` refines a type that is already concrete (i32 is a type variable of the basis, not in T).
module type S = {type t = i32} with t = i32

-- error: rule 16: E'(u) = t: the module type has no type u
-- `with` names a type the module type does not have.
module type S = {type t} with u = i32

-- error: rule 16: E'(t) = t: type t is already defined as i32 → i32
-- `with` refines a type that is already defined as a non-variable type.
module type S = {type t = i32 -> i32} with t = i32

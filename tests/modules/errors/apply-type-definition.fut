-- error: rule 29: argument does not match the parameter module type: type t is i32 → i32 but the specification requires i32
-- a type with the wrong definition.
module F (X: {type t = i32}) = {}
module M = F({type t = i32 -> i32})

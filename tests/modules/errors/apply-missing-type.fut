-- error: rule 29: argument does not match the parameter module type: missing type t
-- the argument lacks a type.
module F (X: {type t}) = {}
module M = F({})

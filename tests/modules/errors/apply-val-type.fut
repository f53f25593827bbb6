-- error: rule 29: argument does not match the parameter module type: val a has type i32 → i32 but the specification requires i32
-- a value of the wrong type.
module F (X: {val a: i32}) = {}
module M = F({def a (x: i32) = x})

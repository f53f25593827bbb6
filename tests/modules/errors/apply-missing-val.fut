-- error: rule 29: argument does not match the parameter module type: missing val b
-- the example of the issue: the argument lacks b.
module F (X: {val b: i32}) = {}
module M = F({def a = 1})

-- error: rule 29: argument does not match the parameter module type: in module G: result: missing val x
-- a functor component whose result lacks a value.
module F (X: {module G: (Y: {}) -> {val x: i32}}) = {}
module N = F({module G = \(Y: {}) -> {}})

-- error: rule 29: argument does not match the parameter module type: module G is a parameterised module but a structure is specified
-- a functor where a structure is specified.
module F (X: {module G: {}}) = {}
module N = F({module G = \(Y: {}) -> {}})

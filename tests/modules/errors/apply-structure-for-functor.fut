-- error: rule 29: argument does not match the parameter module type: module G is a structure but a parameterised module is specified
-- a structure where a functor is specified.
module F (X: {module G: (Y: {}) -> {}}) = {}
module N = F({module G = {}})

-- error: rule 37: the module does not match the module type: a parameterised module is given where a structure is specified
-- a functor ascribed a structure type.
module M = (\(X: {}) -> {}) : {}

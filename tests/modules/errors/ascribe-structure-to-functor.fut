-- error: rule 37: the module does not match the module type: a structure is given where a parameterised module is specified
-- a structure ascribed a functor type.
module M : (X: {}) -> {} = {}

-- error: rule 29: argument does not match the parameter module type: missing module N
-- the argument lacks a module.
module F (X: {module N: {}}) = {}
module M = F({})

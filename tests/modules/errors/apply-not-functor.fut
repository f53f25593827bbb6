-- error: rule 29: E(M) = F: M is not a parameterised module
-- applying a structure.
module M = {}
module N = M({})

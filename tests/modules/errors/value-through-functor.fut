-- error: rule 11: E(F.x) must be a structure: F is a parameterised module
-- a long identifier through a functor.
module F (X: {}) = {def x = 1}
def y = F.x

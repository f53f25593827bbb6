-- error: rule 14: the function's parameter type τ must be the argument's type
-- applying an integer.
def x = 1 2

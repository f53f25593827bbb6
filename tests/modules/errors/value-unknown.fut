-- error: rule 11: E(y) is undefined
-- an unbound value identifier.
def x = y

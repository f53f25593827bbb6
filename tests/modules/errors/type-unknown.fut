-- error: rule 9: E(nosuch) is undefined
-- an unbound type identifier.
def f (x: nosuch) = x

-- error: rule 13: the type τ of a λ-bound identifier in id is not determined
-- nothing determines the guessed τ of rule 13.
def id = \x -> x

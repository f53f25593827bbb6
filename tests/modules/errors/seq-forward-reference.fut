-- error: rule 11: E(b) is undefined
-- E + E₁ ⊢ mdec₂: a declaration sees only the ones before it.
def a = b
def b = 1

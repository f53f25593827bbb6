-- error: rule 11: E(X.c) is undefined
-- the premise E + {mid ↦ E'} ⊢ mexp of rule 28 fails.
module F = \(X: {val a: i32}) -> { def b = X.c }

-- error: rule 29: E(G) = F: unknown module G
-- applying an unbound identifier.
module N = G({})

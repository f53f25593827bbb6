-- error: rule 26: E'(K) = E'': unknown module K
-- projection of a missing module.
module M = {}
module N = M.K

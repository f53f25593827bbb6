-- A local function used at two types is rejected (local functions are
-- monomorphic in the reference).
-- ==
-- error: type mismatch
def main (x: i32) (b: bool) =
  let ident 't (y: t) : t = y
  in (ident x, ident b)

-- A local function with type parameters is polymorphic, as in Futhark:
-- used at two types, it is elaborated once per use (SPEC_NOTES TFP18-17).
-- ==
-- input { 3 true } output { 3 true }
def main (x: i32) (b: bool) =
  let ident 't (y: t) : t = y
  in (ident x, ident b)

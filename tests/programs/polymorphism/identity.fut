-- A polymorphic function used at two types.
-- ==
-- input { 3 true } output { 3 true }
def ident 't (x: t) : t = x
def main (a: i32) (b: bool) = (ident a, ident b)

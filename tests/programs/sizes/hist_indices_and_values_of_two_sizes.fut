-- The prelude's `hist 'a [n] op ne k (is: [n]i64) (as: [n]a)` takes indices
-- and values of one size: two parameters of anonymous sizes have two
-- distinct sizes (SPEC_NOTES TFP18-22), so this is a type error. The
-- reference's size judgment knew only the built-in functions by name, not
-- the prelude's by the signatures the prelude states, and accepted it.
-- ==
-- error: sizes do not match

def main (is: []i64) (vs: []i32) : [4]i32 = hist (+) 0 4 is vs

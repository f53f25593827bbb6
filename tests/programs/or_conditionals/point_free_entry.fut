-- runestone-options: or-conditionals
-- An entry point whose result is a conditional of functions (TFP'18 §7):
-- it takes the functions' argument too (SPEC_NOTES TFP18-24), and the
-- application of the `Or` static value selects the branch at run time.
-- ==
-- input { true 3 } output { 3 }
-- input { false 3 } output { 4 }
entry main (b: bool) = if b then (\(x: i32) -> x) else (\x -> x + 1)

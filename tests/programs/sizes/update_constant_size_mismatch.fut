-- The value of a `with` update must have the shape of the element it
-- replaces: a `[3]bool` row in an array of `[1]bool` rows is a
-- compile-time error, as in Futhark (SPEC_NOTES TFP18-19). Found by
-- `runestone fuzz --oracle verdict --seed 7` (program 37080; the
-- reference accepted it and built an irregular array).
-- ==
-- error: sizes do not match
def main (a: bool) (b: bool) : []bool =
  ([[b], [a]] with [0i64] = [b, true, false])[1i64]

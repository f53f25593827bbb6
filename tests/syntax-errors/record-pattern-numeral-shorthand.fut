-- The pattern counterpart of record-numeral-shorthand.fut.
def f ({0}: (i32, i32)) = 0

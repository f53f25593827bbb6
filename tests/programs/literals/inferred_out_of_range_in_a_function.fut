-- The range is checked at the type the literal has once its definition is
-- inferred: `big`'s literal is an `i16` because of the annotation on
-- `limit`'s result, although nothing fixes it where it is written.
-- ==
-- error: does not fit in i16

def limit : i16 = let big = 40000 in big

def main (x: i16) : i16 = x + limit

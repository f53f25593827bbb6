-- An unlifted type parameter cannot be instantiated with a function type
-- (TFP'18 §5.1).
-- ==
-- error: not of order zero
def ite 'a (b: bool) (x: a) (y: a) : a = if b then x else y
def main (b: bool) = (ite b (\(x: i32) -> x) (\(x: i32) -> x + 1)) 1

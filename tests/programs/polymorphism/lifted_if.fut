-- A conditional on a lifted type variable is rejected (TFP'18 §5.1: a
-- lifted type variable is restricted like a function type).
-- ==
-- error: T-If
def ite '^a (b: bool) (x: a) (y: a) : a = if b then x else y
def main (b: bool) = ite b 1i32 2

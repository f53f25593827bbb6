-- A definition that breaks a rule is rejected even when no entry point
-- uses it, in a module program too, whose static interpretation keeps only
-- what the entry points reach (found by examples/syntax/expressions.fut,
-- which the reference rejected and the optimising compiler accepted).
-- ==
-- error: Would consume `xs`, which is not consumable

module m = { def one : i32 = 1 }

def unused (xs: []i32) : []i32 = xs with [0] = m.one

def main (x: i32) : i32 = x + m.one

-- An unused constant of a module fails the run too: static interpretation
-- keeps every constant of the program that may fail (only a total one goes
-- when no entry point uses it), and every entry point evaluates them first
-- (the module form of `unused_constant_fails.fut`).
-- ==
-- input { 1i32 }
-- error: Index \[2\] out of bounds for array of shape \[1\]

module M = {
  def bad : i32 = [1i32][2i64]
  def good : i32 = 1i32
}

entry main (x: i32) : i32 = x + M.good

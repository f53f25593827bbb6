-- An entry point takes every argument of its type (Futhark eta-expands
-- `def main (x: i32) = \(y: i32) -> x + y` to a two-argument entry point;
-- tests/programs/entries/point_free_entry.fut), so the arrows of its result
-- are parameters: here one takes a function, and the entry point is not
-- first-order (TFP'18 §3).
-- ==
-- error: T-Entry
def main (x: i32) = \(f: i32 -> i32) -> f x

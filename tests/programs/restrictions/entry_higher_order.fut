-- An entry point must be first-order (TFP'18 §3).
-- ==
-- error: T-Entry
entry apply (f: i32 -> i32) (x: i32) : i32 = f x

-- Imported by ../import.fut (no test block of its own).
module adder = { def add (x: i32) (y: i32) : i32 = x + y }

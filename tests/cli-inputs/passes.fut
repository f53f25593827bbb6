-- Runs after a program that timed out or crashed (tests/cli_isolation.rs).
-- ==
-- input { 1i32 } output { 2i32 }

def main (x: i32) : i32 = x + 1

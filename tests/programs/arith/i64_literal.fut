-- Literals take the type the context demands.
-- ==
-- input { 10i64 } output { 5000000000i64 }
def main (x: i64) = x * 500000000

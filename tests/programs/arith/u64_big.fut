-- u64 literals above i64's range.
-- ==
-- input { 1u64 } output { 18446744073709551615u64 0u64 }
def main (x: u64) = (18446744073709551615u64, 18446744073709551615u64 + x)

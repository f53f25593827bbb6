-- An empty array literal takes its element type from the context.
-- ==
-- input { 3 } output { [3] }
def main (x: i32) = concat [] [x]

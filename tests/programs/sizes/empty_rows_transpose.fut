-- Transposing an empty array of rows of 3 gives 3 empty rows: the empty
-- array knows its rows' shape (SPEC_NOTES TFP18-6), and so do the arguments
-- of `[][3]` type read from the input.
-- ==
-- input { empty([0][3]i32) } output { empty([3][0]i32) }
-- input { [[1, 2, 3]] } output { [[1], [2], [3]] }
def main (xs: [][3]i32) : [3][]i32 = transpose xs

-- Slices with strides, including negative ones.
-- ==
-- input { [0, 1, 2, 3, 4, 5] } output { [1, 2, 3] [0, 2, 4] [5, 4, 3, 2, 1, 0] [4, 5] }
def main (xs: []i32) = (xs[1:4], xs[::2], xs[::-1], xs[4:])

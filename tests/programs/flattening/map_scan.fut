-- A map of inclusive scans: a segmented scan, each row scanned on its own.
-- ==
-- input { [[1, 2, 3], [10, 20, 30]] } output { [[1, 3, 6], [10, 30, 60]] }
-- input { empty([3][0]i32) } output { empty([3][0]i32) }
def main (xss: [][]i32) : [][]i32 = map (\xs -> scan (+) 0 xs) xss

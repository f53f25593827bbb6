def main (xs: []i32) = xs[]

def main (x: i32) = assert (x > 0) x

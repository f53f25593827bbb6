def main (x: i32) x + 1

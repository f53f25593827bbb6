def main = map (\x x + 1) [1, 2]

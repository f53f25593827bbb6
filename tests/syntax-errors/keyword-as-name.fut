def let = 1

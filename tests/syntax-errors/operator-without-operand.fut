def x = 1 +

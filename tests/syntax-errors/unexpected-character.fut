def x = 1 $ 2

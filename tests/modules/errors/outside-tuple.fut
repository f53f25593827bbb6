-- error: outside the paper's core: this expression
-- tuples are outside the paper's core.
def x = (1, 2)

-- error: outside the paper's core: this literal
-- only i32 literals are in the extension.
def x = 1.5

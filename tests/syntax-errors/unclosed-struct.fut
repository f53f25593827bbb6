module m = {
  def x = 1

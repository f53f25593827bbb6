module type mt = {
  val f i32 -> i32
}

//! The "functor tower" benchmark program of issue 5 (static interpretation
//! with memoised functor application must compile it in linear time).
//!
//! [`program`]`(n)`: a module type `ring` with an abstract type, a functor
//! `F` (a structure of functions using its parameter, ascribed with
//! `ring with t = R.t`), a base structure `M0`, then for each level
//! `i = 1..=n` the application `M{i} = F (M{i-1})`, a structure `S{i}` of
//! level-specific code using `M{i}` (opened), and every fourth level a
//! repeated application `A{i} = F (M{i-1})` that memoisation answers
//! without re-interpreting `F`'s body. The entry point `main` uses the last
//! module, its level code and the last repeated application. Each level is
//! about 20 lines: 2 000 applications (1 500 chained, 500 repeated) make
//! about 35 000 lines.

use std::fmt::Write;

/// The number of `F` applications for `levels` levels: one per level plus
/// the repeated ones (every fourth level).
pub fn applications_for_levels(levels: usize) -> usize {
    levels + levels / 4
}

/// The largest number of levels whose program has at most `applications`
/// functor applications.
pub fn levels_for_applications(applications: usize) -> usize {
    let mut levels = applications * 4 / 5;
    while applications_for_levels(levels + 1) <= applications {
        levels += 1;
    }
    while levels > 0 && applications_for_levels(levels) > applications {
        levels -= 1;
    }
    levels
}

/// A functor tower with (about) `applications` functor applications, at
/// least one level.
pub fn program(applications: usize) -> String {
    let levels = levels_for_applications(applications).max(1);
    let mut text = String::new();
    text.push_str(HEADER);
    for level in 1..=levels {
        let previous = level - 1;
        writeln!(text, "module M{level} = F (M{previous})").unwrap();
        if level % 4 == 0 {
            writeln!(text, "-- the same application again: answered by the memo").unwrap();
            writeln!(text, "module A{level} = F (M{previous})").unwrap();
        }
        writeln!(
            text,
            "module S{level} = {{
  open M{level}
  type triple = (t, t, t)
  def double (x: t) : t = add x x
  def square (x: t) : t = mul x x
  def poly (x: t) : t = add (square x) (add (double x) one)
  def sum3 (a: t) (b: t) (c: t) : t = add a (add b c)
  def spread (x: t) : triple = (x, double x, poly x)
  def fold (p: triple) : t = sum3 p.0 p.1 p.2
  def check (n: i32) : i32 =
    let x = lift n
    in to_i32 (fold (spread x)) + {level}
  def value : i32 = check {level}
  def level_sum (xs: []i32) : i32 =
    to_i32 (reduce add zero (map lift xs))
}}
"
        )
        .unwrap();
    }
    let repeated = (1..=levels).rev().find(|level| level % 4 == 0);
    let repeated_use = match repeated {
        Some(level) => format!("A{level}.to_i32 (A{level}.lift x)"),
        None => "0".to_string(),
    };
    writeln!(
        text,
        "-- ==
-- entry: main
-- input {{ 1 [1, 2] }}

entry main (x: i32) (xs: []i32) : i32 =
  M{levels}.to_i32 (M{levels}.add (M{levels}.lift x) M{levels}.one)
  + S{levels}.value + S{levels}.level_sum xs + {repeated_use}"
    )
    .unwrap();
    text
}

const HEADER: &str = "-- A functor tower (fuzz::tower): M_i = F (M_{i-1}).

module type ring = {
  type t
  val zero : t
  val one : t
  val add : t -> t -> t
  val mul : t -> t -> t
  val lift : i32 -> t
  val to_i32 : t -> i32
}

module F (R: ring) : ring with t = R.t = {
  type t = R.t
  def zero : t = R.zero
  def one : t = R.one
  local def twice (f: t -> t) (x: t) : t = f (f x)
  def add (a: t) (b: t) : t = R.add a b
  def mul (a: t) (b: t) : t = R.mul a b
  def lift (n: i32) : t = twice (add zero) (R.lift n)
  def to_i32 (x: t) : i32 = R.to_i32 x
}

module M0 : ring with t = i32 = {
  type t = i32
  def zero : t = 0
  def one : t = 1
  def add (a: t) (b: t) : t = a + b
  def mul (a: t) (b: t) : t = a * b
  def lift (n: i32) : t = n
  def to_i32 (x: t) : i32 = x
}

";

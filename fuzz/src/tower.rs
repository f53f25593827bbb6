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
//! module, its level code and the last repeated application (its test block
//! states the expected result). Each level is about 31 lines: 2 000
//! applications (1 600 chained, 400 repeated) make about 47 000 lines.

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
  def cube (x: t) : t = mul x (square x)
  def sum_list (xs: []t) : t = reduce add zero xs
  def powers (x: t) : [4]t = [one, x, square x, cube x]
  def horner (x: t) : t =
    let ps = powers x
    in sum_list ps
  def pair_sum (p: (t, t)) : t = add p.0 p.1
  def swap_pair (p: (t, t)) : (t, t) = (p.1, p.0)
  def twice_sum (a: t) (b: t) : t =
    pair_sum (swap_pair (a, b))
  def weighted (w: i32) (x: t) : t = mul (lift w) x
}}
"
        )
        .unwrap();
    }
    let repeated = (1..=levels).rev().find(|level| level % 4 == 0);
    let expected = expected_main_result(levels as i64, repeated.is_some());
    let repeated_use = match repeated {
        Some(level) => format!("A{level}.to_i32 (A{level}.lift x)"),
        None => "0".to_string(),
    };
    writeln!(
        text,
        "-- ==
-- entry: main
-- input {{ 1 [1, 2] }}
-- output {{ {expected} }}

entry main (x: i32) (xs: []i32) : i32 =
  M{levels}.to_i32 (M{levels}.add (M{levels}.lift x) M{levels}.one)
  + S{levels}.value + S{levels}.level_sum xs + {repeated_use}"
    )
    .unwrap();
    text
}

/// What `main 1 [1, 2]` returns: every level computes with `M0`'s
/// arithmetic (`lift` adds `zero` twice), so with `L` levels it is
/// `(1 + 1) + (x² + 5x + 1 + L at x = L) + (1 + 2) + (1 if a repeated
/// application exists)`, in wrapping `i32` arithmetic.
fn expected_main_result(levels: i64, has_repeated: bool) -> i32 {
    let level = levels as i32;
    let fold = level
        .wrapping_mul(level)
        .wrapping_add(level.wrapping_mul(5))
        .wrapping_add(1);
    let value = fold.wrapping_add(level);
    2i32.wrapping_add(value)
        .wrapping_add(3)
        .wrapping_add(i32::from(has_repeated))
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The program parses, has the requested number of `F` applications
    /// (chained and repeated), and grows linearly.
    #[test]
    fn tower_shape() {
        for applications in [1usize, 5, 100, 2000] {
            let text = program(applications);
            let program = spec::syntax::parse_program(spec::source::FileId(0), &text)
                .unwrap_or_else(|d| panic!("{applications}: {}", d.message));
            let levels = levels_for_applications(applications).max(1);
            let chained = text
                .lines()
                .filter(|line| line.starts_with("module M") && line.contains("= F (M"))
                .count();
            assert_eq!(chained, levels, "{applications}");
            assert_eq!(text.matches("module A").count(), levels / 4);
            assert!(applications_for_levels(levels) <= applications.max(1));
            assert!(applications_for_levels(levels + 1) > applications.max(1));
            // ring, F, M0, then per level M, S (and A every fourth).
            assert_eq!(program.decs.len(), 3 + 2 * levels + levels / 4 + 1);
        }
        let lines = program(2000).lines().count();
        assert!((30_000..60_000).contains(&lines), "{lines} lines");
    }

    #[test]
    fn expected_result_by_hand() {
        // One level: (1+1) + (1 + 5 + 1 + 1) + 3 + 0.
        assert_eq!(expected_main_result(1, false), 13);
        // Four levels: 2 + (16 + 20 + 1 + 4) + 3 + 1.
        assert_eq!(expected_main_result(4, true), 47);
    }
}

//! Proposition 6.1 on generated programs: 150 random, well-typed module
//! programs (structures, transparent and opaque functors, nested and
//! higher-order applications, curried functors, ascriptions, values over
//! abstract types, §8's polymorphic functions and types), each of which must elaborate, interpret statically and
//! satisfy every check of `check_program`. The generator is a fixed xorshift,
//! so failures are reproducible from the printed seed.

mod icfp18_common;

use icfp18_common::check_text;

struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// A generated program; every module has the module type S.
fn generate(seed: u64) -> String {
    let mut random = Random(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
    let mut out = String::from(
        "module type S = { type t  val x: t  val f: t -> t }\n\
         module type HasF = { module F: (Y: S) -> S }\n\
         def app 'a (f: a -> a) (x: a) : a = f (f x)\n\
         type endo 'a = a -> a\n",
    );
    let mut modules: Vec<(String, bool)> = Vec::new(); // name, t = i32 visible
    let mut functors: Vec<(String, bool)> = Vec::new(); // name, result transparent
    let mut higher: Vec<String> = Vec::new();
    let mut values = 0;
    for index in 0..(4 + random.below(10)) {
        let choice = if modules.is_empty() {
            0
        } else {
            random.below(8)
        };
        match choice {
            0 => {
                let n = random.below(100);
                let name = format!("M{index}");
                out.push_str(&format!(
                    "module {name} = {{ type t = i32  def x : t = {n}  def f (y: t) : t = y + {n} }}\n"
                ));
                modules.push((name, true));
            }
            1 => {
                let transparent = random.below(2) == 0;
                let name = format!("F{index}");
                let signature = if transparent { "S with t = X.t" } else { "S" };
                out.push_str(&format!(
                    "module {name} (X: S) : {signature} = {{ type t = X.t  def x : t = X.f X.x  def f (y: t) : t = X.f (X.f y) }}\n"
                ));
                functors.push((name, transparent));
            }
            2 if !functors.is_empty() => {
                let (functor, transparent) = functors[random.below(functors.len())].clone();
                let (argument, visible) = modules[random.below(modules.len())].clone();
                let name = format!("A{index}");
                if random.below(3) == 0 && functors.len() > 1 {
                    let (inner, inner_transparent) = functors[random.below(functors.len())].clone();
                    out.push_str(&format!("module {name} = {functor}({inner}({argument}))\n"));
                    modules.push((name, visible && transparent && inner_transparent));
                } else {
                    out.push_str(&format!("module {name} = {functor}({argument})\n"));
                    modules.push((name, visible && transparent));
                }
            }
            3 => {
                let name = format!("H{index}");
                out.push_str(&format!("module {name} (P: HasF) = \\(A: S) -> P.F(A)\n"));
                higher.push(name);
            }
            4 if !higher.is_empty() && !functors.is_empty() => {
                let h = &higher[random.below(higher.len())];
                let (functor, _) = &functors[random.below(functors.len())];
                let (argument, _) = &modules[random.below(modules.len())];
                let partial = format!("P{index}");
                let name = format!("B{index}");
                out.push_str(&format!(
                    "module {partial} = {h} {{ module F = {functor} }}\n"
                ));
                out.push_str(&format!("module {name} = {partial}({argument})\n"));
                modules.push((name, false));
            }
            5 => {
                let (argument, _) = modules[random.below(modules.len())].clone();
                let name = format!("O{index}");
                out.push_str(&format!("module {name} = {argument} : S\n"));
                modules.push((name, false));
            }
            6 => {
                let (module, visible) = &modules[random.below(modules.len())];
                if *visible {
                    out.push_str(&format!(
                        "def v{values} : i32 = {module}.f {module}.x + 1\n"
                    ));
                } else {
                    out.push_str(&format!(
                        "def v{values} = {module}.f ({module}.f {module}.x)\n"
                    ));
                }
                values += 1;
            }
            _ => {
                let (module, _) = &modules[random.below(modules.len())];
                let name = format!("L{index}");
                out.push_str(&format!(
                    "module {name} = {{ local def h (y: {module}.t) : {module}.t = {module}.f y  def g = h {module}.x }}\n"
                ));
            }
        }
    }
    out
}

#[test]
fn generated_programs_satisfy_proposition_6_1() {
    for seed in 0..150u64 {
        let program = generate(seed);
        let checked =
            check_text(&format!("generated-{seed}.fut"), &program).unwrap_or_else(|failure| {
                panic!(
                    "seed {seed}: does not elaborate: {}\n{program}",
                    failure.message()
                )
            });
        if let Err(failure) = &checked.verdict {
            panic!("seed {seed}: {failure}\n{program}");
        }
    }
}

#[test]
fn the_generator_covers_every_kind_of_declaration() {
    let all: String = (0..150u64).map(generate).collect();
    for needle in [
        "module F",
        "(X: S) : S with t = X.t",
        "(X: S) : S =",
        "(P: HasF)",
        "{ module F = ",
        ": S\n",
        "def v",
        "local def",
        "))\n",
    ] {
        assert!(
            all.contains(needle),
            "no generated program contains `{needle}`"
        );
    }
}

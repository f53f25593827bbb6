//! TFP'18 Fig. 1: the source program of Fig. 1a defunctionalises (with the
//! lambda lifting and simple-body inlining of §5.3) to the target program of
//! Fig. 1b, up to names:
//!
//! ```text
//! let g' (env:{a:i32}) (y:i32) = let a = env.a in y+a
//! let f' (env:{g:{a:i32}}) (x:i32) = let g = env.g in g' g (g' g x)
//! let main = let f = let a = 5 in {g = {a = a}} in f' f 1 + f' f 2
//! ```

use reference::core::printer::print_target;
use reference::front::pipeline::compile;
use spec::source::SourceMap;
use spec::value::Value;

fn fig1a() -> reference::front::pipeline::Compiled {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../examples/paper/tfp18_fig1a.fut"
    );
    let text = std::fs::read_to_string(path).expect("the example");
    let mut sources = SourceMap::new();
    let file = sources.add("tfp18_fig1a.fut", text);
    match compile(&mut sources, file) {
        Ok(c) => c,
        Err(d) => panic!("{}", d.render(&sources)),
    }
}

#[test]
fn fig1a_prints_as_fig1b() {
    let printed = print_target(&fig1a().lifted.target);
    let main = &printed[..printed.find("entry twice_plus").expect("second entry")];
    let expected = "\
def lifted_y_3 (env_4: {a: i32}) (y: i32) : i32 =
  let a = env_4.a
  in y + a

def lifted_x_5 (env_6: {g: {a: i32}}) (x: i32) : i32 =
  let g = env_6.g
  in lifted_y_3 g (lifted_y_3 g x)

entry main  : i32 =
  let f = let a = 5i32
    in {g = {a = a}}
  in (lifted_x_5 f 1i32) + (lifted_x_5 f 2i32)

";
    assert_eq!(main, expected);
}

#[test]
fn fig1a_and_its_defunctionalisations_compute_23() {
    let compiled = fig1a();
    assert_eq!(
        compiled.run("main", &[]).expect("runs"),
        vec![Value::from(23i32)]
    );
    assert!(compiled.lifted.target.functions.len() >= 2);
    // The literal Fig. 5 translation has no lifted functions at all.
    assert!(compiled.inline.target.functions.is_empty());
}

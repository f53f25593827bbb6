//! Printing semantic objects in the notation of ICFP'18 Fig. 5 and target code
//! as in Fig. 3b.

use super::core_interface::{Core, CoreType};
use super::objects::{Env, FunSig, MTy, Mod, TypeVarSet};
use super::target::Code;

fn set(bound: &TypeVarSet) -> String {
    if bound.is_empty() {
        "∅".to_string()
    } else {
        let names: Vec<String> = bound.iter().map(|t| t.display()).collect();
        format!("{{{}}}", names.join(", "))
    }
}

fn map<'a, V: 'a>(
    entries: impl Iterator<Item = (&'a String, V)>,
    show: impl Fn(V) -> String,
) -> String {
    let items: Vec<String> = entries.map(|(k, v)| format!("{k} ↦ {}", show(v))).collect();
    format!("{{{}}}", items.join(", "))
}

/// E = (TE, VE, ME, G) on one line.
pub fn env<C: Core>(env: &Env<C>) -> String {
    format!(
        "({}, {}, {}, {})",
        map(env.te.iter(), |t: &C::Type| t.display()),
        map(env.ve.iter(), |t: &C::Type| t.display()),
        map(env.me.iter(), |m: &Mod<C>| module(m)),
        map(env.g.iter(), |s: &MTy<C>| mty(s)),
    )
}

/// M.
pub fn module<C: Core>(m: &Mod<C>) -> String {
    match m {
        Mod::Env(e) => env(e),
        Mod::FunSig(f) => funsig(f),
    }
}

/// ∀T.(E, Σ).
pub fn funsig<C: Core>(f: &FunSig<C>) -> String {
    format!("∀{}.({}, {})", set(&f.bound), env(&f.param), mty(&f.result))
}

/// ∃T.M.
pub fn mty<C: Core>(s: &MTy<C>) -> String {
    format!("∃{}.{}", set(&s.bound), module(&s.module))
}

/// ∃T.E with one line per component and per module binding.
pub fn program_env<C: Core>(bound: &TypeVarSet, e: &Env<C>) -> String {
    let mut out = format!("∃{}.E where E = (TE, VE, ME, G) and\n", set(bound));
    out.push_str(&format!(
        "TE = {}\n",
        map(e.te.iter(), |t: &C::Type| t.display())
    ));
    out.push_str(&format!(
        "VE = {}\n",
        map(e.ve.iter(), |t: &C::Type| t.display())
    ));
    out.push_str("ME = {\n");
    for (mid, m) in &e.me {
        out.push_str(&format!("  {mid} ↦ {}\n", module(m)));
    }
    out.push_str("}\nG = {\n");
    for (mtid, s) in &e.g {
        out.push_str(&format!("  {mtid} ↦ {}\n", mty(s)));
    }
    out.push_str("}\n");
    out
}

/// Target code, one `val l = ex` per line.
pub fn code<C: Core>(c: &Code<C>) -> String {
    let mut out = String::new();
    for (label, exp) in c.statements() {
        out.push_str(&format!(
            "val {} = {}\n",
            label.display(),
            C::display_target_exp(exp)
        ));
    }
    out
}

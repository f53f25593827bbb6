//! ICFP'18 semantic objects and relations, checked on hand-built objects:
//! capture-avoiding substitution, identity up to α-renaming and removal of
//! unused bound variables (Fig. 4, §4), enrichment (§4.1), instantiation with
//! its contravariant rule (§4.2, SPEC_NOTES ICFP18-4), type explication
//! (Proposition 7.1), and the logical relation rejecting inconsistent objects.

use imbl::OrdMap;
use reference::modules::explication::explicit_mty;
use reference::modules::interp_objects::IEnv;
use reference::modules::matching::{enriches_env, instantiates_funsig, matches_env};
use reference::modules::objects::{
    alpha_equivalent_mty, fresh_label, fresh_tyvar, reset_names, subst_mty, tvs_funsig, Env,
    FunSig, MTy, Mod, Substitution, TypeVarSet,
};
use reference::modules::paper_core::{i32_type, PaperCore, Type};
use reference::modules::relation::Relation;

type E = Env<PaperCore>;

fn var(t: &reference::modules::objects::TyVar) -> Type {
    Type::Var(t.clone())
}

fn arrow(a: Type, b: Type) -> Type {
    Type::Arrow(Box::new(a), Box::new(b))
}

fn ve(entries: &[(&str, Type)]) -> E {
    let mut env = E::default();
    for (name, ty) in entries {
        env.ve.insert(name.to_string(), ty.clone());
    }
    env
}

fn te(entries: &[(&str, Type)]) -> E {
    let mut env = E::default();
    for (name, ty) in entries {
        env.te.insert(name.to_string(), ty.clone());
    }
    env
}

fn set(vars: &[&reference::modules::objects::TyVar]) -> TypeVarSet {
    vars.iter().map(|t| (*t).clone()).collect()
}

#[test]
fn substitution_renames_bound_variables_that_would_capture() {
    reset_names();
    let t = fresh_tyvar("t");
    let u = fresh_tyvar("u");
    // Σ = ∃{t}.{x ↦ t → u}; S = {u ↦ t} must not capture t.
    let sigma = MTy::new(set(&[&t]), Mod::Env(ve(&[("x", arrow(var(&t), var(&u)))])));
    let mut s = Substitution::default();
    s.map.insert(u.clone(), var(&t));
    let result = subst_mty(&s, &sigma);
    let bound: Vec<_> = result.bound.iter().cloned().collect();
    assert_eq!(bound.len(), 1);
    assert_ne!(bound[0], t, "the bound t was renamed");
    let Mod::Env(env) = result.module.as_ref() else {
        panic!("structure")
    };
    assert_eq!(env.ve["x"], arrow(var(&bound[0]), var(&t)));
}

#[test]
fn identity_is_up_to_alpha_renaming_and_removal_of_unused_variables() {
    reset_names();
    let (t1, t2, t9) = (fresh_tyvar("t"), fresh_tyvar("t"), fresh_tyvar("t"));
    let a = MTy::new(set(&[&t1]), Mod::Env(ve(&[("x", var(&t1))])));
    let b = MTy::new(set(&[&t2, &t9]), Mod::Env(ve(&[("x", var(&t2))])));
    let c = MTy::new(
        set(&[&t2]),
        Mod::Env(ve(&[("x", arrow(var(&t2), var(&t2)))])),
    );
    let free = MTy::<PaperCore>::new(TypeVarSet::new(), Mod::Env(ve(&[("x", var(&t1))])));
    assert!(alpha_equivalent_mty(&a, &b));
    assert!(!alpha_equivalent_mty(&a, &c));
    assert!(
        !alpha_equivalent_mty(&a, &free),
        "a bound and a free variable differ"
    );
}

#[test]
fn free_type_variables_exclude_the_bound_ones() {
    reset_names();
    let (t, u) = (fresh_tyvar("t"), fresh_tyvar("u"));
    let funsig = FunSig::<PaperCore> {
        bound: set(&[&t]),
        param: te(&[("t", var(&t))]),
        result: Box::new(MTy::plain(Mod::Env(ve(&[("y", arrow(var(&t), var(&u)))])))),
    };
    assert_eq!(tvs_funsig(&funsig), set(&[&u]));
}

#[test]
fn enrichment_allows_more_components_and_fails_naming_the_missing_one() {
    let bigger = ve(&[("x", i32_type()), ("y", i32_type())]);
    let smaller = ve(&[("x", i32_type())]);
    assert!(enriches_env(&bigger, &smaller).is_ok());
    assert_eq!(
        enriches_env(&smaller, &bigger),
        Err("missing val y".to_string())
    );
    let wrong = ve(&[("x", arrow(i32_type(), i32_type()))]);
    assert!(enriches_env(&wrong, &smaller)
        .unwrap_err()
        .contains("val x has type"));
}

#[test]
fn matching_computes_the_instantiating_substitution() {
    reset_names();
    let t = fresh_tyvar("t");
    let spec = te(&[("t", var(&t))]).plus(&ve(&[("zero", var(&t))]));
    let concrete =
        te(&[("t", i32_type())]).plus(&ve(&[("zero", i32_type()), ("extra", i32_type())]));
    let (cut, s) = matches_env(&concrete, &set(&[&t]), &spec).expect("matches");
    assert_eq!(s.get(&t), Some(&i32_type()));
    assert!(
        !cut.ve.contains_key("extra"),
        "E'' is cut down to the specification"
    );
}

#[test]
fn concrete_functor_types_instantiate_abstract_ones_as_in_section_4_2() {
    reset_names();
    let t = fresh_tyvar("t");
    // ∀∅.({}, {t ↦ i32}) ≤ ∀∅.({}, ∃{t}.{t ↦ t}), the paper's example.
    let concrete = FunSig::<PaperCore> {
        bound: TypeVarSet::new(),
        param: E::default(),
        result: Box::new(MTy::plain(Mod::Env(te(&[("t", i32_type())])))),
    };
    let abstract_ = FunSig::<PaperCore> {
        bound: TypeVarSet::new(),
        param: E::default(),
        result: Box::new(MTy::new(set(&[&t]), Mod::Env(te(&[("t", var(&t))])))),
    };
    assert!(instantiates_funsig(&concrete, &abstract_).is_ok());
    assert!(instantiates_funsig(&abstract_, &concrete).is_err());
}

#[test]
fn instantiation_of_functor_types_is_contravariant_in_the_parameter() {
    reset_names();
    let t = fresh_tyvar("t");
    let generic = FunSig::<PaperCore> {
        bound: set(&[&t]),
        param: te(&[("t", var(&t))]),
        result: Box::new(MTy::plain(Mod::Env(ve(&[("y", var(&t))])))),
    };
    let specific = FunSig::<PaperCore> {
        bound: TypeVarSet::new(),
        param: te(&[("t", i32_type())]),
        result: Box::new(MTy::plain(Mod::Env(ve(&[("y", i32_type())])))),
    };
    assert!(
        instantiates_funsig(&generic, &specific).is_ok(),
        "a generic functor can be used at i32"
    );
    let err = instantiates_funsig(&specific, &generic).unwrap_err();
    assert!(err.starts_with("parameter:"), "{err}");
}

#[test]
fn proposition_7_1_check_rejects_a_module_type_that_is_not_type_explicit() {
    reset_names();
    let t = fresh_tyvar("t");
    let hidden = MTy::<PaperCore>::new(set(&[&t]), Mod::Env(ve(&[("x", var(&t))])));
    assert!(explicit_mty(&hidden).is_err());
    let named = MTy::<PaperCore>::new(
        set(&[&t]),
        Mod::Env(te(&[("t", var(&t))]).plus(&ve(&[("x", var(&t))]))),
    );
    assert!(explicit_mty(&named).is_ok());
}

#[test]
fn the_relation_rejects_a_label_of_the_wrong_type() {
    reset_names();
    let env = ve(&[("x", i32_type())]);
    let label = fresh_label("x");
    let mut ienv = IEnv::<PaperCore>::default();
    ienv.ve.insert("x".to_string(), (label.clone(), i32_type()));
    let mut good = OrdMap::new();
    good.insert(label.clone(), i32_type());
    let mut bad = OrdMap::new();
    bad.insert(label, arrow(i32_type(), i32_type()));
    assert!(Relation::<PaperCore>::default()
        .env(&env, &ienv, &Substitution::default(), &good)
        .is_ok());
    let err = Relation::<PaperCore>::default()
        .env(&env, &ienv, &Substitution::default(), &bad)
        .unwrap_err();
    assert!(err.contains("S(τ) = i32"), "{err}");
}

#[test]
fn the_relation_finds_s_prime_for_abstract_types() {
    reset_names();
    let t = fresh_tyvar("t");
    let env = te(&[("t", var(&t))]).plus(&ve(&[("x", var(&t))]));
    let label = fresh_label("x");
    let mut ienv = IEnv::<PaperCore>::default();
    ienv.te.insert("t".to_string(), var(&t));
    ienv.ve.insert("x".to_string(), (label.clone(), var(&t)));
    let mut gamma = OrdMap::new();
    gamma.insert(label, i32_type());
    let mut relation = Relation::<PaperCore>::default();
    let s_prime = relation.guess_substitution(&set(&[&t]));
    assert!(relation.env(&env, &ienv, &s_prime, &gamma).is_ok());
}

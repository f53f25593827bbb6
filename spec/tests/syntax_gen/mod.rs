//! proptest strategies for arbitrary *syntactically valid* surface trees.
//!
//! The trees need not be well typed; they respect exactly the conventions the
//! printer and the parser agree on (see `spec::syntax::printer`), so that
//! `parse(print(t)) == t` holds for every generated `t`:
//!
//! * names are short identifiers that are never keywords (plus `x'`, `_x`);
//!   operator symbols come from a fixed list and never begin a comment;
//!   record fields are identifiers or decimal numerals;
//! * tuples never have exactly one element; lists the grammar requires to be
//!   non-empty (type arguments, sum constructors, existential sizes, match
//!   cases, lambda and local-function parameters, indices, attribute call
//!   arguments, projection and update paths) are non-empty;
//! * floats are finite and non-negative; only numeric pattern literals are
//!   negated;
//! * a right section never uses the unqualified `-` (`(-x)` is negation);
//! * a field path never has two numerals in a row (`.0.1` would lex as a
//!   float).
//!
//! Every variant of every syntax enum, and both sides of every `Option` and
//! list, are reachable; `tests/printer_gen.rs` checks that by counting.
//! Depth and size are controlled by [`GenConfig`]. All spans are
//! `Span::default()`.

#![allow(dead_code)]

use proptest::collection::vec;
use proptest::prelude::*;
use proptest::sample::select;
use proptest::strategy::Union;
use spec::source::Span;
use spec::syntax::ast::*;

/// Size controls for the generators (`prop_recursive` depth, desired size and
/// expected branching for each recursive syntactic class).
#[derive(Clone, Copy, Debug)]
pub struct GenConfig {
    pub expr_depth: u32,
    pub expr_size: u32,
    pub type_depth: u32,
    pub pat_depth: u32,
    pub mod_type_depth: u32,
    pub dec_depth: u32,
    /// Most declarations at top level (and in one struct).
    pub max_decs: usize,
}

impl Default for GenConfig {
    fn default() -> Self {
        GenConfig {
            expr_depth: 4,
            expr_size: 48,
            type_depth: 3,
            pat_depth: 3,
            mod_type_depth: 3,
            dec_depth: 3,
            max_decs: 5,
        }
    }
}

fn sp() -> Span {
    Span::default()
}

// ---------------------------------------------------------------------------
// Names and literals

const IDENTS: &[&str] = &[
    "a", "b", "c", "f", "g", "n", "m", "x", "y", "z", "xs", "acc", "i", "j", "t", "u", "foo",
    "bar2", "xY", "x'", "y''", "_x", "_tmp", "in_", "iff", "letter", "x_1",
];

const TYPE_NAMES: &[&str] = &["i32", "i64", "f32", "f64", "bool", "u8"];

const NUMERALS: &[&str] = &["0", "1", "2", "10"];

/// Operator symbols (never `=`, `->`, or anything with `--`).
pub const OPERATORS: &[&str] = &[
    "+", "-", "*", "/", "%", "//", "%%", "**", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "&",
    "|", "^", "<<", ">>", "|>", "<|", "+^", ">>=", "<=<",
];

pub fn ident() -> BoxedStrategy<Name> {
    select(IDENTS).prop_map(str::to_string).boxed()
}

fn type_name() -> BoxedStrategy<Name> {
    prop_oneof![3 => ident(), 1 => select(TYPE_NAMES).prop_map(str::to_string)].boxed()
}

fn field() -> BoxedStrategy<Name> {
    prop_oneof![3 => ident(), 1 => select(NUMERALS).prop_map(str::to_string)].boxed()
}

fn is_numeral(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_digit())
}

/// A non-empty field path with no two numerals in a row.
fn field_path() -> BoxedStrategy<Vec<Name>> {
    vec(field(), 1..4)
        .prop_map(|mut fields| {
            for i in 1..fields.len() {
                if is_numeral(&fields[i - 1]) && is_numeral(&fields[i]) {
                    fields[i] = "a".to_string();
                }
            }
            fields
        })
        .boxed()
}

fn operator() -> BoxedStrategy<Name> {
    select(OPERATORS).prop_map(str::to_string).boxed()
}

fn qual(name: BoxedStrategy<Name>) -> BoxedStrategy<QualName> {
    (
        prop_oneof![3 => Just(0usize), 2 => Just(1usize), 1 => Just(2usize)],
        vec(ident(), 2),
        name,
    )
        .prop_map(|(n, quals, name)| QualName {
            qualifiers: quals.into_iter().take(n).collect(),
            name,
            span: sp(),
        })
        .boxed()
}

fn int_type() -> BoxedStrategy<IntType> {
    select(vec![
        IntType::I8,
        IntType::I16,
        IntType::I32,
        IntType::I64,
        IntType::U8,
        IntType::U16,
        IntType::U32,
        IntType::U64,
    ])
    .boxed()
}

fn float_value() -> BoxedStrategy<f64> {
    prop_oneof![
        select(vec![
            0.0,
            1.0,
            0.5,
            1e-7,
            2.5e300,
            1e16,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324
        ]),
        0.0f64..1000.0,
        any::<u64>().prop_map(|bits| {
            let x = f64::from_bits(bits & !(1 << 63));
            if x.is_finite() {
                x
            } else {
                3.25
            }
        }),
    ]
    .boxed()
}

fn numeric_literal() -> BoxedStrategy<Literal> {
    prop_oneof![
        (
            prop_oneof![3 => 0u64..100, 1 => any::<u64>()],
            proptest::option::of(int_type())
        )
            .prop_map(|(value, suffix)| Literal::Int { value, suffix }),
        (
            float_value(),
            proptest::option::of(select(vec![FloatType::F32, FloatType::F64]))
        )
            .prop_map(|(x, suffix)| Literal::float(x, suffix)),
    ]
    .boxed()
}

pub fn literal() -> BoxedStrategy<Literal> {
    prop_oneof![3 => numeric_literal(), 1 => any::<bool>().prop_map(Literal::Bool)].boxed()
}

pub fn attr() -> BoxedStrategy<Attr> {
    prop_oneof![
        ident().prop_map(Attr::Name),
        (0u64..1000).prop_map(Attr::Int),
    ]
    .prop_recursive(2, 6, 3, |inner| {
        (ident(), vec(inner, 1..3)).prop_map(|(name, args)| Attr::Call(name, args))
    })
    .boxed()
}

fn liftedness() -> BoxedStrategy<Liftedness> {
    select(vec![
        Liftedness::Unlifted,
        Liftedness::SizeLifted,
        Liftedness::Lifted,
    ])
    .boxed()
}

/// The name of a type parameter: an identifier whose second character is
/// not `'`, since `'x'` (and `'y''`) opens a character literal, in Futhark as
/// here (SPEC_NOTES TFP18-33).
fn type_parameter_name() -> BoxedStrategy<Name> {
    ident()
        .prop_filter("`'x'` is a character literal", |name| {
            name.chars().nth(1) != Some('\'')
        })
        .boxed()
}

pub fn type_param() -> BoxedStrategy<TypeParam> {
    prop_oneof![
        ident().prop_map(|name| TypeParam::Size { name, span: sp() }),
        (type_parameter_name(), liftedness()).prop_map(|(name, liftedness)| TypeParam::Type {
            name,
            liftedness,
            span: sp()
        }),
    ]
    .boxed()
}

fn type_params() -> BoxedStrategy<Vec<TypeParam>> {
    vec(type_param(), 0..3).boxed()
}

// ---------------------------------------------------------------------------
// Types

fn size_exp() -> BoxedStrategy<SizeExp> {
    prop_oneof![
        Just(SizeExp::Anonymous),
        qual(ident()).prop_map(SizeExp::Named),
        (0u64..100).prop_map(SizeExp::Constant),
        (qual(ident()), 0u64..100).prop_map(|(name, addend)| {
            SizeExp::Expression(bx(Expr::BinOp {
                op: BinOp::Symbol(QualName::unqualified("+", sp())),
                lhs: bx(Expr::Var(name)),
                rhs: bx(Expr::Literal {
                    literal: Literal::Int {
                        value: addend,
                        suffix: None,
                    },
                    span: sp(),
                }),
                span: sp(),
            }))
        }),
    ]
    .boxed()
}

pub fn type_exp(cfg: GenConfig) -> BoxedStrategy<TypeExp> {
    let leaf = prop_oneof![
        4 => qual(type_name()).prop_map(TypeExp::Var),
        1 => Just(TypeExp::Tuple { elements: vec![], span: sp() }),
        1 => Just(TypeExp::Record { fields: vec![], span: sp() }),
    ];
    leaf.prop_recursive(cfg.type_depth, 16, 3, |inner| {
        let arg = prop_oneof![
            size_exp().prop_map(|size| TypeArg::Size { size, span: sp() }),
            inner.clone().prop_map(TypeArg::Type),
        ];
        let constructor =
            (ident(), vec(inner.clone(), 0..3)).prop_map(|(name, payload)| SumConstructor {
                name,
                payload,
                span: sp(),
            });
        Union::new(vec![
            (qual(type_name()), vec(arg, 1..4))
                .prop_map(|(constructor, args)| TypeExp::Apply {
                    constructor,
                    args,
                    span: sp(),
                })
                .boxed(),
            (size_exp(), inner.clone())
                .prop_map(|(size, element)| TypeExp::Array {
                    size,
                    element: Box::new(element),
                    span: sp(),
                })
                .boxed(),
            vec(inner.clone(), 2..4)
                .prop_map(|elements| TypeExp::Tuple {
                    elements,
                    span: sp(),
                })
                .boxed(),
            vec((field(), inner.clone()), 1..4)
                .prop_map(|fields| TypeExp::Record { fields, span: sp() })
                .boxed(),
            (proptest::option::of(ident()), inner.clone(), inner.clone())
                .prop_map(|(param, from, to)| TypeExp::Arrow {
                    param,
                    from: Box::new(from),
                    to: Box::new(to),
                    span: sp(),
                })
                .boxed(),
            vec(constructor, 1..4)
                .prop_map(|constructors| TypeExp::Sum {
                    constructors,
                    span: sp(),
                })
                .boxed(),
            inner
                .clone()
                .prop_map(|ty| TypeExp::Unique {
                    ty: Box::new(ty),
                    span: sp(),
                })
                .boxed(),
            (vec(ident(), 1..3), inner)
                .prop_map(|(sizes, ty)| TypeExp::Existential {
                    sizes,
                    ty: Box::new(ty),
                    span: sp(),
                })
                .boxed(),
        ])
    })
    .boxed()
}

// ---------------------------------------------------------------------------
// Patterns

pub fn pat(cfg: GenConfig) -> BoxedStrategy<Pat> {
    let literal_pat = prop_oneof![
        (any::<bool>(), numeric_literal()).prop_map(|(negative, literal)| Pat::Literal {
            negative,
            literal,
            span: sp()
        }),
        any::<bool>().prop_map(|b| Pat::Literal {
            negative: false,
            literal: Literal::Bool(b),
            span: sp()
        }),
    ];
    let leaf = prop_oneof![
        4 => ident().prop_map(|name| Pat::Var { name, span: sp() }),
        1 => Just(Pat::Wildcard { span: sp() }),
        1 => Just(Pat::Tuple { elements: vec![], span: sp() }),
        1 => Just(Pat::Record { fields: vec![], span: sp() }),
        1 => literal_pat,
        1 => ident().prop_map(|name| Pat::Constructor { name, payload: vec![], span: sp() }),
    ];
    let ty = type_exp(GenConfig {
        type_depth: 2,
        ..cfg
    });
    leaf.prop_recursive(cfg.pat_depth, 16, 3, move |inner| {
        prop_oneof![
            vec(inner.clone(), 2..4).prop_map(|elements| Pat::Tuple {
                elements,
                span: sp()
            }),
            vec((field(), inner.clone()), 1..4)
                .prop_map(|fields| Pat::Record { fields, span: sp() }),
            (ident(), vec(inner.clone(), 1..3)).prop_map(|(name, payload)| Pat::Constructor {
                name,
                payload,
                span: sp()
            }),
            (inner.clone(), ty.clone()).prop_map(|(pat, ty)| Pat::Ascribe {
                pat: Box::new(pat),
                ty,
                span: sp()
            }),
            (attr(), inner).prop_map(|(attr, pat)| Pat::Attr {
                attr,
                pat: Box::new(pat),
                span: sp()
            }),
        ]
    })
    .boxed()
}

// ---------------------------------------------------------------------------
// Expressions

pub fn bin_op() -> BoxedStrategy<BinOp> {
    prop_oneof![
        4 => qual(operator()).prop_map(BinOp::Symbol),
        1 => qual(ident()).prop_map(BinOp::Backtick),
    ]
    .boxed()
}

/// An operator for a right section: `(- x)` would read as negation.
fn right_section_op() -> BoxedStrategy<BinOp> {
    bin_op()
        .prop_map(|op| match op {
            BinOp::Symbol(name) if name.qualifiers.is_empty() && name.name == "-" => {
                BinOp::Symbol(QualName::unqualified("+", sp()))
            }
            op => op,
        })
        .boxed()
}

fn dim_index(inner: BoxedStrategy<Expr>) -> BoxedStrategy<DimIndex> {
    let part = || proptest::option::of(inner.clone());
    prop_oneof![
        inner.clone().prop_map(DimIndex::Index),
        (part(), part(), part()).prop_map(|(start, end, stride)| DimIndex::Slice {
            start,
            end,
            stride
        }),
    ]
    .boxed()
}

fn dim_indices(inner: BoxedStrategy<Expr>) -> BoxedStrategy<Vec<DimIndex>> {
    vec(dim_index(inner), 1..3).boxed()
}

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

pub fn expr(cfg: GenConfig) -> BoxedStrategy<Expr> {
    let leaf = prop_oneof![
        3 => literal().prop_map(|literal| Expr::Literal { literal, span: sp() }),
        4 => qual(ident()).prop_map(Expr::Var),
        1 => Just(Expr::Tuple { elements: vec![], span: sp() }),
        1 => Just(Expr::Record { fields: vec![], span: sp() }),
        1 => Just(Expr::Array { elements: vec![], span: sp() }),
        1 => bin_op().prop_map(|op| Expr::OpSection { op, span: sp() }),
        1 => field_path().prop_map(|fields| Expr::ProjectSection { fields, span: sp() }),
        1 => ident().prop_map(|name| Expr::Constructor { name, payload: vec![], span: sp() }),
    ];
    let ty = type_exp(GenConfig {
        type_depth: 2,
        ..cfg
    });
    let pat = pat(GenConfig {
        pat_depth: 2,
        ..cfg
    });
    leaf.prop_recursive(cfg.expr_depth, cfg.expr_size, 3, move |inner| {
        let e = || inner.clone();
        let opt_ty = || proptest::option::of(ty.clone());
        let params = || vec(pat.clone(), 1..3);
        let loop_form = prop_oneof![
            (ident(), e()).prop_map(|(var, bound)| LoopForm::For {
                var,
                var_span: sp(),
                bound: bx(bound)
            }),
            (pat.clone(), e()).prop_map(|(pat, array)| LoopForm::ForIn {
                pat,
                array: bx(array)
            }),
            e().prop_map(|c| LoopForm::While { condition: bx(c) }),
        ];
        let case = (pat.clone(), e()).prop_map(|(pat, body)| MatchCase {
            pat,
            body,
            span: sp(),
        });
        let end_kind = select(vec![
            RangeEnd::Inclusive,
            RangeEnd::UpToExclusive,
            RangeEnd::DownToExclusive,
        ]);
        Union::new(vec![
            (e(), field())
                .prop_map(|(expr, field)| Expr::Project {
                    expr: bx(expr),
                    field,
                    span: sp(),
                })
                .boxed(),
            vec(e(), 2..4)
                .prop_map(|elements| Expr::Tuple {
                    elements,
                    span: sp(),
                })
                .boxed(),
            vec((field(), e()), 1..3)
                .prop_map(|fields| Expr::Record { fields, span: sp() })
                .boxed(),
            vec(e(), 1..4)
                .prop_map(|elements| Expr::Array {
                    elements,
                    span: sp(),
                })
                .boxed(),
            (e(), proptest::option::of(e()), e(), end_kind)
                .prop_map(|(start, step, end, end_kind)| Expr::Range {
                    start: bx(start),
                    step: step.map(bx),
                    end: bx(end),
                    end_kind,
                    span: sp(),
                })
                .boxed(),
            (e(), dim_indices(e()))
                .prop_map(|(array, indices)| Expr::Index {
                    array: bx(array),
                    indices,
                    span: sp(),
                })
                .boxed(),
            (e(), e())
                .prop_map(|(function, argument)| Expr::Apply {
                    function: bx(function),
                    argument: bx(argument),
                    span: sp(),
                })
                .boxed(),
            (bin_op(), e(), e())
                .prop_map(|(op, lhs, rhs)| Expr::BinOp {
                    op,
                    lhs: bx(lhs),
                    rhs: bx(rhs),
                    span: sp(),
                })
                .boxed(),
            e().prop_map(|expr| Expr::Negate {
                expr: bx(expr),
                span: sp(),
            })
            .boxed(),
            e().prop_map(|expr| Expr::Not {
                expr: bx(expr),
                span: sp(),
            })
            .boxed(),
            (bin_op(), e())
                .prop_map(|(op, left)| Expr::LeftSection {
                    op,
                    left: bx(left),
                    span: sp(),
                })
                .boxed(),
            (right_section_op(), e())
                .prop_map(|(op, right)| Expr::RightSection {
                    op,
                    right: bx(right),
                    span: sp(),
                })
                .boxed(),
            dim_indices(e())
                .prop_map(|indices| Expr::IndexSection {
                    indices,
                    span: sp(),
                })
                .boxed(),
            (e(), e(), e())
                .prop_map(|(c, t, f)| Expr::If {
                    condition: bx(c),
                    then_branch: bx(t),
                    else_branch: bx(f),
                    span: sp(),
                })
                .boxed(),
            (vec(ident(), 0..3), pat.clone(), e(), e())
                .prop_map(|(sizes, pat, value, body)| Expr::Let {
                    sizes,
                    pat,
                    value: bx(value),
                    body: bx(body),
                    span: sp(),
                })
                .boxed(),
            (ident(), type_params(), params(), opt_ty(), e(), e())
                .prop_map(
                    |(name, type_params, params, return_type, value, body)| Expr::LetFun {
                        name,
                        type_params,
                        params,
                        return_type,
                        value: bx(value),
                        body: bx(body),
                        span: sp(),
                    },
                )
                .boxed(),
            (ident(), dim_indices(e()), e(), e())
                .prop_map(|(name, indices, value, body)| Expr::LetWith {
                    name,
                    name_span: sp(),
                    indices,
                    value: bx(value),
                    body: bx(body),
                    span: sp(),
                })
                .boxed(),
            (params(), opt_ty(), e())
                .prop_map(|(params, return_type, body)| Expr::Lambda {
                    params,
                    return_type,
                    body: bx(body),
                    span: sp(),
                })
                .boxed(),
            (pat.clone(), proptest::option::of(e()), loop_form, e())
                .prop_map(|(pat, init, form, body)| Expr::Loop {
                    pat,
                    init: init.map(bx),
                    form,
                    body: bx(body),
                    span: sp(),
                })
                .boxed(),
            (e(), dim_indices(e()), e())
                .prop_map(|(target, indices, value)| Expr::Update {
                    target: bx(target),
                    indices,
                    value: bx(value),
                    span: sp(),
                })
                .boxed(),
            (e(), field_path(), e())
                .prop_map(|(target, fields, value)| Expr::RecordUpdate {
                    target: bx(target),
                    fields,
                    value: bx(value),
                    span: sp(),
                })
                .boxed(),
            (e(), ty.clone())
                .prop_map(|(expr, ty)| Expr::Ascribe {
                    expr: bx(expr),
                    ty,
                    span: sp(),
                })
                .boxed(),
            (e(), ty.clone())
                .prop_map(|(expr, ty)| Expr::Coerce {
                    expr: bx(expr),
                    ty,
                    span: sp(),
                })
                .boxed(),
            (e(), vec(case, 1..4))
                .prop_map(|(scrutinee, cases)| Expr::Match {
                    scrutinee: bx(scrutinee),
                    cases,
                    span: sp(),
                })
                .boxed(),
            (ident(), vec(e(), 1..3))
                .prop_map(|(name, payload)| Expr::Constructor {
                    name,
                    payload,
                    span: sp(),
                })
                .boxed(),
            (qual(ident()), e())
                .prop_map(|(module, body)| Expr::OpenIn {
                    module,
                    body: bx(body),
                    span: sp(),
                })
                .boxed(),
            (attr(), e())
                .prop_map(|(attr, expr)| Expr::Attr {
                    attr,
                    expr: bx(expr),
                    span: sp(),
                })
                .boxed(),
        ])
    })
    .boxed()
}

// ---------------------------------------------------------------------------
// Module types

fn value_name() -> BoxedStrategy<Name> {
    prop_oneof![4 => ident(), 1 => operator()].boxed()
}

fn spec_item(cfg: GenConfig, mod_type: BoxedStrategy<ModTypeExp>) -> BoxedStrategy<Spec> {
    let ty = || type_exp(cfg);
    prop_oneof![
        (value_name(), type_params(), ty()).prop_map(|(name, type_params, ty)| Spec::Val {
            name,
            type_params,
            ty,
            span: sp()
        }),
        (
            liftedness(),
            ident(),
            type_params(),
            proptest::option::of(ty())
        )
            .prop_map(|(liftedness, name, params, definition)| Spec::Type {
                liftedness,
                name,
                params,
                definition,
                span: sp()
            }),
        (ident(), mod_type.clone()).prop_map(|(name, mod_type)| Spec::Module {
            name,
            mod_type,
            span: sp()
        }),
        mod_type.prop_map(|mod_type| Spec::Include {
            mod_type,
            span: sp()
        }),
    ]
    .boxed()
}

pub fn mod_type_exp(cfg: GenConfig) -> BoxedStrategy<ModTypeExp> {
    let leaf = prop_oneof![
        3 => qual(ident()).prop_map(ModTypeExp::Var),
        1 => Just(ModTypeExp::Signature { specs: vec![], span: sp() }),
    ];
    leaf.prop_recursive(cfg.mod_type_depth, 12, 3, move |inner| {
        let refinement =
            (qual(ident()), type_params(), type_exp(cfg)).prop_map(|(name, params, definition)| {
                TypeRefinement {
                    name,
                    params,
                    definition,
                }
            });
        prop_oneof![
            vec(spec_item(cfg, inner.clone()), 1..4)
                .prop_map(|specs| ModTypeExp::Signature { specs, span: sp() }),
            (inner.clone(), refinement).prop_map(|(mod_type, refinement)| ModTypeExp::With {
                mod_type: Box::new(mod_type),
                refinement,
                span: sp()
            }),
            (proptest::option::of(ident()), inner.clone(), inner).prop_map(|(param, from, to)| {
                ModTypeExp::Arrow {
                    param,
                    from: Box::new(from),
                    to: Box::new(to),
                    span: sp(),
                }
            }),
        ]
    })
    .boxed()
}

// ---------------------------------------------------------------------------
// Module expressions and declarations

fn path() -> BoxedStrategy<String> {
    "[a-z]{1,6}(/[a-z]{1,6}){0,2}".boxed()
}

fn mod_param(cfg: GenConfig) -> BoxedStrategy<ModParam> {
    (ident(), mod_type_exp(cfg))
        .prop_map(|(name, mod_type)| ModParam {
            name,
            mod_type,
            span: sp(),
        })
        .boxed()
}

/// Module expressions whose structs hold declarations from `dec`.
fn mod_exp_with(cfg: GenConfig, dec: BoxedStrategy<Dec>) -> BoxedStrategy<ModExp> {
    let leaf = prop_oneof![
        3 => qual(ident()).prop_map(ModExp::Var),
        1 => path().prop_map(|path| ModExp::Import { path, span: sp() }),
        1 => Just(ModExp::Struct { decs: vec![], span: sp() }),
    ];
    leaf.prop_recursive(3, 8, 2, move |inner| {
        prop_oneof![
            vec(dec.clone(), 1..cfg.max_decs.max(2))
                .prop_map(|decs| ModExp::Struct { decs, span: sp() }),
            (inner.clone(), mod_type_exp(cfg)).prop_map(|(module, mod_type)| {
                ModExp::Ascribe {
                    module: Box::new(module),
                    mod_type,
                    span: sp(),
                }
            }),
            (
                mod_param(cfg),
                proptest::option::of(mod_type_exp(cfg)),
                inner.clone()
            )
                .prop_map(|(param, result, body)| ModExp::Lambda {
                    param: Box::new(param),
                    result,
                    body: Box::new(body),
                    span: sp()
                }),
            (inner.clone(), inner).prop_map(|(functor, argument)| ModExp::Apply {
                functor: Box::new(functor),
                argument: Box::new(argument),
                span: sp()
            }),
        ]
    })
    .boxed()
}

fn value_bind(cfg: GenConfig) -> BoxedStrategy<ValueBind> {
    (
        select(vec![ValueBindKind::Def, ValueBindKind::Entry]),
        value_name(),
        type_params(),
        vec(pat(cfg), 0..3),
        proptest::option::of(type_exp(cfg)),
        expr(cfg),
    )
        .prop_map(
            |(kind, name, type_params, params, return_type, body)| ValueBind {
                kind,
                name,
                type_params,
                params,
                return_type,
                body,
                span: sp(),
            },
        )
        .boxed()
}

fn type_bind(cfg: GenConfig) -> BoxedStrategy<TypeBind> {
    (liftedness(), ident(), type_params(), type_exp(cfg))
        .prop_map(|(liftedness, name, params, definition)| TypeBind {
            liftedness,
            name,
            params,
            definition,
            span: sp(),
        })
        .boxed()
}

fn module_bind(cfg: GenConfig, body: BoxedStrategy<ModExp>) -> BoxedStrategy<ModuleBind> {
    (
        ident(),
        vec(mod_param(cfg), 0..3),
        proptest::option::of(mod_type_exp(cfg)),
        body,
    )
        .prop_map(|(name, params, signature, body)| ModuleBind {
            name,
            params,
            signature,
            body,
            span: sp(),
        })
        .boxed()
}

pub fn dec(cfg: GenConfig) -> BoxedStrategy<Dec> {
    let simple_mod_exp = prop_oneof![
        qual(ident()).prop_map(ModExp::Var),
        path().prop_map(|path| ModExp::Import { path, span: sp() }),
    ]
    .boxed();
    let leaf = prop_oneof![
        4 => value_bind(cfg).prop_map(Dec::Value),
        1 => type_bind(cfg).prop_map(Dec::Type),
        1 => module_bind(cfg, simple_mod_exp.clone()).prop_map(Dec::Module),
        1 => (ident(), mod_type_exp(cfg)).prop_map(|(name, definition)| {
            Dec::ModuleType(ModuleTypeBind { name, definition, span: sp() })
        }),
        1 => simple_mod_exp.prop_map(|module| Dec::Open { module, span: sp() }),
        1 => path().prop_map(|path| Dec::Import { path, span: sp() }),
    ];
    leaf.prop_recursive(cfg.dec_depth, 24, 3, move |inner| {
        let module = mod_exp_with(cfg, inner.clone());
        prop_oneof![
            module_bind(cfg, module.clone()).prop_map(Dec::Module),
            module.prop_map(|module| Dec::Open { module, span: sp() }),
            inner.clone().prop_map(|dec| Dec::Local {
                dec: Box::new(dec),
                span: sp()
            }),
            (attr(), inner).prop_map(|(attr, dec)| Dec::Attr {
                attr,
                dec: Box::new(dec),
                span: sp()
            }),
        ]
    })
    .boxed()
}

pub fn mod_exp(cfg: GenConfig) -> BoxedStrategy<ModExp> {
    mod_exp_with(cfg, dec(cfg))
}

pub fn program_with(cfg: GenConfig) -> BoxedStrategy<Program> {
    vec(dec(cfg), 0..=cfg.max_decs)
        .prop_map(|decs| Program { decs })
        .boxed()
}

pub fn program() -> BoxedStrategy<Program> {
    program_with(GenConfig::default())
}

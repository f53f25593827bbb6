//! Extension beyond TFP'18: arrays of different *constant* sizes never meet
//! where one size is required (SPEC_NOTES TFP18-19, rule
//! `TFP18 T-ConstantSizes`).
//!
//! The core calculus of TFP'18 types arrays as `[]τ` and the reference checks
//! sizes at run time (§5.2's size parameters, coercions). Futhark rejects at
//! compile time a program in which two sizes that are distinct constants must
//! be equal: `map2 f [1, 2, 3] (replicate 4 x)`, `zip`, a call of
//! `def f [n] (xs: [n]t) (ys: [n]t)` with arrays of sizes 3 and 4, an
//! argument of size 4 for a parameter `[3]t`, or an ascription `e : [3]t` of
//! an array of size 4. This judgment, run on the surface program before its
//! elaboration to the core, finds those: it infers, for every expression, the
//! *shape* it can prove (constant outer sizes of arrays, through tuples,
//! records, `let`, `if`, loops, indexing, the size-preserving library
//! functions, a `map`'s function applied to the rows of its arrays, and the
//! annotated signatures of the program's functions and of the prelude's,
//! with size parameters instantiated by the constant sizes of the
//! arguments), and rejects where two proven constants differ. In a
//! function's body its size parameters are rigid, as in Futhark: one where
//! a constant or another size parameter is required
//! (`def f [n] (xs: [n]i64) : [2]i64 = xs`, a `[n]` row in a `with`
//! update of `[2]` rows, `zip` of `[n]` and `[m]` arrays) is rejected too
//! (SPEC_NOTES TFP18-20), and so are the anonymous sizes `[]` of a `def`'s
//! (or local `let f`'s) parameters, each an implicit size parameter, and
//! an `i64` parameter used as a size (`(n: i64) … : [n]t`), as in Futhark
//! and the optimising front end (SPEC_NOTES TFP18-22); a call binds a
//! signature's size parameters to its arguments' constants and rigid
//! sizes, so two distinct ones for one `[n]` are rejected. Existential
//! sizes (`filter`'s result, ranges, slices) stay unknown, as in the
//! optimising front end. A size it cannot prove is unknown and never
//! rejected (the run-time checks stay); it never rejects a program Futhark
//! accepts.
//!
//! Module programs are examined too (`front::pipeline` runs this judgment on
//! them after the module calculus has elaborated them): the walk follows the
//! module-level declarations, with their scopes: structure bodies, `local`,
//! `open` (declarations and `M.(e)`), module types, and parametric modules,
//! whose bodies are checked once with their parameters' specifications
//! giving every value an unknown shape. A module records the signatures of
//! its functions and its type abbreviations, so a qualified name `M.f` (and
//! `F(A).f`, `N.f` with `module N = F A`) has the signature its definition
//! states; opaque ascription keeps only the names its module type lists, and
//! a module whose names are not all known (an unknown module type, `open`
//! of a numeric module) hides every name it could shadow (unknown sizes,
//! never a library function's rule).

use crate::derivation::fire_rule;
use spec::diagnostic::Diagnostic;
use spec::source::Span;
use spec::syntax::ast::{
    self, BinOp, Dec, DimIndex, Expr, LoopForm, ModExp, ModTypeExp, Pat, QualName, SizeExp, Spec,
    TypeExp, TypeParam,
};
use std::cell::Cell;
use std::collections::{BTreeMap, HashMap};
use std::rc::Rc;

/// The outer size of an array, as far as it is proven.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Dim {
    Constant(u64),
    /// A size parameter of the signature being instantiated (bound to the
    /// size of an argument, or unknown), or of the enclosing function:
    /// then rigid, equal only to itself (SPEC_NOTES TFP18-20). A size
    /// parameter is declared (`[n]`), a value parameter of type `i64` used
    /// as a size, or an anonymous size `[]` of a parameter's annotation,
    /// an implicit size parameter named [`ANONYMOUS`]`k` (SPEC_NOTES
    /// TFP18-22).
    Named(String),
    Unknown,
}

/// What is proven about a value's sizes.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Shape {
    Unknown,
    Array(Dim, Box<Shape>),
    Tuple(Vec<Shape>),
    Record(BTreeMap<String, Shape>),
    /// A type parameter of the signature being instantiated (`'a`): the
    /// shape of its argument, once bound; unknown elsewhere.
    Param(String),
}

/// What instantiating a signature binds: size parameters to the sizes of
/// the arguments (constants, or rigid sizes of the caller), type parameters
/// to the shapes of their arguments.
#[derive(Default)]
struct Bindings {
    sizes: HashMap<String, Dim>,
    types: HashMap<String, Shape>,
}

/// The sizes a function's signature states: its size parameters, the shapes
/// of its parameters (one per curried argument) and of its result.
#[derive(Clone, Debug)]
struct Signature {
    params: Vec<Shape>,
    result: Shape,
}

type Judgment<T> = Result<T, Diagnostic>;

/// What the head of an application names (`Sizes::callee`).
enum Callee<'e> {
    /// One of the program's functions, with the signature it states.
    Defined(&'e str, Signature),
    /// A library function, ruled by name in `Sizes::application`.
    Library(&'e str),
    /// A local value, a lambda, a name an opened module may bind, another
    /// expression: the result's shape is unknown.
    Unknown,
}

/// Whether `name` applied to `arity` arguments is a library SOAC that
/// applies its first argument to the rows of the others (`map f xs`,
/// `map2 f xs ys`, …, `map5`: the intrinsics named `map…`, fully applied).
fn maps_rows(name: &str, arity: usize) -> bool {
    name.starts_with("map") && super::from_surface::INTRINSICS.contains(&(name, arity))
}

/// A local name: a variable, a local function with its signature, or the
/// names of a module opened by `M.(e)` that are not all known (every name
/// behind it is unknown).
#[derive(Clone, Debug)]
enum Local {
    Value(Shape),
    Function(Signature),
    Opaque,
}

/// What the declarations of a scope (the program, a structure's body, a
/// module type's specifications) bind, as far as sizes are concerned.
#[derive(Clone, Debug, Default)]
struct ModuleSizes {
    /// Values and functions by name, with the sizes their definitions
    /// state (a value whose sizes are unknown has [`unknown_signature`]).
    functions: HashMap<String, Signature>,
    /// Type abbreviations without type parameters, by the shape they state
    /// at their definition; `None`: a type whose sizes are unknown
    /// (abstract, parametric, specified), which hides an outer one.
    abbreviations: HashMap<String, Option<Abbreviation>>,
    modules: HashMap<String, ModuleValue>,
    module_types: HashMap<String, ModuleValue>,
    /// It may bind names not listed here (`open` of a module whose names
    /// are not all known): a name not found is unknown, never a library
    /// function.
    incomplete: bool,
}

/// A type abbreviation's shape, in which its size parameters (`type vec
/// [n] = [n]f32`) are named dims, replaced by the sizes of each use (`vec
/// [m]`; SPEC_NOTES ICFP18-27).
#[derive(Clone, Debug)]
struct Abbreviation {
    size_params: Vec<String>,
    shape: Shape,
}

/// A module (or what a module type says of one, for a parameter).
#[derive(Clone, Debug)]
enum ModuleValue {
    Structure(Rc<ModuleSizes>),
    /// A parametric module: what its body binds, for any argument (the body
    /// is checked once, its parameter's values of unknown shapes).
    Functor(Rc<ModuleValue>),
}

/// A module of which nothing is known (the numeric modules of the
/// prelude, an unknown module type, an import).
fn unknown_module() -> ModuleValue {
    ModuleValue::Structure(unknown_structure())
}

fn unknown_structure() -> Rc<ModuleSizes> {
    Rc::new(ModuleSizes {
        incomplete: true,
        ..ModuleSizes::default()
    })
}

/// The signature of a value whose sizes are unknown (one a specification
/// names): it hides an outer name and proves nothing.
fn unknown_signature() -> Signature {
    Signature {
        params: Vec::new(),
        result: Shape::Unknown,
    }
}

impl ModuleSizes {
    /// `open`: the names of `opened` shadow those of `self`; a module whose
    /// names are not all known hides every name of `self`.
    fn open(&mut self, opened: &ModuleSizes) {
        if opened.incomplete {
            *self = ModuleSizes {
                incomplete: true,
                ..ModuleSizes::default()
            };
        }
        self.functions
            .extend(opened.functions.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.abbreviations.extend(
            opened
                .abbreviations
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
        self.modules
            .extend(opened.modules.iter().map(|(k, v)| (k.clone(), v.clone())));
        self.module_types.extend(
            opened
                .module_types
                .iter()
                .map(|(k, v)| (k.clone(), v.clone())),
        );
    }

    /// Opaque ascription `me : mt`: only the names `spec` lists, a type it
    /// specifies without the structure's definition shown as unknown.
    fn restricted_to(&self, spec: &ModuleSizes) -> ModuleSizes {
        if spec.incomplete {
            return ModuleSizes {
                incomplete: true,
                ..ModuleSizes::default()
            };
        }
        ModuleSizes {
            functions: spec
                .functions
                .keys()
                .map(|name| {
                    let signature = self.functions.get(name).cloned();
                    (name.clone(), signature.unwrap_or_else(unknown_signature))
                })
                .collect(),
            abbreviations: spec
                .abbreviations
                .keys()
                .map(|name| (name.clone(), None))
                .collect(),
            modules: spec
                .modules
                .iter()
                .map(|(name, specified)| {
                    let restricted = match self.modules.get(name) {
                        Some(module) => module.restricted_to(specified),
                        None => unknown_module(),
                    };
                    (name.clone(), restricted)
                })
                .collect(),
            module_types: spec.module_types.clone(),
            incomplete: false,
        }
    }
}

impl ModuleValue {
    fn restricted_to(&self, spec: &ModuleValue) -> ModuleValue {
        match (self, spec) {
            (ModuleValue::Structure(module), ModuleValue::Structure(specified)) => {
                ModuleValue::Structure(Rc::new(module.restricted_to(specified)))
            }
            (ModuleValue::Functor(body), ModuleValue::Functor(specified)) => {
                ModuleValue::Functor(Rc::new(body.restricted_to(specified)))
            }
            _ => unknown_module(),
        }
    }

    /// The names it binds when opened (a functor binds none we know).
    fn structure(&self) -> Rc<ModuleSizes> {
        match self {
            ModuleValue::Structure(module) => module.clone(),
            ModuleValue::Functor(_) => unknown_structure(),
        }
    }
}

struct Sizes {
    /// Local variables and functions, innermost last.
    locals: Vec<(String, Local)>,
    /// The module-level names in scope: top-level declarations, those of
    /// the enclosing structures and of the modules opened.
    scope: ModuleSizes,
    /// While a function's parameters are read: an anonymous size `[]` is
    /// an implicit size parameter (rigid in the body), else unknown.
    anonymous_rigid: Cell<bool>,
    /// The anonymous sizes named so far.
    anonymous_count: Cell<u64>,
}

/// Checks a surface program for sizes that are distinct constants (or
/// rigid sizes) where one size is required.
/// The prelude's functions (`spec/prelude/toplevel.fut`) are ruled by the
/// signatures it states, as the program's own are (`hist`'s `[n]` indices
/// and values), their bodies trusted; the built-in ones by name
/// (`Sizes::application`).
pub fn check_program(program: &ast::Program) -> Result<(), Diagnostic> {
    let prelude = super::from_surface::parse_prelude(PRELUDE_FILE)?;
    let mut sizes = Sizes {
        locals: Vec::new(),
        scope: ModuleSizes::default(),
        anonymous_rigid: Cell::new(false),
        anonymous_count: Cell::new(0),
    };
    for dec in &prelude.decs {
        if let Dec::Value(bind) = dec {
            let (signature, _) = sizes.signature(
                &bind.type_params,
                &bind.params,
                bind.return_type.as_ref(),
                true,
            );
            sizes.scope.functions.insert(bind.name.clone(), signature);
        }
    }
    sizes.decs(&program.decs, &mut ModuleSizes::default())
}

fn size_mismatch(span: Span, what: &str, first: u64, second: u64) -> Diagnostic {
    Diagnostic::error(format!(
        "sizes do not match: {what} needs equal sizes, found the constants {first} and {second}"
    ))
    .with_code("TFP18 T-ConstantSizes")
    .with_primary(span, format!("sizes {first} and {second}"))
    .with_note("Futhark rejects arrays of different constant sizes where one size is required (SPEC_NOTES TFP18-19)")
}

/// The file the prelude is parsed as here: only its signatures are read,
/// so no diagnostic points into it.
const PRELUDE_FILE: spec::source::FileId = spec::source::FileId(u32::MAX);

/// The prefix of the names of anonymous parameter sizes (no size can be
/// written so).
const ANONYMOUS: &str = "[]";

fn rigid_size_mismatch(span: Span, what: &str, first: &Dim, second: &Dim) -> Diagnostic {
    let describe = |d: &Dim| match d {
        Dim::Constant(k) => format!("the constant {k}"),
        Dim::Named(n) if n.starts_with(ANONYMOUS) => {
            "an anonymous size [] of a parameter".to_string()
        }
        Dim::Named(n) => format!("the size parameter [{n}]"),
        Dim::Unknown => "an unknown size".to_string(),
    };
    let (first, second) = (describe(first), describe(second));
    Diagnostic::error(format!(
        "sizes do not match: {what} needs equal sizes, found {first} and {second}"
    ))
    .with_code("TFP18 T-ConstantSizes")
    .with_primary(span, format!("{first} and {second}"))
    .with_note("a size parameter (declared, an i64 parameter, or an anonymous size [] of a parameter) is rigid in its function's body: Futhark rejects a constant or another size parameter where it is required (SPEC_NOTES TFP18-20, TFP18-22)")
}

/// The premise of T-ConstantSizes: two sizes that must be equal are not
/// distinct constants, nor a size parameter of the enclosing function (rigid
/// in its body) and a constant or another size parameter.
fn same_size(first: &Dim, second: &Dim, span: Span, what: &str) -> Judgment<()> {
    let mismatch = match (first, second) {
        (Dim::Constant(a), Dim::Constant(b)) => (a != b).then(|| size_mismatch(span, what, *a, *b)),
        (Dim::Named(a), Dim::Named(b)) => {
            (a != b).then(|| rigid_size_mismatch(span, what, first, second))
        }
        (Dim::Named(_), Dim::Constant(_)) | (Dim::Constant(_), Dim::Named(_)) => {
            Some(rigid_size_mismatch(span, what, first, second))
        }
        _ => return Ok(()),
    };
    // Extension: TFP18 T-ConstantSizes
    fire_rule("TFP18 T-ConstantSizes");
    match mismatch {
        Some(diagnostic) => Err(diagnostic),
        None => Ok(()),
    }
}

/// Two shapes that must be equal (a parameter and its argument, an
/// ascription and its expression), checked dimension by dimension.
fn same_shape(expected: &Shape, actual: &Shape, span: Span, what: &str) -> Judgment<()> {
    match (expected, actual) {
        (Shape::Array(d1, e1), Shape::Array(d2, e2)) => {
            same_size(d1, d2, span, what)?;
            same_shape(e1, e2, span, what)
        }
        (Shape::Tuple(a), Shape::Tuple(b)) if a.len() == b.len() => a
            .iter()
            .zip(b)
            .try_for_each(|(x, y)| same_shape(x, y, span, what)),
        (Shape::Record(a), Shape::Record(b)) => {
            a.iter().try_for_each(|(name, x)| match b.get(name) {
                Some(y) => same_shape(x, y, span, what),
                None => Ok(()),
            })
        }
        _ => Ok(()),
    }
}

/// The least shape both branches prove.
fn join(a: &Shape, b: &Shape) -> Shape {
    match (a, b) {
        (Shape::Array(d1, e1), Shape::Array(d2, e2)) => Shape::Array(
            if d1 == d2 { d1.clone() } else { Dim::Unknown },
            Box::new(join(e1, e2)),
        ),
        (Shape::Tuple(x), Shape::Tuple(y)) if x.len() == y.len() => {
            Shape::Tuple(x.iter().zip(y).map(|(p, q)| join(p, q)).collect())
        }
        (Shape::Record(x), Shape::Record(y)) => Shape::Record(
            x.iter()
                .filter_map(|(k, p)| y.get(k).map(|q| (k.clone(), join(p, q))))
                .collect(),
        ),
        _ => Shape::Unknown,
    }
}

fn outer(shape: &Shape) -> (Dim, Shape) {
    match shape {
        Shape::Array(d, e) => (d.clone(), (**e).clone()),
        _ => (Dim::Unknown, Shape::Unknown),
    }
}

/// Named dims bound by `bindings` replaced by their constants; other named
/// dims become unknown.
fn instantiate(shape: &Shape, bindings: &Bindings) -> Shape {
    map_shape(
        shape,
        &|d| match d {
            Dim::Named(n) => bindings.sizes.get(n).cloned().unwrap_or(Dim::Unknown),
            other => other.clone(),
        },
        &|name| bindings.types.get(name).cloned().unwrap_or(Shape::Unknown),
    )
}

/// `shape` with every dim replaced by `dim` and every type parameter by
/// `param`, its structure kept.
fn map_shape(shape: &Shape, dim: &dyn Fn(&Dim) -> Dim, param: &dyn Fn(&str) -> Shape) -> Shape {
    match shape {
        Shape::Array(d, e) => Shape::Array(dim(d), Box::new(map_shape(e, dim, param))),
        Shape::Tuple(xs) => Shape::Tuple(xs.iter().map(|x| map_shape(x, dim, param)).collect()),
        Shape::Record(xs) => Shape::Record(
            xs.iter()
                .map(|(k, x)| (k.clone(), map_shape(x, dim, param)))
                .collect(),
        ),
        Shape::Param(name) => param(name),
        Shape::Unknown => Shape::Unknown,
    }
}

/// Binds the named dims of a parameter's shape to the sizes of its argument,
/// constants or the caller's rigid sizes (the first binding wins; a later
/// conflicting one is a mismatch).
fn bind_sizes(
    param: &Shape,
    argument: &Shape,
    bindings: &mut Bindings,
    span: Span,
) -> Judgment<()> {
    match (param, argument) {
        (Shape::Param(name), argument) => match bindings.types.get(name) {
            Some(bound) => same_shape(
                bound,
                argument,
                span,
                &format!("the type parameter '{name}"),
            ),
            None => {
                bindings.types.insert(name.clone(), argument.clone());
                Ok(())
            }
        },
        (Shape::Array(d, e), Shape::Array(a, f)) => {
            if let (Dim::Named(n), Dim::Constant(_) | Dim::Named(_)) = (d, a) {
                let what = if n.starts_with(ANONYMOUS) {
                    "an anonymous size [] of a parameter".to_string()
                } else {
                    format!("the size parameter [{n}]")
                };
                match bindings.sizes.get(n) {
                    Some(bound) => same_size(bound, a, span, &what)?,
                    None => {
                        bindings.sizes.insert(n.clone(), a.clone());
                    }
                }
            }
            bind_sizes(e, f, bindings, span)
        }
        (Shape::Tuple(xs), Shape::Tuple(ys)) if xs.len() == ys.len() => xs
            .iter()
            .zip(ys)
            .try_for_each(|(x, y)| bind_sizes(x, y, bindings, span)),
        (Shape::Record(xs), Shape::Record(ys)) => {
            xs.iter().try_for_each(|(k, x)| match ys.get(k) {
                Some(y) => bind_sizes(x, y, bindings, span),
                None => Ok(()),
            })
        }
        _ => Ok(()),
    }
}

fn integer_literal(expr: &Expr) -> Option<u64> {
    match expr {
        Expr::Literal {
            literal: ast::Literal::Int { value, .. },
            ..
        } => Some(*value),
        _ => None,
    }
}

/// A chain of applications `f a b c` as its head and arguments.
fn spine(expr: &Expr) -> (&Expr, Vec<&Expr>) {
    let mut arguments = Vec::new();
    let mut head = expr;
    while let Expr::Apply {
        function, argument, ..
    } = head
    {
        arguments.push(&**argument);
        head = function;
    }
    arguments.reverse();
    (head, arguments)
}

impl Sizes {
    fn lookup(&self, name: &str) -> Option<&Local> {
        self.locals
            .iter()
            .rev()
            .find(|(n, local)| n == name || matches!(local, Local::Opaque))
            .map(|(_, s)| s)
    }

    /// The shape of a variable: a local value, or a module-level constant.
    fn value_shape(&self, name: &str) -> Option<Shape> {
        match self.lookup(name) {
            Some(Local::Value(shape)) => Some(shape.clone()),
            Some(Local::Function(_) | Local::Opaque) => Some(Shape::Unknown),
            None => match self.scope.functions.get(name) {
                Some(signature) if signature.params.is_empty() => Some(signature.result.clone()),
                Some(_) => Some(Shape::Unknown),
                None if self.scope.incomplete => Some(Shape::Unknown),
                None => None,
            },
        }
    }

    /// The module a path of qualifiers names (`M.N` of `M.N.f`), if known.
    fn module_at(&self, qualifiers: &[String]) -> Option<Rc<ModuleSizes>> {
        let (first, rest) = qualifiers.split_first()?;
        let mut module = self.scope.modules.get(first)?.structure();
        for name in rest {
            let inner = module.modules.get(name)?.structure();
            module = inner;
        }
        Some(module)
    }

    /// The signature of a qualified function or value `M.f`, if known.
    fn qualified_signature(&self, q: &QualName) -> Option<Signature> {
        self.module_at(&q.qualifiers)?
            .functions
            .get(&q.name)
            .cloned()
    }

    /// The shape a type expression states; `size_params` are the size
    /// parameters in scope (other named sizes are unknown).
    /// The abbreviation `q` names, where its sizes are known.
    fn abbreviation(&self, q: &QualName) -> Option<Abbreviation> {
        let abbreviation = if q.qualifiers.is_empty() {
            self.scope.abbreviations.get(&q.name).cloned()
        } else {
            self.module_at(&q.qualifiers)
                .and_then(|module| module.abbreviations.get(&q.name).cloned())
        };
        abbreviation.flatten()
    }

    /// The dim a size written in a type stands for (an array's size, or a
    /// sized abbreviation's argument).
    fn size_dim(&self, size: &SizeExp, size_params: &[String]) -> Dim {
        match size {
            SizeExp::Constant(k) => Dim::Constant(*k),
            SizeExp::Anonymous if self.anonymous_rigid.get() => {
                // Extension (SPEC_NOTES TFP18-22): a fresh implicit size
                // parameter, as Futhark and the optimising front end read
                // `[]` in a function's parameter.
                let k = self.anonymous_count.get() + 1;
                self.anonymous_count.set(k);
                Dim::Named(format!("{ANONYMOUS}{k}"))
            }
            SizeExp::Named(q) if q.qualifiers.is_empty() && size_params.contains(&q.name) => {
                Dim::Named(q.name.clone())
            }
            _ => Dim::Unknown,
        }
    }

    fn type_shape(&self, ty: &TypeExp, size_params: &[String]) -> Shape {
        self.type_shape_at(ty, size_params, 0)
    }

    fn type_shape_at(&self, ty: &TypeExp, size_params: &[String], depth: usize) -> Shape {
        if depth > 64 {
            return Shape::Unknown;
        }
        match ty {
            TypeExp::Array { size, element, .. } => Shape::Array(
                self.size_dim(size, size_params),
                Box::new(self.type_shape_at(element, size_params, depth + 1)),
            ),
            TypeExp::Tuple { elements, .. } if !elements.is_empty() => Shape::Tuple(
                elements
                    .iter()
                    .map(|e| self.type_shape_at(e, size_params, depth + 1))
                    .collect(),
            ),
            TypeExp::Record { fields, .. } => Shape::Record(
                fields
                    .iter()
                    .map(|(n, t)| (n.clone(), self.type_shape_at(t, size_params, depth + 1)))
                    .collect(),
            ),
            TypeExp::Unique { ty, .. } => self.type_shape_at(ty, size_params, depth + 1),
            TypeExp::Var(q)
                if q.qualifiers.is_empty() && size_params.contains(&format!("'{}", q.name)) =>
            {
                Shape::Param(q.name.clone())
            }
            TypeExp::Var(q) => match self.abbreviation(q) {
                Some(abbreviation) if abbreviation.size_params.is_empty() => abbreviation.shape,
                _ => Shape::Unknown,
            },
            TypeExp::Apply {
                constructor, args, ..
            } => {
                let Some(abbreviation) = self.abbreviation(constructor) else {
                    return Shape::Unknown;
                };
                if abbreviation.size_params.len() != args.len() {
                    return Shape::Unknown;
                }
                let mut sizes = HashMap::new();
                for (param, arg) in abbreviation.size_params.iter().zip(args) {
                    let ast::TypeArg::Size { size, .. } = arg else {
                        return Shape::Unknown;
                    };
                    sizes.insert(param.clone(), self.size_dim(size, size_params));
                }
                map_shape(
                    &abbreviation.shape,
                    &|dim| match dim {
                        Dim::Named(name) => sizes.get(name).cloned().unwrap_or(Dim::Unknown),
                        other => other.clone(),
                    },
                    &|name| Shape::Param(name.to_string()),
                )
            }
            _ => Shape::Unknown,
        }
    }

    /// The signature of a function (a `def`, `entry` or local `let f`:
    /// `implicit`, whose anonymous parameter sizes are implicit size
    /// parameters, or a lambda), as its callers see it and as its body
    /// sees it: in the body, a parameter `n` of type `i64` used as a size
    /// (`(n: i64) (xs: [n]i32)`, `: [n]t`) is rigid too; a caller, which
    /// may pass any expression for it, sees an unknown size.
    fn signature(
        &self,
        type_params: &[TypeParam],
        params: &[Pat],
        return_type: Option<&TypeExp>,
        implicit: bool,
    ) -> (Signature, Signature) {
        // The size parameters by name, the type parameters as `'a` (a name
        // no size has).
        let mut size_params: Vec<String> = type_params
            .iter()
            .map(|p| match p {
                TypeParam::Size { name, .. } => name.clone(),
                TypeParam::Type { name, .. } => format!("'{name}"),
            })
            .collect();
        let mut value_params = Vec::new();
        if implicit {
            for param in params {
                i64_variables(param, &mut value_params);
            }
            size_params.extend(value_params.iter().cloned());
        }
        self.anonymous_rigid.set(implicit);
        let param_shapes = params
            .iter()
            .map(|p| self.pattern_shape(p, &size_params))
            .collect();
        self.anonymous_rigid.set(false);
        let body = Signature {
            params: param_shapes,
            result: return_type
                .map(|t| self.type_shape(t, &size_params))
                .unwrap_or(Shape::Unknown),
        };
        let caller = Signature {
            params: body
                .params
                .iter()
                .map(|p| forget(p, &value_params))
                .collect(),
            result: forget(&body.result, &value_params),
        };
        (caller, body)
    }

    /// The shape a pattern's annotations state.
    fn pattern_shape(&self, pat: &Pat, size_params: &[String]) -> Shape {
        match pat {
            Pat::Ascribe { ty, .. } => self.type_shape(ty, size_params),
            Pat::Tuple { elements, .. } if !elements.is_empty() => Shape::Tuple(
                elements
                    .iter()
                    .map(|p| self.pattern_shape(p, size_params))
                    .collect(),
            ),
            Pat::Record { fields, .. } => Shape::Record(
                fields
                    .iter()
                    .map(|(n, p)| (n.clone(), self.pattern_shape(p, size_params)))
                    .collect(),
            ),
            Pat::Attr { pat, .. } => self.pattern_shape(pat, size_params),
            _ => Shape::Unknown,
        }
    }

    /// Binds a pattern's variables to the parts of `shape` (checking its
    /// annotations against it).
    fn bind(&mut self, pat: &Pat, shape: &Shape) -> Judgment<()> {
        match pat {
            Pat::Var { name, .. } => {
                self.locals
                    .push((name.clone(), Local::Value(shape.clone())));
                Ok(())
            }
            Pat::Ascribe {
                pat: inner,
                ty,
                span,
            } => {
                let stated = self.type_shape(ty, &[]);
                same_shape(&stated, shape, *span, "a pattern's type annotation")?;
                let known = if stated == Shape::Unknown {
                    shape.clone()
                } else {
                    join_prefer(&stated, shape)
                };
                self.bind(inner, &known)
            }
            Pat::Tuple { elements, .. } => {
                for (i, p) in elements.iter().enumerate() {
                    let part = match shape {
                        Shape::Tuple(xs) => xs.get(i).cloned().unwrap_or(Shape::Unknown),
                        _ => Shape::Unknown,
                    };
                    self.bind(p, &part)?;
                }
                Ok(())
            }
            Pat::Record { fields, .. } => {
                for (n, p) in fields {
                    let part = match shape {
                        Shape::Record(xs) => xs.get(n).cloned().unwrap_or(Shape::Unknown),
                        _ => Shape::Unknown,
                    };
                    self.bind(p, &part)?;
                }
                Ok(())
            }
            Pat::Constructor { payload, .. } => {
                for p in payload {
                    self.bind(p, &Shape::Unknown)?;
                }
                Ok(())
            }
            Pat::Attr { pat, .. } => self.bind(pat, shape),
            Pat::Wildcard { .. } | Pat::Literal { .. } => Ok(()),
        }
    }

    fn scoped<T>(&mut self, work: impl FnOnce(&mut Self) -> Judgment<T>) -> Judgment<T> {
        let mark = self.locals.len();
        let result = work(self);
        self.locals.truncate(mark);
        result
    }

    fn value_bind(&mut self, bind: &ast::ValueBind) -> Judgment<Signature> {
        let (signature, body) = self.signature(
            &bind.type_params,
            &bind.params,
            bind.return_type.as_ref(),
            true,
        );
        self.function_body(&body, &bind.params, &bind.body, bind.return_type.is_some())?;
        Ok(signature)
    }

    /// Module-level declarations, in order: each binds its names in the
    /// scope and, unless `local`, in `exports` (what the enclosing
    /// structure binds).
    fn decs(&mut self, decs: &[Dec], exports: &mut ModuleSizes) -> Judgment<()> {
        for dec in decs {
            self.dec(dec, exports)?;
        }
        Ok(())
    }

    fn dec(&mut self, dec: &Dec, exports: &mut ModuleSizes) -> Judgment<()> {
        match dec {
            Dec::Value(bind) => {
                let signature = self.value_bind(bind)?;
                for module in [&mut self.scope, exports] {
                    module
                        .functions
                        .insert(bind.name.clone(), signature.clone());
                }
            }
            Dec::Type(bind) => {
                // Size parameters only (SPEC_NOTES ICFP18-27): the
                // definition's shape with them as named dims.
                let size_params: Option<Vec<String>> = bind
                    .params
                    .iter()
                    .map(|param| match param {
                        TypeParam::Size { name, .. } => Some(name.clone()),
                        TypeParam::Type { .. } => None,
                    })
                    .collect();
                let shape = size_params.map(|size_params| Abbreviation {
                    shape: self.type_shape(&bind.definition, &size_params),
                    size_params,
                });
                for module in [&mut self.scope, exports] {
                    module
                        .abbreviations
                        .insert(bind.name.clone(), shape.clone());
                }
            }
            Dec::Module(bind) => {
                let mut value = self.functor(&bind.params, &bind.body)?;
                if let Some(signature) = &bind.signature {
                    let mut specified = self.module_type(signature);
                    for _ in &bind.params {
                        specified = ModuleValue::Functor(Rc::new(specified));
                    }
                    value = value.restricted_to(&specified);
                }
                for module in [&mut self.scope, exports] {
                    module.modules.insert(bind.name.clone(), value.clone());
                }
            }
            Dec::ModuleType(bind) => {
                let value = self.module_type(&bind.definition);
                for module in [&mut self.scope, exports] {
                    module.module_types.insert(bind.name.clone(), value.clone());
                }
            }
            Dec::Open { module, .. } => {
                let opened = self.module_exp(module)?.structure();
                self.scope.open(&opened);
                exports.open(&opened);
            }
            Dec::Import { .. } => {
                let opened = unknown_structure();
                self.scope.open(&opened);
                exports.open(&opened);
            }
            Dec::Local { dec, .. } => self.dec(dec, &mut ModuleSizes::default())?,
            Dec::Attr { dec, .. } => self.dec(dec, exports)?,
        }
        Ok(())
    }

    /// `module m (p₁: mt₁) … (pₖ: mtₖ) = me`: the body checked once, each
    /// parameter bound to what its module type says (values of unknown
    /// shapes).
    fn functor(&mut self, params: &[ast::ModParam], body: &ModExp) -> Judgment<ModuleValue> {
        let Some((param, rest)) = params.split_first() else {
            return self.module_exp(body);
        };
        let specified = self.module_type(&param.mod_type);
        let saved = self.scope.clone();
        self.scope.modules.insert(param.name.clone(), specified);
        let result = self.functor(rest, body);
        self.scope = saved;
        Ok(ModuleValue::Functor(Rc::new(result?)))
    }

    fn module_exp(&mut self, module: &ModExp) -> Judgment<ModuleValue> {
        Ok(match module {
            ModExp::Var(q) => {
                let mut path = q.qualifiers.clone();
                path.push(q.name.clone());
                match path.split_last() {
                    Some((last, [])) => self.scope.modules.get(last).cloned(),
                    Some((last, outer)) => self
                        .module_at(outer)
                        .and_then(|m| m.modules.get(last).cloned()),
                    None => None,
                }
                .unwrap_or_else(unknown_module)
            }
            ModExp::Struct { decs, .. } => {
                let saved = self.scope.clone();
                let mut exports = ModuleSizes::default();
                let result = self.decs(decs, &mut exports);
                self.scope = saved;
                result?;
                ModuleValue::Structure(Rc::new(exports))
            }
            ModExp::Ascribe {
                module, mod_type, ..
            } => {
                let value = self.module_exp(module)?;
                value.restricted_to(&self.module_type(mod_type))
            }
            ModExp::Lambda {
                param,
                result,
                body,
                ..
            } => {
                let value = self.functor(std::slice::from_ref(&**param), body)?;
                match result {
                    Some(result) => value
                        .restricted_to(&ModuleValue::Functor(Rc::new(self.module_type(result)))),
                    None => value,
                }
            }
            ModExp::Apply {
                functor, argument, ..
            } => {
                let functor = self.module_exp(functor)?;
                self.module_exp(argument)?;
                match functor {
                    ModuleValue::Functor(body) => (*body).clone(),
                    ModuleValue::Structure(_) => unknown_module(),
                }
            }
            ModExp::Import { .. } => unknown_module(),
        })
    }

    /// What a module type says of a module that matches it: the names it
    /// specifies, every value of unknown shape, every type unknown.
    fn module_type(&self, mod_type: &ModTypeExp) -> ModuleValue {
        match mod_type {
            ModTypeExp::Var(q) => if q.qualifiers.is_empty() {
                self.scope.module_types.get(&q.name).cloned()
            } else {
                self.module_at(&q.qualifiers)
                    .and_then(|m| m.module_types.get(&q.name).cloned())
            }
            .unwrap_or_else(unknown_module),
            ModTypeExp::Signature { specs, .. } => {
                let mut specified = ModuleSizes::default();
                for spec in specs {
                    match spec {
                        Spec::Val { name, .. } => {
                            specified
                                .functions
                                .insert(name.clone(), unknown_signature());
                        }
                        Spec::Type { name, .. } => {
                            specified.abbreviations.insert(name.clone(), None);
                        }
                        Spec::Module { name, mod_type, .. } => {
                            specified
                                .modules
                                .insert(name.clone(), self.module_type(mod_type));
                        }
                        Spec::Include { mod_type, .. } => {
                            specified.open(&self.module_type(mod_type).structure());
                        }
                    }
                }
                ModuleValue::Structure(Rc::new(specified))
            }
            ModTypeExp::With { mod_type, .. } => self.module_type(mod_type),
            ModTypeExp::Arrow { to, .. } => ModuleValue::Functor(Rc::new(self.module_type(to))),
        }
    }

    fn function_body(
        &mut self,
        signature: &Signature,
        params: &[Pat],
        body: &Expr,
        annotated: bool,
    ) -> Judgment<Shape> {
        self.scoped(|sizes| {
            for (pat, shape) in params.iter().zip(&signature.params) {
                sizes.bind(pat, shape)?;
            }
            let shape = sizes.expr(body)?;
            if annotated {
                same_shape(
                    &signature.result,
                    &shape,
                    body.span(),
                    "the declared result type",
                )?;
            }
            Ok(shape)
        })
    }

    fn var(&self, q: &QualName) -> Shape {
        let Some(first) = q.qualifiers.first() else {
            return self.value_shape(&q.name).unwrap_or(Shape::Unknown);
        };
        if self.lookup(first).is_none() && self.scope.modules.contains_key(first) {
            // `M.x`: a module's value.
            return match self.qualified_signature(q) {
                Some(signature) if signature.params.is_empty() => signature.result,
                _ => Shape::Unknown,
            };
        }
        let Some(mut shape) = self.value_shape(first) else {
            return Shape::Unknown;
        };
        for field in q.qualifiers[1..].iter().chain(std::iter::once(&q.name)) {
            shape = project(&shape, field);
        }
        shape
    }

    /// The shape of `a[indices]` where `a` has shape `shape` (a slice's
    /// dimensions are unknown), checking the index expressions.
    fn indexed(&mut self, shape: &Shape, indices: &[DimIndex]) -> Judgment<Shape> {
        let mut shape = shape.clone();
        let mut sliced = 0;
        for index in indices {
            match index {
                DimIndex::Index(i) => {
                    self.expr(i)?;
                    shape = outer(&shape).1;
                }
                DimIndex::Slice { start, end, stride } => {
                    for part in [start, end, stride].into_iter().flatten() {
                        self.expr(part)?;
                    }
                    sliced += 1;
                    shape = outer(&shape).1;
                }
            }
        }
        for _ in 0..sliced {
            shape = Shape::Array(Dim::Unknown, Box::new(shape));
        }
        Ok(shape)
    }

    /// `a with [indices] = value` (and `let a[indices] = value`) where `a`
    /// has shape `shape`: the value must have the shape of the part it
    /// replaces.
    fn update(
        &mut self,
        shape: &Shape,
        indices: &[DimIndex],
        value: &Expr,
        span: Span,
    ) -> Judgment<()> {
        let replaced = self.indexed(shape, indices)?;
        let given = self.expr(value)?;
        same_shape(&replaced, &given, span, "a `with` update")
    }

    /// The shape an expression proves, checking every place inside it where
    /// two sizes must be equal.
    fn expr(&mut self, expr: &Expr) -> Judgment<Shape> {
        spec::recursion::with_stack(|| self.expr_inner(expr))
    }

    fn expr_inner(&mut self, expr: &Expr) -> Judgment<Shape> {
        match expr {
            Expr::Literal { .. } => Ok(Shape::Unknown),
            Expr::Var(q) => Ok(self.var(q)),
            Expr::Project { expr, field, .. } => Ok(project(&self.expr(expr)?, field)),
            Expr::Tuple { elements, .. } => {
                if elements.is_empty() {
                    return Ok(Shape::Unknown);
                }
                let mut shapes = Vec::new();
                for e in elements {
                    shapes.push(self.expr(e)?);
                }
                Ok(Shape::Tuple(shapes))
            }
            Expr::Record { fields, .. } => {
                let mut shapes = BTreeMap::new();
                for (n, e) in fields {
                    shapes.insert(n.clone(), self.expr(e)?);
                }
                Ok(Shape::Record(shapes))
            }
            Expr::Array { elements, .. } => {
                let mut element: Option<Shape> = None;
                for e in elements {
                    let shape = self.expr(e)?;
                    if let Some(previous) = &element {
                        same_shape(previous, &shape, e.span(), "an array literal")?;
                    }
                    element = Some(match element {
                        None => shape,
                        Some(previous) => join(&previous, &shape),
                    });
                }
                Ok(Shape::Array(
                    Dim::Constant(elements.len() as u64),
                    Box::new(element.unwrap_or(Shape::Unknown)),
                ))
            }
            Expr::Range {
                start, step, end, ..
            } => {
                self.expr(start)?;
                if let Some(step) = step {
                    self.expr(step)?;
                }
                self.expr(end)?;
                Ok(Shape::Array(Dim::Unknown, Box::new(Shape::Unknown)))
            }
            Expr::Index { array, indices, .. } => {
                let shape = self.expr(array)?;
                self.indexed(&shape, indices)
            }
            Expr::Apply { span, .. } => {
                let (head, arguments) = spine(expr);
                self.application(head, &arguments, *span)
            }
            Expr::BinOp { op, lhs, rhs, span } => {
                let name = match op {
                    BinOp::Symbol(q) | BinOp::Backtick(q) => q,
                };
                match op {
                    BinOp::Symbol(q) if q.qualifiers.is_empty() && q.name == "|>" => {
                        let (head, mut arguments) = spine(rhs);
                        arguments.push(lhs);
                        self.application(head, &arguments, *span)
                    }
                    BinOp::Symbol(q) if q.qualifiers.is_empty() && q.name == "<|" => {
                        let (head, mut arguments) = spine(lhs);
                        arguments.push(rhs);
                        self.application(head, &arguments, *span)
                    }
                    BinOp::Backtick(_) => {
                        let head = Expr::Var(name.clone());
                        self.application(&head, &[lhs, rhs], *span)
                    }
                    BinOp::Symbol(q) if q.qualifiers.is_empty() && q.name == "++" => {
                        let a = self.expr(lhs)?;
                        let b = self.expr(rhs)?;
                        Ok(Shape::Array(
                            Dim::Unknown,
                            Box::new(join(&outer(&a).1, &outer(&b).1)),
                        ))
                    }
                    BinOp::Symbol(_) => {
                        self.expr(lhs)?;
                        self.expr(rhs)?;
                        Ok(Shape::Unknown)
                    }
                }
            }
            Expr::Negate { expr, .. } | Expr::Not { expr, .. } => {
                self.expr(expr)?;
                Ok(Shape::Unknown)
            }
            Expr::OpSection { .. } | Expr::ProjectSection { .. } => Ok(Shape::Unknown),
            Expr::LeftSection { left: e, .. } | Expr::RightSection { right: e, .. } => {
                self.expr(e)?;
                Ok(Shape::Unknown)
            }
            Expr::IndexSection { indices, .. } => {
                for index in indices {
                    match index {
                        DimIndex::Index(i) => {
                            self.expr(i)?;
                        }
                        DimIndex::Slice { start, end, stride } => {
                            for part in [start, end, stride].into_iter().flatten() {
                                self.expr(part)?;
                            }
                        }
                    }
                }
                Ok(Shape::Unknown)
            }
            Expr::If {
                condition,
                then_branch,
                else_branch,
                ..
            } => {
                self.expr(condition)?;
                let a = self.expr(then_branch)?;
                let b = self.expr(else_branch)?;
                Ok(join(&a, &b))
            }
            Expr::Let {
                sizes: _,
                pat,
                value,
                body,
                ..
            } => {
                let shape = self.expr(value)?;
                self.scoped(|s| {
                    s.bind(pat, &shape)?;
                    s.expr(body)
                })
            }
            Expr::LetFun {
                name,
                type_params,
                params,
                return_type,
                value,
                body,
                ..
            } => {
                let (signature, body_signature) =
                    self.signature(type_params, params, return_type.as_ref(), true);
                self.function_body(&body_signature, params, value, return_type.is_some())?;
                self.scoped(|s| {
                    s.locals.push((name.clone(), Local::Function(signature)));
                    s.expr(body)
                })
            }
            Expr::LetWith {
                name,
                indices,
                value,
                body,
                span,
                ..
            } => {
                let shape = self.value_shape(name).unwrap_or(Shape::Unknown);
                self.update(&shape, indices, value, *span)?;
                self.expr(body)
            }
            Expr::Lambda {
                params,
                return_type,
                body,
                ..
            } => {
                // Not applied here: its parameters' shapes are those they
                // state.
                let (_, signature) = self.signature(&[], params, return_type.as_ref(), false);
                self.lambda_applied(params, return_type.as_ref(), body, &signature.params)?;
                Ok(Shape::Unknown)
            }
            Expr::Loop {
                pat,
                init,
                form,
                body,
                ..
            } => {
                let initial = match init {
                    Some(init) => self.expr(init)?,
                    None => Shape::Unknown,
                };
                let stated = self.pattern_shape(pat, &[]);
                same_shape(
                    &stated,
                    &initial,
                    expr.span(),
                    "a loop parameter's initial value",
                )?;
                let parameter = if stated == Shape::Unknown {
                    Shape::Unknown
                } else {
                    stated.clone()
                };
                self.scoped(|s| {
                    s.bind(pat, &parameter)?;
                    match form {
                        LoopForm::For { var, bound, .. } => {
                            s.expr(bound)?;
                            s.locals.push((var.clone(), Local::Value(Shape::Unknown)));
                        }
                        LoopForm::ForIn { pat, array } => {
                            let elements = s.expr(array)?;
                            s.bind(pat, &outer(&elements).1)?;
                        }
                        LoopForm::While { condition } => {
                            s.expr(condition)?;
                        }
                    }
                    let result = s.expr(body)?;
                    same_shape(&stated, &result, body.span(), "a loop body's result")?;
                    Ok(())
                })?;
                Ok(stated)
            }
            Expr::Update {
                target,
                indices,
                value,
                span,
            } => {
                let shape = self.expr(target)?;
                self.update(&shape, indices, value, *span)?;
                Ok(shape)
            }
            Expr::RecordUpdate { target, value, .. } => {
                let shape = self.expr(target)?;
                self.expr(value)?;
                Ok(shape)
            }
            Expr::Ascribe { expr, ty, span } => {
                let shape = self.expr(expr)?;
                let stated = self.type_shape(ty, &[]);
                same_shape(&stated, &shape, *span, "a type ascription")?;
                Ok(join_prefer(&stated, &shape))
            }
            Expr::Coerce { expr, ty, .. } => {
                self.expr(expr)?;
                Ok(self.type_shape(ty, &[]))
            }
            Expr::Match {
                scrutinee, cases, ..
            } => {
                let shape = self.expr(scrutinee)?;
                let mut result: Option<Shape> = None;
                for case in cases {
                    let body = self.scoped(|s| {
                        s.bind(&case.pat, &shape)?;
                        s.expr(&case.body)
                    })?;
                    result = Some(match result {
                        None => body,
                        Some(previous) => join(&previous, &body),
                    });
                }
                Ok(result.unwrap_or(Shape::Unknown))
            }
            Expr::Constructor { payload, .. } => {
                for e in payload {
                    self.expr(e)?;
                }
                Ok(Shape::Unknown)
            }
            Expr::OpenIn { module, body, .. } => {
                // `M.(e)`: M's names shadow every other name in e.
                let opened = self.module_exp(&ModExp::Var(module.clone()))?.structure();
                let saved = self.scope.clone();
                self.scope.open(&opened);
                let result = self.scoped(|s| {
                    if opened.incomplete {
                        s.locals.push((String::new(), Local::Opaque));
                    }
                    for (name, signature) in &opened.functions {
                        s.locals
                            .push((name.clone(), Local::Function(signature.clone())));
                    }
                    s.expr(body)
                });
                self.scope = saved;
                result
            }
            Expr::Attr { expr, .. } => self.expr(expr),
        }
    }

    /// What the head of an application names: one of the program's
    /// functions with the signature its definition states, a library
    /// function (by name, ruled below), or something whose result shape is
    /// unknown (a local value, a name an opened module may bind, a
    /// lambda, any other expression; checked here).
    fn callee<'e>(&mut self, head: &'e Expr) -> Judgment<Callee<'e>> {
        Ok(match head {
            Expr::Var(q) if q.qualifiers.is_empty() => {
                let name = q.name.as_str();
                let signature = match self.lookup(name) {
                    Some(Local::Value(_) | Local::Opaque) => return Ok(Callee::Unknown),
                    Some(Local::Function(signature)) => Some(signature.clone()),
                    None => self.scope.functions.get(name).cloned(),
                };
                match signature {
                    Some(signature) => Callee::Defined(name, signature),
                    // A name an opened module may bind: not the library's.
                    None if self.scope.incomplete => Callee::Unknown,
                    None => Callee::Library(name),
                }
            }
            Expr::Var(q) if self.lookup(&q.qualifiers[0]).is_none() => {
                // `M.f`: a module's function, by the signature its
                // definition states.
                match self.qualified_signature(q) {
                    Some(signature) => Callee::Defined(q.name.as_str(), signature),
                    None => Callee::Unknown,
                }
            }
            Expr::Var(_) => Callee::Unknown,
            other => {
                self.expr(other)?;
                Callee::Unknown
            }
        })
    }

    /// The result of a function of the program applied to arguments of
    /// the given shapes: its size parameters bound to the arguments'
    /// sizes, each argument's shape checked against its parameter's.
    fn defined_applied(
        &self,
        name: &str,
        signature: &Signature,
        shapes: &[Shape],
        span: Span,
    ) -> Judgment<Shape> {
        let mut bindings = Bindings::default();
        for (param, argument) in signature.params.iter().zip(shapes) {
            bind_sizes(param, argument, &mut bindings, span)?;
            same_shape(
                &instantiate(param, &Bindings::default()),
                argument,
                span,
                &format!("an argument of `{name}`"),
            )?;
        }
        if shapes.len() < signature.params.len() {
            return Ok(Shape::Unknown);
        }
        Ok(instantiate(&signature.result, &bindings))
    }

    /// The result of the function a SOAC is given (`map f xs`'s `f`)
    /// applied to the rows of its arrays, of shapes `rows`: a lambda's
    /// body with its parameters bound to the rows (its annotations checked
    /// against them), or a function of the program by its signature.
    fn function_applied(&mut self, function: &Expr, rows: &[Shape], span: Span) -> Judgment<Shape> {
        match function {
            Expr::Lambda {
                params,
                return_type,
                body,
                ..
            } if params.len() == rows.len() => {
                self.lambda_applied(params, return_type.as_ref(), body, rows)
            }
            Expr::Var(_) => match self.callee(function)? {
                Callee::Defined(name, signature) if signature.params.len() == rows.len() => {
                    self.defined_applied(name, &signature, rows, span)
                }
                _ => Ok(Shape::Unknown),
            },
            other => {
                self.expr(other)?;
                Ok(Shape::Unknown)
            }
        }
    }

    /// `(\p₁ … pₖ -> body) a₁ … aₖ` with arguments of shapes `arguments`:
    /// the body's shape with each parameter bound to its argument's shape
    /// (its annotation checked against it), the stated result preferred.
    fn lambda_applied(
        &mut self,
        params: &[Pat],
        return_type: Option<&TypeExp>,
        body: &Expr,
        arguments: &[Shape],
    ) -> Judgment<Shape> {
        let applied = Signature {
            params: arguments.to_vec(),
            result: return_type
                .map(|t| self.type_shape(t, &[]))
                .unwrap_or(Shape::Unknown),
        };
        let shape = self.function_body(&applied, params, body, return_type.is_some())?;
        Ok(join_prefer(&applied.result, &shape))
    }

    /// `head a₁ … aₖ`: a library function that needs equal sizes, or one of
    /// the program's functions whose signature states sizes. A SOAC's
    /// function is checked as applied to the rows of its arrays (its result
    /// is the shape of the SOAC's rows), after the arrays.
    fn application(&mut self, head: &Expr, arguments: &[&Expr], span: Span) -> Judgment<Shape> {
        let callee = self.callee(head)?;
        let maps_rows = match callee {
            Callee::Library(name) => maps_rows(name, arguments.len()),
            _ => false,
        };
        let mut shapes = Vec::new();
        for (i, a) in arguments.iter().enumerate() {
            shapes.push(if maps_rows && i == 0 {
                Shape::Unknown
            } else {
                self.expr(a)?
            });
        }
        let name = match callee {
            Callee::Unknown => return Ok(Shape::Unknown),
            Callee::Defined(name, signature) => {
                return self.defined_applied(name, &signature, &shapes, span)
            }
            Callee::Library(name) => name,
        };
        let function_result = if maps_rows {
            let rows: Vec<Shape> = shapes[1..].iter().map(|s| outer(s).1).collect();
            self.function_applied(arguments[0], &rows, span)?
        } else {
            Shape::Unknown
        };
        let element = |i: usize| shapes.get(i).map(|s| outer(s).1).unwrap_or(Shape::Unknown);
        let dim = |i: usize| shapes.get(i).map(|s| outer(s).0).unwrap_or(Dim::Unknown);
        let equal_sizes = |arrays: &[usize]| -> Judgment<Dim> {
            let mut known = Dim::Unknown;
            for &i in arrays {
                let d = dim(i);
                same_size(&known, &d, span, &format!("`{name}`"))?;
                if d != Dim::Unknown {
                    known = d;
                }
            }
            Ok(known)
        };
        Ok(match (name, shapes.len()) {
            ("map" | "map1", 2) => Shape::Array(dim(1), Box::new(function_result.clone())),
            ("map2", 3) => Shape::Array(equal_sizes(&[1, 2])?, Box::new(function_result.clone())),
            ("map3", 4) => {
                Shape::Array(equal_sizes(&[1, 2, 3])?, Box::new(function_result.clone()))
            }
            ("map4", 5) => Shape::Array(
                equal_sizes(&[1, 2, 3, 4])?,
                Box::new(function_result.clone()),
            ),
            ("map5", 6) => Shape::Array(
                equal_sizes(&[1, 2, 3, 4, 5])?,
                Box::new(function_result.clone()),
            ),
            ("zip", 2) | ("zip3", 3) | ("zip4", 4) | ("zip5", 5) => Shape::Array(
                equal_sizes(&(0..shapes.len()).collect::<Vec<_>>())?,
                Box::new(Shape::Tuple((0..shapes.len()).map(element).collect())),
            ),
            ("scan", 3) => Shape::Array(dim(2), Box::new(shapes[1].clone())),
            ("reduce", 3) => shapes[1].clone(),
            ("reverse", 1) => shapes[0].clone(),
            // The prelude's `copy 't (x: t) : *t`.
            ("copy", 1) => shapes[0].clone(),
            // `assert c e` is `e` (SPEC_NOTES TFP18-26).
            (ast::ASSERT, 2) => shapes[1].clone(),
            ("replicate", 2) => Shape::Array(
                integer_literal(arguments[0])
                    .map(Dim::Constant)
                    .unwrap_or(Dim::Unknown),
                Box::new(shapes[1].clone()),
            ),
            ("iota", 1) => Shape::Array(
                integer_literal(arguments[0])
                    .map(Dim::Constant)
                    .unwrap_or(Dim::Unknown),
                Box::new(Shape::Unknown),
            ),
            ("transpose", 1) => {
                let (n, inner) = outer(&shapes[0]);
                let (m, element) = outer(&inner);
                Shape::Array(m, Box::new(Shape::Array(n, Box::new(element))))
            }
            // The indices and the values have one size `[n]`.
            ("scatter", 3) => {
                equal_sizes(&[1, 2])?;
                shapes[0].clone()
            }
            ("reduce_by_index", 5) => {
                equal_sizes(&[3, 4])?;
                shapes[0].clone()
            }
            ("filter", 2) => Shape::Array(Dim::Unknown, Box::new(element(1))),
            ("concat", 2) => Shape::Array(Dim::Unknown, Box::new(join(&element(0), &element(1)))),
            _ => Shape::Unknown,
        })
    }
}

/// The variables a parameter pattern binds with the annotation `i64` (the
/// ones a type may use as a size).
fn i64_variables(pat: &Pat, out: &mut Vec<String>) {
    match pat {
        Pat::Ascribe { pat, ty, .. } => match (&**pat, ty) {
            (Pat::Var { name, .. }, TypeExp::Var(q))
                if q.qualifiers.is_empty() && q.name == "i64" =>
            {
                out.push(name.clone())
            }
            (inner, _) => i64_variables(inner, out),
        },
        Pat::Tuple { elements, .. } => elements.iter().for_each(|p| i64_variables(p, out)),
        Pat::Record { fields, .. } => fields.iter().for_each(|(_, p)| i64_variables(p, out)),
        Pat::Attr { pat, .. } => i64_variables(pat, out),
        _ => {}
    }
}

/// `shape` with the sizes named by `names` unknown.
fn forget(shape: &Shape, names: &[String]) -> Shape {
    map_shape(
        shape,
        &|d| match d {
            Dim::Named(n) if names.contains(n) => Dim::Unknown,
            other => other.clone(),
        },
        &|name| Shape::Param(name.to_string()),
    )
}

/// The stated shape where it knows a size, the inferred one elsewhere.
fn join_prefer(stated: &Shape, inferred: &Shape) -> Shape {
    match (stated, inferred) {
        (Shape::Unknown, other) => other.clone(),
        (Shape::Array(d, e), Shape::Array(d2, e2)) => Shape::Array(
            if *d == Dim::Unknown {
                d2.clone()
            } else {
                d.clone()
            },
            Box::new(join_prefer(e, e2)),
        ),
        (Shape::Tuple(xs), Shape::Tuple(ys)) if xs.len() == ys.len() => {
            Shape::Tuple(xs.iter().zip(ys).map(|(x, y)| join_prefer(x, y)).collect())
        }
        (stated, _) => stated.clone(),
    }
}

fn project(shape: &Shape, field: &str) -> Shape {
    match shape {
        Shape::Tuple(xs) => field
            .parse::<usize>()
            .ok()
            .and_then(|i| xs.get(i).cloned())
            .unwrap_or(Shape::Unknown),
        Shape::Record(xs) => xs.get(field).cloned().unwrap_or(Shape::Unknown),
        _ => Shape::Unknown,
    }
}

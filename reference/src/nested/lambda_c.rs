//! λC abstract syntax (Fig. 5.3), the language of explicit closures. It is
//! *mononomic*: the only variable is `•`, the parameter of the innermost `λ•`
//! or `μ•`; a closure `⟨⟨e1, τ1, τ2, τ3, e2⟩⟩` pairs closed code `e1 : τ1 × τ2 → τ3`
//! with an environment `e2 : τ1`, and `e1 † e2` applies it.
//!
//! Terms are immutable and shared (`Rc`): substitution keeps the sharing of the
//! substituted term (a DAG), which the call-by-need evaluator (`machine.rs`)
//! exploits. Annotations `u^τ` are optional; `typing_c::annotate` fills them,
//! and flattening (Fig. 5.8) reads them.

use super::constants::Const;
use super::types::Type;
use std::collections::HashMap;
use std::fmt;
use std::rc::Rc;

/// `e ::= u^τ`.
#[derive(Clone, Debug)]
pub struct ExprC(pub Rc<NodeC>);

#[derive(Debug)]
pub struct NodeC {
    pub term: TermC,
    pub annotation: Option<Type>,
}

/// `u`.
#[derive(Clone, Debug)]
pub enum TermC {
    Int(i64),
    Bool(bool),
    Unit,
    Const(Const),
    /// `•`.
    Bullet,
    Tuple(ExprC, ExprC),
    Proj(ExprC, u8),
    App(ExprC, ExprC),
    /// `λ•:τ. e`.
    Lam(Type, ExprC),
    /// `⟨⟨e1, τ1, τ2, τ3, e2⟩⟩`.
    Closure(ExprC, Type, Type, Type, ExprC),
    /// `e1 † e2`.
    CloApp(ExprC, ExprC),
    /// `μ•:τ. e`.
    Mu(Type, ExprC),
}

impl ExprC {
    pub fn new(term: TermC) -> ExprC {
        ExprC(Rc::new(NodeC {
            term,
            annotation: None,
        }))
    }

    pub fn with_annotation(term: TermC, annotation: Option<Type>) -> ExprC {
        ExprC(Rc::new(NodeC { term, annotation }))
    }

    pub fn term(&self) -> &TermC {
        &self.0.term
    }

    pub fn annotation(&self) -> Option<&Type> {
        self.0.annotation.as_ref()
    }

    /// The annotation that `typing_c::annotate` put on every node.
    pub fn ty(&self) -> &Type {
        self.0
            .annotation
            .as_ref()
            .expect("λC term annotated by typing_c::annotate")
    }

    pub fn int(i: i64) -> ExprC {
        ExprC::new(TermC::Int(i))
    }
    pub fn boolean(b: bool) -> ExprC {
        ExprC::new(TermC::Bool(b))
    }
    pub fn unit() -> ExprC {
        ExprC::new(TermC::Unit)
    }
    pub fn bullet() -> ExprC {
        ExprC::new(TermC::Bullet)
    }
    pub fn constant(c: Const) -> ExprC {
        ExprC::new(TermC::Const(c))
    }
    pub fn tuple(a: ExprC, b: ExprC) -> ExprC {
        ExprC::new(TermC::Tuple(a, b))
    }
    pub fn proj(e: ExprC, i: u8) -> ExprC {
        ExprC::new(TermC::Proj(e, i))
    }
    pub fn app(a: ExprC, b: ExprC) -> ExprC {
        ExprC::new(TermC::App(a, b))
    }
    pub fn lam(ty: Type, body: ExprC) -> ExprC {
        ExprC::new(TermC::Lam(ty, body))
    }
    pub fn clo_app(a: ExprC, b: ExprC) -> ExprC {
        ExprC::new(TermC::CloApp(a, b))
    }

    /// Pointer identity (the call-by-need memo key).
    pub fn id(&self) -> usize {
        Rc::as_ptr(&self.0) as usize
    }

    /// The immediate subterms, in the order congruence paths number them.
    pub fn children(&self) -> Vec<ExprC> {
        match self.term() {
            TermC::Int(_) | TermC::Bool(_) | TermC::Unit | TermC::Const(_) | TermC::Bullet => {
                Vec::new()
            }
            TermC::Tuple(a, b) | TermC::App(a, b) | TermC::CloApp(a, b) => {
                vec![a.clone(), b.clone()]
            }
            TermC::Closure(a, _, _, _, b) => vec![a.clone(), b.clone()],
            TermC::Proj(e, _) | TermC::Lam(_, e) | TermC::Mu(_, e) => vec![e.clone()],
        }
    }

    /// The same node with child `index` replaced (annotation kept).
    pub fn with_child(&self, index: usize, child: ExprC) -> ExprC {
        let term = match (self.term(), index) {
            (TermC::Tuple(_, b), 0) => TermC::Tuple(child, b.clone()),
            (TermC::Tuple(a, _), 1) => TermC::Tuple(a.clone(), child),
            (TermC::App(_, b), 0) => TermC::App(child, b.clone()),
            (TermC::App(a, _), 1) => TermC::App(a.clone(), child),
            (TermC::CloApp(_, b), 0) => TermC::CloApp(child, b.clone()),
            (TermC::CloApp(a, _), 1) => TermC::CloApp(a.clone(), child),
            (TermC::Closure(_, t1, t2, t3, b), 0) => {
                TermC::Closure(child, t1.clone(), t2.clone(), t3.clone(), b.clone())
            }
            (TermC::Closure(a, t1, t2, t3, _), 1) => {
                TermC::Closure(a.clone(), t1.clone(), t2.clone(), t3.clone(), child)
            }
            (TermC::Proj(_, i), 0) => TermC::Proj(child, *i),
            (TermC::Lam(t, _), 0) => TermC::Lam(t.clone(), child),
            (TermC::Mu(t, _), 0) => TermC::Mu(t.clone(), child),
            _ => return self.clone(),
        };
        ExprC::with_annotation(term, self.0.annotation.clone())
    }

    /// The subterm at a congruence path.
    pub fn at_path(&self, path: &[usize]) -> Option<ExprC> {
        let mut current = self.clone();
        for &index in path {
            current = current.children().get(index)?.clone();
        }
        Some(current)
    }

    /// `self` with the subterm at `path` replaced.
    pub fn replace_at(&self, path: &[usize], replacement: ExprC) -> ExprC {
        match path.split_first() {
            None => replacement,
            Some((&index, rest)) => match self.children().get(index) {
                Some(child) => self.with_child(index, child.replace_at(rest, replacement)),
                None => self.clone(),
            },
        }
    }

    /// `e1[e2/•]` (§6.5): substitution never enters `λ•` or `μ•`, since their
    /// bodies bind their own `•`; it is capture-free by construction. Shared
    /// subterms stay shared.
    pub fn substitute(&self, replacement: &ExprC) -> ExprC {
        let mut memo = HashMap::new();
        self.substitute_memo(replacement, &mut memo)
            .unwrap_or_else(|| self.clone())
    }

    fn substitute_memo(
        &self,
        replacement: &ExprC,
        memo: &mut HashMap<usize, Option<ExprC>>,
    ) -> Option<ExprC> {
        if let Some(done) = memo.get(&self.id()) {
            return done.clone();
        }
        let result = match self.term() {
            TermC::Bullet => Some(replacement.clone()),
            TermC::Int(_)
            | TermC::Bool(_)
            | TermC::Unit
            | TermC::Const(_)
            | TermC::Lam(..)
            | TermC::Mu(..) => None,
            _ => {
                let mut rebuilt: Option<ExprC> = None;
                for (index, child) in self.children().iter().enumerate() {
                    if let Some(new_child) = child.substitute_memo(replacement, memo) {
                        let base = rebuilt.take().unwrap_or_else(|| self.clone());
                        rebuilt = Some(base.with_child(index, new_child));
                    }
                }
                rebuilt
            }
        };
        memo.insert(self.id(), result.clone());
        result
    }

    /// Every `λ•:τ.e` subterm (for the immutability check, Thm. 6.8), by identity
    /// of their printed form.
    pub fn lambdas(&self, into: &mut Vec<String>) {
        if let TermC::Lam(..) = self.term() {
            into.push(self.to_string());
        }
        for child in self.children() {
            child.lambdas(into);
        }
    }

    pub fn size(&self) -> usize {
        1 + self.children().iter().map(ExprC::size).sum::<usize>()
    }

    /// Whether the constant family `prim` occurs in the term.
    pub fn mentions(&self, prim: super::constants::Prim) -> bool {
        match self.term() {
            TermC::Const(c) => c.prim == prim,
            _ => self.children().iter().any(|child| child.mentions(prim)),
        }
    }
}

/// Structural equality (annotations ignored).
impl PartialEq for ExprC {
    fn eq(&self, other: &ExprC) -> bool {
        if Rc::ptr_eq(&self.0, &other.0) {
            return true;
        }
        match (self.term(), other.term()) {
            (TermC::Int(a), TermC::Int(b)) => a == b,
            (TermC::Bool(a), TermC::Bool(b)) => a == b,
            (TermC::Unit, TermC::Unit) | (TermC::Bullet, TermC::Bullet) => true,
            (TermC::Const(a), TermC::Const(b)) => a == b,
            (TermC::Tuple(a1, a2), TermC::Tuple(b1, b2))
            | (TermC::App(a1, a2), TermC::App(b1, b2))
            | (TermC::CloApp(a1, a2), TermC::CloApp(b1, b2)) => a1 == b1 && a2 == b2,
            (TermC::Proj(a, i), TermC::Proj(b, j)) => i == j && a == b,
            (TermC::Lam(s, a), TermC::Lam(t, b)) | (TermC::Mu(s, a), TermC::Mu(t, b)) => {
                s == t && a == b
            }
            (TermC::Closure(a1, s1, s2, s3, a2), TermC::Closure(b1, t1, t2, t3, b2)) => {
                s1 == t1 && s2 == t2 && s3 == t3 && a1 == b1 && a2 == b2
            }
            _ => false,
        }
    }
}

/// λC concrete syntax: `#` is `•`, `\# : t -> e`, `mu # : t -> e`,
/// `<<code, t1, t2, t3, env>>`, `f $ x` is `f † x`.
impl fmt::Display for ExprC {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_c(f, self, 0)
    }
}

fn write_c(f: &mut fmt::Formatter<'_>, e: &ExprC, context: u8) -> fmt::Result {
    match e.term() {
        TermC::Int(i) if *i < 0 && context > 0 => write!(f, "({i})"),
        TermC::Int(i) => write!(f, "{i}"),
        TermC::Bool(b) => write!(f, "{b}"),
        TermC::Unit => write!(f, "()"),
        TermC::Const(c) => write!(f, "{c}"),
        TermC::Bullet => write!(f, "#"),
        TermC::Tuple(a, b) => {
            write!(f, "(")?;
            write_c(f, a, 0)?;
            write!(f, ", ")?;
            write_c(f, b, 0)?;
            write!(f, ")")
        }
        TermC::Proj(inner, i) => {
            write_c(f, inner, 3)?;
            write!(f, ".{i}")
        }
        TermC::App(a, b) => {
            if context > 1 {
                write!(f, "(")?;
            }
            write_c(f, a, 1)?;
            write!(f, " ")?;
            write_c(f, b, 2)?;
            if context > 1 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermC::CloApp(a, b) => {
            write!(f, "(")?;
            write_c(f, a, 2)?;
            write!(f, " $ ")?;
            write_c(f, b, 2)?;
            write!(f, ")")
        }
        TermC::Lam(ty, body) | TermC::Mu(ty, body) => {
            let keyword = if matches!(e.term(), TermC::Lam(..)) {
                "\\"
            } else {
                "mu "
            };
            if context > 0 {
                write!(f, "(")?;
            }
            write!(f, "{keyword}(# : {ty}) -> ")?;
            write_c(f, body, 0)?;
            if context > 0 {
                write!(f, ")")?;
            }
            Ok(())
        }
        TermC::Closure(code, t1, t2, t3, env) => {
            write!(f, "<<")?;
            write_c(f, code, 0)?;
            write!(f, ", {t1}, {t2}, {t3}, ")?;
            write_c(f, env, 0)?;
            write!(f, " >>")
        }
    }
}

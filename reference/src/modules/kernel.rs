//! The kernel module language of ICFP'18 Fig. 1 (module types, specifications,
//! module expressions, module declarations), the syntax the rules of Figs. 7, 8
//! and 12 are written over. Surface programs reach it through the derived forms
//! of [`super::derived`]. Core types and declarations stay surface syntax: they
//! belong to the core language ([`super::core_interface::Core`]).

use spec::source::Span;
use spec::syntax::ast::{Name, QualName, TypeExp, ValueBind};
use std::rc::Rc;

/// `mty ::= mtid | { spec } | mid : mty₁ → mty₂ | mty with longtid = ty`.
#[derive(Clone, Debug)]
pub enum KModType {
    /// `mtid` (a qualified `m.mtid` is an extension, looked up through ME).
    Id(QualName),
    /// `{ spec }`.
    Sig(Vec<KSpec>, Span),
    /// `mid : mty₁ → mty₂`.
    Arrow {
        param: Name,
        from: Box<KModType>,
        to: Box<KModType>,
        span: Span,
    },
    /// `mty with longtid = ty`.
    With {
        mod_type: Box<KModType>,
        longtid: QualName,
        ty: TypeExp,
        span: Span,
    },
}

/// `spec ::= val vid : ty | type tid | module mid : mty | include mty`; a
/// sequence `spec₁ spec₂ | ε` is a slice.
#[derive(Clone, Debug)]
pub enum KSpec {
    Val {
        name: Name,
        /// The written type parameters (`val f 'a : a -> a`), for a core
        /// with polymorphism of its own; size parameters are dropped.
        type_params: Vec<spec::syntax::ast::TypeParam>,
        ty: TypeExp,
        span: Span,
    },
    Type {
        name: Name,
        span: Span,
    },
    Module {
        name: Name,
        mod_type: KModType,
        span: Span,
    },
    Include {
        mod_type: KModType,
        span: Span,
    },
}

/// `mexp ::= { mdec } | mid | mexp.mid | λmid : mty → mexp | longmid(mexp)`,
/// and `mexp : mty` (rule 37).
#[derive(Clone, Debug)]
pub enum KModExp {
    Struct(Vec<KDec>, Span),
    Id(Name, Span),
    Proj(Box<KModExp>, Name, Span),
    Lambda {
        param: Name,
        mod_type: KModType,
        body: Rc<KModExp>,
        span: Span,
    },
    Apply {
        functor: QualName,
        argument: Box<KModExp>,
        span: Span,
    },
    Ascribe {
        module: Box<KModExp>,
        mod_type: KModType,
        span: Span,
    },
    /// §8.1: `longmid({ type a = τ_a … val f = exp })`, the instantiation of a
    /// polymorphic function's functor at the argument `exp`, the types τ_a
    /// determined by the argument's type (extension `poly-instantiate`).
    Instantiate {
        functor: QualName,
        value: Box<ValueBind>,
        span: Span,
    },
}

/// `mdec ::= dec | type tid = ty | module mid = mexp | module type mtid = mty |
/// open mexp`; a sequence `mdec₁ mdec₂ | ε` is a slice.
#[derive(Clone, Debug)]
pub enum KDec {
    Core(Box<ValueBind>),
    Type {
        name: Name,
        ty: TypeExp,
        span: Span,
    },
    Module {
        name: Name,
        module: KModExp,
        span: Span,
    },
    ModType {
        name: Name,
        mod_type: KModType,
        span: Span,
    },
    Open {
        module: KModExp,
        span: Span,
    },
}

impl KModExp {
    pub fn span(&self) -> Span {
        match self {
            KModExp::Struct(_, span)
            | KModExp::Id(_, span)
            | KModExp::Proj(_, _, span)
            | KModExp::Lambda { span, .. }
            | KModExp::Apply { span, .. }
            | KModExp::Ascribe { span, .. }
            | KModExp::Instantiate { span, .. } => *span,
        }
    }
}

impl KModType {
    pub fn span(&self) -> Span {
        match self {
            KModType::Id(name) => name.span,
            KModType::Sig(_, span) | KModType::Arrow { span, .. } | KModType::With { span, .. } => {
                *span
            }
        }
    }
}

impl KDec {
    pub fn span(&self) -> Span {
        match self {
            KDec::Core(bind) => bind.span,
            KDec::Type { span, .. }
            | KDec::Module { span, .. }
            | KDec::ModType { span, .. }
            | KDec::Open { span, .. } => *span,
        }
    }
}

/// `m.n.x` as written.
pub fn long_name(name: &QualName) -> String {
    let mut out = String::new();
    for qualifier in &name.qualifiers {
        out.push_str(qualifier);
        out.push('.');
    }
    out.push_str(&name.name);
    out
}

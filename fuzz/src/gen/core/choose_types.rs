//! Random types for the generator's own decisions: primitive types, known
//! sizes, and inhabited order-zero types (what a `let` binds, what a `map`
//! maps from).

use super::super::env::Env;
use super::super::types::*;
use super::super::Generator;
use spec::value::PrimType;

/// Primitive types weighted by how often programs should use them.
const PRIM_WEIGHTS: [(PrimType, u32); 11] = [
    (PrimType::I32, 8),
    (PrimType::I64, 4),
    (PrimType::Bool, 4),
    (PrimType::F32, 3),
    (PrimType::F64, 1),
    (PrimType::U8, 1),
    (PrimType::I8, 1),
    (PrimType::I16, 1),
    (PrimType::U16, 1),
    (PrimType::U32, 1),
    (PrimType::U64, 1),
];

impl Generator {
    pub fn random_prim(&mut self) -> PrimType {
        if self.config.paper_core {
            return PrimType::I32;
        }
        let weights: Vec<u32> = PRIM_WEIGHTS.iter().map(|(_, w)| *w).collect();
        PRIM_WEIGHTS[self.choices.weighted(&weights)].0
    }

    pub fn random_numeric(&mut self) -> PrimType {
        loop {
            let prim = self.random_prim();
            if prim != PrimType::Bool {
                return prim;
            }
            // Replay past the end reads zeros, which pick i32: no endless loop.
        }
    }

    /// A known size: a named size in scope or a small constant.
    pub fn known_size(&mut self, env: &Env) -> Size {
        if !env.sizes.is_empty() && self.choices.chance(1, 2) {
            let index = self.choices.below(env.sizes.len() as u32) as usize;
            return Size::Named(env.sizes[index].clone());
        }
        Size::Const(u64::from(self.choices.range(1, 4)))
    }

    /// A random inhabited order-zero type. With `known_only`, every array
    /// size is known; otherwise the outermost size may be unknown.
    pub fn random_type(&mut self, env: &Env, known_only: bool, depth: u32) -> Ty {
        let opaque = self.inhabited_opaque_types(env);
        if self.config.paper_core {
            // The paper's core has `i32` and abstract types (and arrows).
            if !opaque.is_empty() && self.choices.chance(1, 3) {
                let index = self.choices.below(opaque.len() as u32) as usize;
                return opaque[index].clone();
            }
            return i32_ty();
        }
        let weights = [
            8,
            if depth > 0 { 4 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if depth > 0 { 1 } else { 0 },
            if env.sum_types.is_empty() { 0 } else { 1 },
            if opaque.is_empty() { 0 } else { 2 },
        ];
        match self.choices.weighted(&weights) {
            0 => Ty::Prim(self.random_prim()),
            1 => {
                let size = if known_only || self.choices.chance(1, 2) {
                    self.known_size(env)
                } else {
                    Size::Unknown
                };
                let element = if self.choices.chance(1, 5) {
                    let inner = self.known_size(env);
                    array(inner, Ty::Prim(self.random_prim()))
                } else {
                    self.random_type(env, true, 0)
                };
                array(size, element)
            }
            2 => Ty::Tuple(vec![
                self.random_type(env, known_only, depth - 1),
                self.random_type(env, known_only, depth - 1),
            ]),
            3 => {
                let records: Vec<Ty> = env
                    .abbreviations
                    .iter()
                    .filter(|a| matches!(a.ty, Ty::Record(_)))
                    .map(|a| a.ty.clone())
                    .collect();
                if !records.is_empty() && self.choices.chance(1, 2) {
                    let index = self.choices.below(records.len() as u32) as usize;
                    return records[index].clone();
                }
                Ty::Record(vec![
                    ("a".to_string(), Ty::Prim(self.random_prim())),
                    (
                        "b".to_string(),
                        self.random_type(env, known_only, depth - 1),
                    ),
                ])
            }
            4 => {
                let index = self.choices.below(env.sum_types.len() as u32) as usize;
                env.sum_types[index].clone()
            }
            _ => {
                let index = self.choices.below(opaque.len() as u32) as usize;
                opaque[index].clone()
            }
        }
    }

    pub(crate) fn inhabited_opaque_types(&self, env: &Env) -> Vec<Ty> {
        let mut out: Vec<Ty> = Vec::new();
        for binding in env.visible() {
            if !binding.scheme.is_mono() {
                continue;
            }
            let (_, result) = binding.scheme.ty.uncurry();
            if matches!(result, Ty::Param(_) | Ty::Abstract(_))
                && !out.contains(result)
                && env.inhabited(result)
            {
                out.push(result.clone());
            }
        }
        out
    }
}

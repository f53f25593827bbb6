//! The common observation type of λC and λA values (guide §6.2): what a
//! closed first-order program's result looks like once read back, with `⊥`
//! where a part of it diverges (is stuck) and `<fun>` for functions and
//! closures, which are not observed.

use std::fmt;

/// `Obs ::= i | b | ⟨⟩ | (o, o) | Left o | Right o | [o, …] | in o | <fun> | ⊥`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Observation {
    Int(i64),
    Bool(bool),
    Unit,
    Pair(Box<Observation>, Box<Observation>),
    Left(Box<Observation>),
    Right(Box<Observation>),
    Array(Vec<Observation>),
    In(Box<Observation>),
    Opaque,
    Bottom,
}

impl Observation {
    /// Whether `⊥` occurs anywhere.
    pub fn has_bottom(&self) -> bool {
        match self {
            Observation::Bottom => true,
            Observation::Pair(a, b) => a.has_bottom() || b.has_bottom(),
            Observation::Left(a) | Observation::Right(a) | Observation::In(a) => a.has_bottom(),
            Observation::Array(items) => items.iter().any(Observation::has_bottom),
            _ => false,
        }
    }

    /// Thm. 6.37 on an observation context: wherever `self` (the λC
    /// observation) is defined, `flat` (the λA one) is defined and equal; λA may
    /// be more defined where λC is `⊥` (simulation is one-directional).
    pub fn simulated_by(&self, flat: &Observation) -> bool {
        match (self, flat) {
            (Observation::Bottom, _) => true,
            (Observation::Pair(a1, b1), Observation::Pair(a2, b2)) => {
                a1.simulated_by(a2) && b1.simulated_by(b2)
            }
            (Observation::Left(a), Observation::Left(b))
            | (Observation::Right(a), Observation::Right(b))
            | (Observation::In(a), Observation::In(b)) => a.simulated_by(b),
            (Observation::Array(xs), Observation::Array(ys)) => {
                xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| x.simulated_by(y))
            }
            (a, b) => a == b,
        }
    }

    /// Number of nodes.
    pub fn size(&self) -> usize {
        match self {
            Observation::Pair(a, b) => 1 + a.size() + b.size(),
            Observation::Left(a) | Observation::Right(a) | Observation::In(a) => 1 + a.size(),
            Observation::Array(items) => 1 + items.iter().map(Observation::size).sum::<usize>(),
            _ => 1,
        }
    }
}

/// `42`, `true`, `()`, `(a, b)`, `Left a`, `Right a`, `[a, b]`, `In a`,
/// `<fun>`, `_|_`. This is also the format of `-- expect:` lines in
/// `tests/nested/*.lp`.
impl fmt::Display for Observation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_observation(f, self, false)
    }
}

fn write_observation(f: &mut fmt::Formatter<'_>, o: &Observation, nested: bool) -> fmt::Result {
    match o {
        Observation::Int(i) => write!(f, "{i}"),
        Observation::Bool(b) => write!(f, "{b}"),
        Observation::Unit => write!(f, "()"),
        Observation::Pair(a, b) => {
            write!(f, "(")?;
            write_observation(f, a, false)?;
            write!(f, ", ")?;
            write_observation(f, b, false)?;
            write!(f, ")")
        }
        Observation::Left(a) | Observation::Right(a) | Observation::In(a) => {
            let name = match o {
                Observation::Left(_) => "Left",
                Observation::Right(_) => "Right",
                _ => "In",
            };
            if nested {
                write!(f, "(")?;
            }
            write!(f, "{name} ")?;
            write_observation(f, a, true)?;
            if nested {
                write!(f, ")")?;
            }
            Ok(())
        }
        Observation::Array(items) => {
            write!(f, "[")?;
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    write!(f, ", ")?;
                }
                write_observation(f, item, false)?;
            }
            write!(f, "]")
        }
        Observation::Opaque => write!(f, "<fun>"),
        Observation::Bottom => write!(f, "_|_"),
    }
}

//! The kernels, as a Rust programmer would write them with rayon: parallel
//! iterators over slices, chunked two-pass scans, no per-element allocation.
//! Each computes exactly what the `.fut` program of the same name computes
//! (the same operations in the same order wherever the order is fixed by the
//! program; `dot` reassociates its float sum, as a compiled `reduce` may).

use rayon::prelude::*;

/// `a * x + y` elementwise (saxpy.fut).
pub fn saxpy(a: f32, xs: &[f32], ys: &[f32]) -> Vec<f32> {
    xs.par_iter().zip(ys).map(|(x, y)| a * x + y).collect()
}

/// The sum of the elementwise products (dot.fut).
pub fn dot(xs: &[f32], ys: &[f32]) -> f32 {
    xs.par_iter().zip(ys).map(|(x, y)| x * y).sum()
}

/// The wrapping sum (sum_scan.fut, `sum`).
pub fn sum(xs: &[i32]) -> i32 {
    xs.par_iter().copied().reduce(|| 0, i32::wrapping_add)
}

/// The inclusive wrapping prefix sum (sum_scan.fut, `prefix_sum`).
pub fn prefix_sum(xs: &[i32]) -> Vec<i32> {
    let mut out = xs.to_vec();
    parallel_inclusive_scan(&mut out, 0, |a, b| a.wrapping_add(*b));
    out
}

/// The inclusive prefix sum restarting at each `true` flag (segscan.fut):
/// a scan over (flag, value) pairs with the segmented operator.
pub fn segmented_sum(flags: &[bool], xs: &[i32]) -> Vec<i32> {
    let mut pairs: Vec<(bool, i32)> = flags.iter().copied().zip(xs.iter().copied()).collect();
    parallel_inclusive_scan(&mut pairs, (false, 0), |(f1, x1), (f2, x2)| {
        (f1 || *f2, if *f2 { *x2 } else { x1.wrapping_add(*x2) })
    });
    pairs.into_iter().map(|(_, x)| x).collect()
}

/// Scans `data` in place with the associative `op` and its neutral element:
/// each of about four chunks per thread is reduced in parallel, the chunk
/// totals are scanned sequentially, then each chunk is scanned from its
/// carry in parallel.
fn parallel_inclusive_scan<T: Copy + Send + Sync>(
    data: &mut [T],
    neutral: T,
    op: impl Fn(T, &T) -> T + Sync,
) {
    if data.is_empty() {
        return;
    }
    let chunk = data
        .len()
        .div_ceil(rayon::current_num_threads() * 4)
        .max(4096);
    let totals: Vec<T> = data
        .par_chunks(chunk)
        .map(|c| c.iter().fold(neutral, &op))
        .collect();
    let mut carries = Vec::with_capacity(totals.len());
    let mut carry = neutral;
    for total in &totals {
        carries.push(carry);
        carry = op(carry, total);
    }
    data.par_chunks_mut(chunk)
        .zip(carries)
        .for_each(|(c, carry)| {
            let mut acc = carry;
            for x in c {
                acc = op(acc, x);
                *x = acc;
            }
        });
}

/// Escape-time counts of an `h` × `w` grid over [-2, 1] × [-1.5, 1.5], row
/// major (mandelbrot.fut).
pub fn mandelbrot(h: usize, w: usize, limit: i32) -> Vec<i32> {
    let mut counts = vec![0; h * w];
    counts
        .par_chunks_mut(w.max(1))
        .enumerate()
        .for_each(|(y, row)| {
            let ci = -1.5f32 + 3f32 * y as f32 / h as f32;
            for (x, count) in row.iter_mut().enumerate() {
                let cr = -2f32 + 3f32 * x as f32 / w as f32;
                *count = escape_time(limit, cr, ci);
            }
        });
    counts
}

fn escape_time(limit: i32, cr: f32, ci: f32) -> i32 {
    let (mut zr, mut zi, mut i) = (0f32, 0f32, 0);
    while i < limit && zr * zr + zi * zi < 4f32 {
        (zr, zi) = (zr * zr - zi * zi + cr, 2f32 * zr * zi + ci);
        i += 1;
    }
    i
}

/// Bodies as a structure of arrays (nbody.fut's seven arguments).
#[derive(Clone, Debug, PartialEq)]
pub struct Bodies {
    pub x: Vec<f32>,
    pub y: Vec<f32>,
    pub z: Vec<f32>,
    pub vx: Vec<f32>,
    pub vy: Vec<f32>,
    pub vz: Vec<f32>,
    pub mass: Vec<f32>,
}

/// nbody.fut's softening term.
const SOFTENING: f32 = 0.01;

/// One step: all-pairs softened gravity, then semi-implicit Euler (nbody.fut).
/// The returned bodies keep their masses.
pub fn nbody_step(dt: f32, b: &Bodies) -> Bodies {
    let accelerations: Vec<(f32, f32, f32)> = (0..b.x.len())
        .into_par_iter()
        .map(|i| {
            let (x, y, z) = (b.x[i], b.y[i], b.z[i]);
            let mut a = (0f32, 0f32, 0f32);
            for j in 0..b.x.len() {
                let (dx, dy, dz) = (b.x[j] - x, b.y[j] - y, b.z[j] - z);
                let d2 = dx * dx + dy * dy + dz * dz + SOFTENING;
                let s = b.mass[j] * (1f32 / (d2 * d2.sqrt()));
                a = (a.0 + dx * s, a.1 + dy * s, a.2 + dz * s);
            }
            a
        })
        .collect();
    let velocity = |v: &[f32], axis: fn(&(f32, f32, f32)) -> f32| -> Vec<f32> {
        v.par_iter()
            .zip(&accelerations)
            .map(|(v, a)| v + axis(a) * dt)
            .collect()
    };
    let vx = velocity(&b.vx, |a| a.0);
    let vy = velocity(&b.vy, |a| a.1);
    let vz = velocity(&b.vz, |a| a.2);
    let position = |p: &[f32], v: &[f32]| -> Vec<f32> {
        p.par_iter().zip(v).map(|(p, v)| p + v * dt).collect()
    };
    Bodies {
        x: position(&b.x, &vx),
        y: position(&b.y, &vy),
        z: position(&b.z, &vz),
        vx,
        vy,
        vz,
        mass: b.mass.clone(),
    }
}

/// `generations` steps of Conway's Game of Life on an `n` × `m` torus, row
/// major (life_modular.fut and life_specialised.fut).
pub fn life(n: usize, m: usize, board: &[bool], generations: usize) -> Vec<bool> {
    let mut current = board.to_vec();
    let mut next = vec![false; n * m];
    for _ in 0..generations {
        next.par_chunks_mut(m.max(1))
            .enumerate()
            .for_each(|(i, row)| {
                let (up, down) = ((i + n - 1) % n, (i + 1) % n);
                for (j, cell) in row.iter_mut().enumerate() {
                    let (left, right) = ((j + m - 1) % m, (j + 1) % m);
                    let alive = |r: usize, c: usize| current[r * m + c] as u8;
                    let sum = alive(up, left)
                        + alive(up, j)
                        + alive(up, right)
                        + alive(i, left)
                        + alive(i, right)
                        + alive(down, left)
                        + alive(down, j)
                        + alive(down, right);
                    *cell = sum == 3 || (current[i * m + j] && sum == 2);
                }
            });
        std::mem::swap(&mut current, &mut next);
    }
    current
}

/// A sparse matrix in compressed sparse row form: row `i`'s nonzeros are
/// `vals[offsets[i]..offsets[i + 1]]` at columns `cols[...]` of the same range.
#[derive(Clone, Debug)]
pub struct Csr {
    offsets: Vec<usize>,
    cols: Vec<usize>,
    vals: Vec<f32>,
}

impl Csr {
    /// Checks the invariants: `rows + 1` non-decreasing offsets from 0 to
    /// `nnz`, one column per value, every column below `columns`.
    pub fn new(
        offsets: Vec<usize>,
        cols: Vec<usize>,
        vals: Vec<f32>,
        columns: usize,
    ) -> Result<Csr, String> {
        let well_formed = offsets.first() == Some(&0)
            && offsets.last() == Some(&vals.len())
            && offsets.windows(2).all(|w| w[0] <= w[1])
            && cols.len() == vals.len()
            && cols.iter().all(|&c| c < columns);
        if well_formed {
            Ok(Csr {
                offsets,
                cols,
                vals,
            })
        } else {
            Err("malformed CSR matrix".into())
        }
    }

    pub fn rows(&self) -> usize {
        self.offsets.len() - 1
    }
}

/// `A x` (spmv.fut): one parallel task per row, each a sequential dot
/// product in index order.
pub fn spmv(a: &Csr, x: &[f32]) -> Vec<f32> {
    (0..a.rows())
        .into_par_iter()
        .map(|i| {
            let range = a.offsets[i]..a.offsets[i + 1];
            a.vals[range.clone()]
                .iter()
                .zip(&a.cols[range])
                .fold(0f32, |acc, (v, &c)| acc + v * x[c])
        })
        .collect()
}

/// spmv.fut's `spmv_generated`, the same work in the timed region as the
/// compiled entry point: the `n` × `n` matrix whose row `i` holds entries
/// `i*nnz/n .. (i+1)*nnz/n` of `vals`, at columns `cols_raw[k]` modulo `n`
/// (rounding down, as Futhark's `%`), times `x`; each row a sequential dot
/// product in index order, the column computed where it is read.
pub fn spmv_generated(cols_raw: &[i64], vals: &[f32], x: &[f32]) -> Vec<f32> {
    let (n, nnz) = (x.len(), vals.len());
    (0..n)
        .into_par_iter()
        .map(|i| {
            let range = i * nnz / n..(i + 1) * nnz / n;
            vals[range.clone()]
                .iter()
                .zip(&cols_raw[range])
                .fold(0f32, |acc, (v, &c)| {
                    acc + v * x[c.rem_euclid(n as i64) as usize]
                })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The parallel scans agree with a sequential scan at sizes around the
    /// chunk boundaries.
    #[test]
    fn parallel_scans_match_sequential_scans() {
        for n in [0usize, 1, 4095, 4096, 4097, 50_000] {
            let xs: Vec<i32> = (0..n).map(|i| (i * 7919 % 1000) as i32 - 500).collect();
            let flags: Vec<bool> = (0..n).map(|i| i % 37 == 0 || i % 1013 == 5).collect();
            let mut acc = 0i32;
            let expected: Vec<i32> = xs
                .iter()
                .map(|x| {
                    acc = acc.wrapping_add(*x);
                    acc
                })
                .collect();
            assert_eq!(prefix_sum(&xs), expected, "n = {n}");
            let mut acc = 0i32;
            let expected: Vec<i32> = xs
                .iter()
                .zip(&flags)
                .map(|(x, f)| {
                    acc = if *f { *x } else { acc.wrapping_add(*x) };
                    acc
                })
                .collect();
            assert_eq!(segmented_sum(&flags, &xs), expected, "n = {n}");
            assert_eq!(sum(&xs), expected_sum(&xs), "n = {n}");
        }
    }

    fn expected_sum(xs: &[i32]) -> i32 {
        xs.iter().fold(0, |a, b| a.wrapping_add(*b))
    }

    #[test]
    fn malformed_csr_is_rejected() {
        assert!(Csr::new(vec![0, 2], vec![0], vec![1.0], 1).is_err());
        assert!(Csr::new(vec![0, 1], vec![3], vec![1.0], 2).is_err());
        assert!(Csr::new(vec![0, 1, 1], vec![1], vec![1.0], 2).is_ok());
    }
}

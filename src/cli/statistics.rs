//! The statistics of `bench` and `benchcmp`: the 95 % confidence interval of
//! a mean (Student's t), and Welch's t-test between two samples of run
//! times, on the regularised incomplete beta function (continued fraction,
//! modified Lentz).

/// Mean, minimum, sample standard deviation and the half-width of the 95 %
/// confidence interval of the mean, of at least one observation.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    pub count: usize,
    pub mean: f64,
    pub min: f64,
    pub stddev: f64,
    /// `t(0.975, n-1) · s / √n`; infinite for one observation.
    pub ci95_half_width: f64,
}

pub fn summary(samples: &[f64]) -> Summary {
    let count = samples.len();
    let n = count as f64;
    let mean = samples.iter().sum::<f64>() / n;
    let min = samples.iter().copied().fold(f64::INFINITY, f64::min);
    let stddev = sample_variance(samples, mean).sqrt();
    let ci95_half_width = if count > 1 {
        t_quantile_975(n - 1.0) * stddev / n.sqrt()
    } else {
        f64::INFINITY
    };
    Summary {
        count,
        mean,
        min,
        stddev,
        ci95_half_width,
    }
}

fn sample_variance(samples: &[f64], mean: f64) -> f64 {
    if samples.len() < 2 {
        return 0.0;
    }
    samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (samples.len() as f64 - 1.0)
}

/// Welch's two-sided t-test of equal means: the p-value, 1 when either
/// sample has fewer than two observations or both have no variance and the
/// same mean.
pub fn welch_p_value(a: &[f64], b: &[f64]) -> f64 {
    if a.len() < 2 || b.len() < 2 {
        return 1.0;
    }
    let (mean_a, mean_b) = (summary(a).mean, summary(b).mean);
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (va, vb) = (
        sample_variance(a, mean_a) / na,
        sample_variance(b, mean_b) / nb,
    );
    if va + vb == 0.0 {
        return if mean_a == mean_b { 1.0 } else { 0.0 };
    }
    let t = (mean_a - mean_b) / (va + vb).sqrt();
    let df = (va + vb).powi(2) / (va * va / (na - 1.0) + vb * vb / (nb - 1.0));
    // P(|T| ≥ |t|) = I_{df/(df+t²)}(df/2, 1/2).
    regularised_incomplete_beta(df / (df + t * t), df / 2.0, 0.5)
}

/// The 97.5 % quantile of Student's t with `df` degrees of freedom (the
/// factor of a two-sided 95 % interval), by bisection on the distribution.
pub fn t_quantile_975(df: f64) -> f64 {
    // Two-sided tail probability 0.05 at the quantile.
    let tail = |t: f64| regularised_incomplete_beta(df / (df + t * t), df / 2.0, 0.5);
    let (mut low, mut high) = (0.0, 1000.0);
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if tail(middle) > 0.05 {
            low = middle;
        } else {
            high = middle;
        }
    }
    (low + high) / 2.0
}

/// I_x(a, b), the regularised incomplete beta function.
fn regularised_incomplete_beta(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let ln_front =
        libm::lgamma(a + b) - libm::lgamma(a) - libm::lgamma(b) + a * x.ln() + b * (1.0 - x).ln();
    // The continued fraction converges fast for x < (a+1)/(a+b+2); use the
    // symmetry I_x(a,b) = 1 - I_{1-x}(b,a) otherwise.
    if x < (a + 1.0) / (a + b + 2.0) {
        ln_front.exp() * beta_continued_fraction(x, a, b) / a
    } else {
        1.0 - ln_front.exp() * beta_continued_fraction(1.0 - x, b, a) / b
    }
}

fn beta_continued_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let mut c = 1.0;
    let mut d = 1.0 - (a + b) * x / (a + 1.0);
    if d.abs() < TINY {
        d = TINY;
    }
    d = 1.0 / d;
    let mut h = d;
    for m in 1..=300 {
        let m = m as f64;
        let m2 = 2.0 * m;
        for numerator in [
            m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)),
            -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
        ] {
            d = 1.0 + numerator * d;
            if d.abs() < TINY {
                d = TINY;
            }
            c = 1.0 + numerator / c;
            if c.abs() < TINY {
                c = TINY;
            }
            d = 1.0 / d;
            h *= d * c;
        }
        if (d * c - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;
    use spec::value::SplitMix64;

    #[test]
    fn t_quantiles_match_the_tables() {
        // Student's t, 97.5 %: df 1, 2, 10, 30, and the normal limit.
        for (df, expected) in [
            (1.0, 12.706),
            (2.0, 4.303),
            (10.0, 2.228),
            (30.0, 2.042),
            (1e6, 1.960),
        ] {
            let t = t_quantile_975(df);
            assert!((t - expected).abs() < 1e-3, "df {df}: {t}");
        }
    }

    #[test]
    fn a_summary_has_the_interval_of_its_mean() {
        let s = summary(&[10.0, 12.0, 14.0]);
        assert_eq!((s.count, s.mean, s.min, s.stddev), (3, 12.0, 10.0, 2.0));
        // t(0.975, 2) · 2 / √3.
        assert!((s.ci95_half_width - 4.303 * 2.0 / 3f64.sqrt()).abs() < 1e-2);
        assert!(summary(&[5.0]).ci95_half_width.is_infinite());
    }

    /// `count` run times around `mean` µs with ±5 % uniform noise.
    fn noisy_runs(seed: u64, count: usize, mean: f64) -> Vec<f64> {
        let mut random = SplitMix64::new(seed);
        (0..count)
            .map(|_| mean * (0.95 + 0.1 * random.next_f64()))
            .collect()
    }

    #[test]
    fn welch_separates_a_2x_slowdown_from_noise() {
        let mut flagged_same = 0;
        for seed in 0..100 {
            let a = noisy_runs(seed, 20, 1000.0);
            let same = noisy_runs(seed + 1000, 20, 1000.0);
            let slower = noisy_runs(seed + 2000, 20, 2000.0);
            assert!(welch_p_value(&a, &slower) < 1e-9, "seed {seed}");
            if welch_p_value(&a, &same) < 0.05 {
                flagged_same += 1;
            }
        }
        // A 5 % test flags about 5 of 100 comparisons of equal means.
        assert!(flagged_same <= 12, "{flagged_same} of 100 flagged");
    }

    #[test]
    fn welch_matches_a_worked_example() {
        // Two samples whose Welch statistic is t = -2.0 with 8 degrees of
        // freedom (equal sizes and variances): p = 0.0805 from the tables.
        let a = [1.0, 2.0, 3.0, 4.0, 5.0];
        let b: Vec<f64> = a.iter().map(|x| x + 2.0).collect();
        let p = welch_p_value(&a, &b);
        assert!((p - 0.0805).abs() < 1e-3, "{p}");
    }
}

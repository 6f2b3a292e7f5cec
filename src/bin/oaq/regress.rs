//! Least squares: the weights that best predict a target from features, by the normal
//! equations (a handful of features, many samples), solved by Gaussian elimination.

/// Sums of products, enough to solve for the weights and to judge the fit.
pub struct Regression<const N: usize> {
    xtx: [[f64; N]; N],
    xty: [f64; N],
    yy: f64,
    y: f64,
    samples: usize,
}

impl<const N: usize> Regression<N> {
    pub fn new() -> Regression<N> {
        Regression {
            xtx: [[0.0; N]; N],
            xty: [0.0; N],
            yy: 0.0,
            y: 0.0,
            samples: 0,
        }
    }

    pub fn add(&mut self, x: &[f64; N], y: f64) {
        for i in 0..N {
            for j in 0..N {
                self.xtx[i][j] += x[i] * x[j];
            }
            self.xty[i] += x[i] * y;
        }
        self.yy += y * y;
        self.y += y;
        self.samples += 1;
    }

    pub fn samples(&self) -> usize {
        self.samples
    }

    /// The weights minimising the squared error, with `ridge` × the samples added to the
    /// diagonal so that a feature that never varies gets weight 0 instead of no answer.
    pub fn solve(&self, ridge: f64) -> Option<[f64; N]> {
        let mut a = self.xtx;
        let mut b = self.xty;
        for (i, row) in a.iter_mut().enumerate() {
            row[i] += ridge * self.samples as f64;
        }
        for col in 0..N {
            let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
            if a[pivot][col].abs() < 1e-12 {
                return None;
            }
            a.swap(col, pivot);
            b.swap(col, pivot);
            let pivot_row = a[col];
            for row in col + 1..N {
                let factor = a[row][col] / pivot_row[col];
                for (cell, above) in a[row][col..].iter_mut().zip(&pivot_row[col..]) {
                    *cell -= factor * above;
                }
                b[row] -= factor * b[col];
            }
        }
        let mut w = [0.0; N];
        for row in (0..N).rev() {
            let rest: f64 = (row + 1..N).map(|k| a[row][k] * w[k]).sum();
            w[row] = (b[row] - rest) / a[row][row];
        }
        Some(w)
    }

    /// The mean squared error of predicting with `w`, and the target's variance around its mean.
    pub fn errors(&self, w: &[f64; N]) -> (f64, f64) {
        let n = self.samples.max(1) as f64;
        let mut sse = self.yy;
        for i in 0..N {
            sse -= 2.0 * w[i] * self.xty[i];
            for j in 0..N {
                sse += w[i] * w[j] * self.xtx[i][j];
            }
        }
        let mean = self.y / n;
        (sse / n, self.yy / n - mean * mean)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn it_finds_the_weights_behind_the_data() {
        let mut fit = Regression::<3>::new();
        let mut seed = 3u64;
        let mut next = || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64 - 0.5
        };
        for _ in 0..1000 {
            let x = [next(), next(), 1.0];
            let y = 2.0 * x[0] - 3.0 * x[1] + 0.5;
            fit.add(&x, y);
        }
        let w = fit.solve(0.0).unwrap();
        for (got, want) in w.iter().zip([2.0, -3.0, 0.5]) {
            assert!((got - want).abs() < 1e-9, "{w:?}");
        }
        let (mse, variance) = fit.errors(&w);
        assert!(mse < 1e-12 && variance > 0.1);
    }

    #[test]
    fn a_feature_that_never_varies_gets_no_weight_with_a_ridge() {
        let mut fit = Regression::<2>::new();
        for i in 0..10 {
            fit.add(&[f64::from(i), 0.0], 2.0 * f64::from(i));
        }
        assert!(fit.solve(0.0).is_none());
        let w = fit.solve(1e-6).unwrap();
        assert!((w[0] - 2.0).abs() < 1e-3 && w[1] == 0.0, "{w:?}");
    }
}

//! Training a network: plain stochastic gradient descent with Adam on the squared error, on one
//! thread, in an order drawn from the seed, so that the same samples and seed give the same
//! network bit for bit. Making the samples (self-play, searches) is the caller's (`oaq train`).

use rand::rngs::StdRng;
use rand::{RngExt, SeedableRng};

use super::{ACTIVE, HIDDEN, INPUTS, Network};
use oaq_rules::RuleSet;

/// One position's inputs and the correction it should get, in points for the side to move.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sample {
    pub inputs: [u16; ACTIVE],
    pub target: f32,
}

/// How to train.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Passes over the samples.
    pub epochs: u32,
    /// Samples per step.
    pub batch: usize,
    /// Adam's step size at the start; it falls linearly to a tenth by the last epoch.
    pub rate: f32,
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 12,
            batch: 256,
            rate: 0.002,
            seed: 1,
        }
    }
}

/// Mean squared errors after an epoch, in points².
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Epoch {
    pub epoch: u32,
    pub training: f64,
    pub validation: f64,
}

/// The targets are learnt in tens of points, so that the weights start near their scale; the
/// last layer is scaled back before the network is handed out.
const SCALE: f32 = 10.0;

const W1: usize = 0;
const B1: usize = W1 + INPUTS * HIDDEN;
const W2: usize = B1 + HIDDEN;
const B2: usize = W2 + HIDDEN;
const PARAMETERS: usize = B2 + 1;

/// The error of a network that corrects nothing (the hand-written evaluation alone), in points².
pub fn zero_error(samples: &[Sample]) -> f64 {
    mean(samples.iter().map(|s| f64::from(s.target).powi(2)))
}

/// The network's mean squared error on `samples`, in points².
pub fn error(network: &Network, samples: &[Sample]) -> f64 {
    mean(
        samples
            .iter()
            .map(|s| f64::from(network.forward(&s.inputs) - s.target).powi(2)),
    )
}

fn mean(values: impl Iterator<Item = f64>) -> f64 {
    let (sum, n) = values.fold((0.0, 0usize), |(s, n), v| (s + v, n + 1));
    if n == 0 { 0.0 } else { sum / n as f64 }
}

/// Trains a network for `rules` on `samples`, reporting each epoch's errors (`validation`
/// judged, never learnt from) to `report`.
pub fn train(
    rules: RuleSet,
    samples: &[Sample],
    validation: &[Sample],
    settings: Settings,
    mut report: impl FnMut(Epoch),
) -> Network {
    let mut rng = StdRng::seed_from_u64(settings.seed);
    let mut p = vec![0.0f32; PARAMETERS];
    let mut uniform = |bound: f32| rng.random_range(-bound..bound);
    // Each first-layer neuron sums ACTIVE rows: rows of 1/√ACTIVE keep it near unit size.
    let bound = (3.0 / ACTIVE as f32).sqrt();
    for w in &mut p[W1..B1] {
        *w = uniform(bound);
    }
    // Slightly open, so that no neuron starts dead.
    p[B1..W2].fill(0.1);
    for w in &mut p[W2..B2] {
        *w = uniform(0.1);
    }
    let mut adam = Adam::new();
    let mut order: Vec<usize> = (0..samples.len()).collect();
    let batch = settings.batch.max(1);
    let mut grad = vec![0.0f32; PARAMETERS];
    for epoch in 0..settings.epochs {
        // Fisher–Yates, from the seed's stream.
        for i in (1..order.len()).rev() {
            order.swap(i, rng.random_range(0..=i));
        }
        let fraction = epoch as f32 / settings.epochs.max(1) as f32;
        let rate = settings.rate * (1.0 - 0.9 * fraction);
        let mut total = 0.0f64;
        for chunk in order.chunks(batch) {
            grad.fill(0.0);
            for &i in chunk {
                total += f64::from(backward(&p, &samples[i], &mut grad)) * f64::from(SCALE).powi(2);
            }
            let n = chunk.len() as f32;
            grad.iter_mut().for_each(|g| *g /= n);
            adam.step(&mut p, &grad, rate);
        }
        let network = network(rules, &p);
        report(Epoch {
            epoch: epoch + 1,
            training: total / samples.len().max(1) as f64,
            validation: error(&network, validation),
        });
    }
    network(rules, &p)
}

/// Adds one sample's gradient of half the squared error (in the scaled targets) to `grad`;
/// returns the squared error.
fn backward(p: &[f32], sample: &Sample, grad: &mut [f32]) -> f32 {
    let mut hidden = [0.0f32; HIDDEN];
    hidden.copy_from_slice(&p[B1..W2]);
    for &i in &sample.inputs {
        let row = W1 + usize::from(i) * HIDDEN;
        for (h, w) in hidden.iter_mut().zip(&p[row..row + HIDDEN]) {
            *h += w;
        }
    }
    let y = p[B2]
        + (0..HIDDEN)
            .map(|j| p[W2 + j] * hidden[j].max(0.0))
            .sum::<f32>();
    let d = y - sample.target / SCALE;
    grad[B2] += d;
    let mut back = [0.0f32; HIDDEN];
    for j in 0..HIDDEN {
        grad[W2 + j] += d * hidden[j].max(0.0);
        if hidden[j] > 0.0 {
            back[j] = d * p[W2 + j];
            grad[B1 + j] += back[j];
        }
    }
    for &i in &sample.inputs {
        let row = W1 + usize::from(i) * HIDDEN;
        for (g, b) in grad[row..row + HIDDEN].iter_mut().zip(&back) {
            *g += b;
        }
    }
    d * d
}

/// The network of the parameters, its output scaled back to points.
fn network(rules: RuleSet, p: &[f32]) -> Network {
    let mut network = Network::zero(rules);
    for (i, row) in network.w1.iter_mut().enumerate() {
        row.copy_from_slice(&p[W1 + i * HIDDEN..W1 + (i + 1) * HIDDEN]);
    }
    network.b1.copy_from_slice(&p[B1..W2]);
    for (w, &v) in network.w2.iter_mut().zip(&p[W2..B2]) {
        *w = v * SCALE;
    }
    network.b2 = p[B2] * SCALE;
    network
}

/// Adam's moments (Kingma and Ba, 2015).
struct Adam {
    m: Vec<f32>,
    v: Vec<f32>,
    t: i32,
}

impl Adam {
    fn new() -> Adam {
        Adam {
            m: vec![0.0; PARAMETERS],
            v: vec![0.0; PARAMETERS],
            t: 0,
        }
    }

    fn step(&mut self, p: &mut [f32], grad: &[f32], rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        for i in 0..p.len() {
            self.m[i] = B1 * self.m[i] + (1.0 - B1) * grad[i];
            self.v[i] = B2 * self.v[i] + (1.0 - B2) * grad[i] * grad[i];
            p[i] -= rate * (self.m[i] / c1) / ((self.v[i] / c2).sqrt() + 1e-8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    /// Samples whose target is a simple function of the inputs: 3 points per stone in the
    /// mover's first pit, less 1 per stone in the other row's first pit.
    fn samples(n: usize, seed: u64) -> Vec<Sample> {
        let mut rng = StdRng::seed_from_u64(seed);
        (0..n)
            .map(|_| {
                let mut inputs = [0u16; ACTIVE];
                let mut counts = [0usize; 12];
                for (slot, input) in inputs.iter_mut().enumerate().take(12) {
                    counts[slot] = rng.random_range(0..6);
                    let group = if slot < 5 {
                        slot
                    } else if slot == 5 {
                        10
                    } else if slot < 11 {
                        slot - 1
                    } else {
                        12
                    };
                    *input = (group * 16 + counts[slot]) as u16;
                }
                for (k, input) in inputs[12..].iter_mut().enumerate() {
                    *input = (super::super::STORE + k * 10) as u16;
                }
                inputs[16] = (INPUTS - 1) as u16;
                let target = 3.0 * counts[0] as f32 - counts[6] as f32;
                Sample { inputs, target }
            })
            .collect()
    }

    #[test]
    fn training_learns_a_pattern_and_is_reproducible() {
        let rules = presets::get("basic").unwrap().rules;
        let train_set = samples(4000, 1);
        let held_out = samples(500, 2);
        let settings = Settings {
            epochs: 12,
            ..Settings::default()
        };
        let mut last = None;
        let a = train(rules, &train_set, &held_out, settings, |e| last = Some(e));
        let last = last.unwrap();
        // Nearly all of what there is to learn is learnt.
        assert!(
            last.validation < zero_error(&held_out) / 8.0,
            "{last:?} vs {}",
            zero_error(&held_out)
        );
        let b = train(rules, &train_set, &held_out, settings, |_| {});
        assert!(a == b, "the same samples and seed give the same network");
        let c = train(
            rules,
            &train_set,
            &held_out,
            Settings {
                seed: 2,
                ..settings
            },
            |_| {},
        );
        assert!(a != c, "another seed starts elsewhere");
    }
}

//! A network's file: a header with the rule set it serves and its sizes, the weights as
//! little-endian f32, and a hash of everything before it. Every field is checked on reading: a
//! cut, damaged or foreign file, or one of other sizes than this program's, is refused with
//! what is wrong.
//!
//! ```text
//! 8  magic "OAQ-NN\0\x01"
//! 4  length R of the rule set (1 to 4096), little-endian      R  the rule set, RON
//! 4  inputs   4  hidden layer, little-endian
//! the weights, f32 little-endian: w1 (inputs × hidden, by input), b1, w2, b2
//! 8  FNV-1a hash of every byte before it
//! ```

use super::{HIDDEN, INPUTS, Network};
use crate::tablebase::file::fnv1a;
use oaq_rules::RuleSet;

const MAGIC: &[u8; 8] = b"OAQ-NN\0\x01";
const MAX_RULES: usize = 4096;
const WEIGHTS: usize = INPUTS * HIDDEN + HIDDEN + HIDDEN + 1;

/// The file's bytes.
pub fn write(network: &Network) -> Vec<u8> {
    // A RuleSet always serialises: plain numbers and enums.
    let rules = ron::ser::to_string(network.rules()).unwrap_or_default();
    let mut out = Vec::with_capacity(32 + rules.len() + 4 * WEIGHTS);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&(rules.len() as u32).to_le_bytes());
    out.extend_from_slice(rules.as_bytes());
    for size in [INPUTS, HIDDEN] {
        out.extend_from_slice(&(size as u32).to_le_bytes());
    }
    let weights = network
        .w1
        .iter()
        .flatten()
        .chain(&network.b1)
        .chain(&network.w2)
        .chain(std::iter::once(&network.b2));
    for w in weights {
        out.extend_from_slice(&w.to_le_bytes());
    }
    let hash = fnv1a(&out);
    out.extend_from_slice(&hash.to_le_bytes());
    out
}

/// The bytes of a file, read in order.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    /// The next `n` bytes, which hold `what`.
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], String> {
        let part = self
            .bytes
            .get(self.at..self.at + n)
            .ok_or_else(|| format!("the file ends inside {what}: it is cut short"))?;
        self.at += n;
        Ok(part)
    }
}

/// Reads a network's file, or says what is wrong with it.
pub fn read(bytes: &[u8]) -> Result<Network, String> {
    let mut reader = Reader { bytes, at: 0 };
    let mut take = |n: usize, what: &str| reader.take(n, what);
    if take(8, "the magic number")? != MAGIC {
        return Err("not a network file (or of another version): the magic number differs".into());
    }
    let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as usize;
    let length = word(take(4, "the rule set's length")?);
    if !(1..=MAX_RULES).contains(&length) {
        return Err(format!(
            "the rule set's length is {length} bytes, not 1 to {MAX_RULES}"
        ));
    }
    let text = std::str::from_utf8(take(length, "the rule set")?)
        .map_err(|_| "the rule set is not UTF-8 text".to_string())?;
    let rules: RuleSet =
        ron::from_str(text).map_err(|e| format!("the rule set does not parse: {e}"))?;
    rules
        .validate()
        .map_err(|e| format!("the rule set is not valid: {e}"))?;
    for (name, size) in [("inputs", INPUTS), ("hidden neurons", HIDDEN)] {
        let found = word(take(4, name)?);
        if found != size {
            return Err(format!(
                "the network has {found} {name}, this program's has {size}"
            ));
        }
    }
    let mut values = Vec::with_capacity(WEIGHTS);
    for chunk in take(4 * WEIGHTS, "the weights")?.chunks_exact(4) {
        let w = f32::from_le_bytes([chunk[0], chunk[1], chunk[2], chunk[3]]);
        if !w.is_finite() {
            return Err("a weight is not a finite number".into());
        }
        values.push(w);
    }
    let body = bytes.len().saturating_sub(8);
    let hash = take(8, "the hash")?;
    let hash = u64::from_le_bytes([
        hash[0], hash[1], hash[2], hash[3], hash[4], hash[5], hash[6], hash[7],
    ]);
    let read = 8 + 4 + length + 8 + 4 * WEIGHTS + 8;
    if read != bytes.len() {
        return Err(format!(
            "{} bytes follow the hash: not a network of this program's sizes",
            bytes.len() - read
        ));
    }
    if fnv1a(&bytes[..body]) != hash {
        return Err("the hash does not match: the file is damaged".into());
    }
    let mut network = Network::zero(rules);
    let mut values = values.into_iter();
    let mut next = || values.next().unwrap_or(0.0);
    for row in &mut network.w1 {
        row.iter_mut().for_each(|w| *w = next());
    }
    network.b1.iter_mut().for_each(|w| *w = next());
    network.w2.iter_mut().for_each(|w| *w = next());
    network.b2 = next();
    Ok(network)
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::presets;

    fn sample() -> Network {
        let mut network = Network::zero(presets::get("basic").unwrap().rules);
        for (i, row) in network.w1.iter_mut().enumerate() {
            row[i % HIDDEN] = i as f32 / 100.0;
        }
        network.w2[3] = -0.5;
        network.b2 = 1.25;
        network
    }

    #[test]
    fn a_network_reads_back_as_written() {
        let network = sample();
        assert_eq!(read(&write(&network)).unwrap(), network);
    }

    #[test]
    fn cut_damaged_foreign_and_longer_files_are_refused_by_name() {
        let bytes = write(&sample());
        let cut = read(&bytes[..bytes.len() - 20]).unwrap_err();
        assert!(cut.contains("cut short"), "{cut}");
        let mut damaged = bytes.clone();
        let middle = damaged.len() / 2;
        damaged[middle] ^= 1;
        let damaged = read(&damaged).unwrap_err();
        assert!(
            damaged.contains("hash") || damaged.contains("finite"),
            "{damaged}"
        );
        let foreign = read(b"OAQ-TB\0\x03 and more").unwrap_err();
        assert!(foreign.contains("magic"), "{foreign}");
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(read(&longer).unwrap_err().contains("follow the hash"));
        let mut huge = bytes;
        huge[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
        assert!(read(&huge).unwrap_err().contains("length"));
    }
}

//! `--weights FILE` arguments: evaluation weights from a RON file, checked as they are read.

use std::path::Path;

use o_an_quan::ai::Weights;

use crate::Failure;

/// The weights in `path`, or the shipped ones without a path.
pub fn read(path: Option<&Path>) -> Result<Weights, Failure> {
    let Some(path) = path else {
        return Ok(Weights::shipped());
    };
    let text =
        std::fs::read_to_string(path).map_err(|e| Failure(format!("{}: {e}", path.display())))?;
    ron::from_str(&text)
        .map_err(|e| Failure(format!("{}: not evaluation weights: {e}", path.display())))
}

/// A `--out` path for weights that cannot be written is refused before the games, not after
/// them. Opening it without truncating keeps what it holds until the new weights are ready.
pub fn check_writable(path: Option<&Path>) -> Result<(), Failure> {
    if let Some(path) = path {
        std::fs::OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(false)
            .open(path)
            .map_err(|e| Failure(format!("--out {}: {e}", path.display())))?;
    }
    Ok(())
}

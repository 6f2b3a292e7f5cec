//! The `--rules NAME|FILE.ron` argument: a shipped preset, or a preset file.

use o_an_quan::rules::RuleSet;
use o_an_quan::rules::presets::{self, Preset};

use crate::Failure;

/// The rule set a `--rules` argument names.
pub fn resolve(arg: &str) -> Result<RuleSet, Failure> {
    if let Some(preset) = presets::get(arg) {
        return Ok(preset.rules);
    }
    if !arg.ends_with(".ron") {
        let names: Vec<&str> = presets::all().iter().map(|p| p.id.as_str()).collect();
        return Err(Failure(format!(
            "no preset {}: the presets are {}, or give a FILE.ron",
            o_an_quan::excerpt::quoted(arg),
            names.join(", ")
        )));
    }
    let text = std::fs::read_to_string(arg).map_err(|e| Failure(format!("{arg}: {e}")))?;
    Preset::from_ron(&text)
        .map(|p| p.rules)
        .map_err(|e| Failure(format!("{arg}: {e}")))
}

//! `oaq ai`: the engine protocol. One state JSON per input line, one JSON answer per line.

use std::io::{BufRead, Write};

use o_an_quan::ai::{Level, Thinker};
use o_an_quan::rules::RuleSet;
use o_an_quan::state_json;
use serde_json::json;

use crate::{Failure, rules_arg};

#[derive(clap::Args)]
pub struct Args {
    /// A preset name (`oaq rules`) or a preset file.
    #[arg(long)]
    rules: String,
    /// 1 to 10, or easy, medium, hard, master.
    #[arg(long)]
    level: Level,
    /// Seed of the level's misjudgements.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads a level that may use every core (Master) searches on (default: one per core).
    #[arg(long)]
    threads: Option<usize>,
}

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = answer(rules, &args, &line);
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

fn answer(rules: RuleSet, args: &Args, line: &str) -> serde_json::Value {
    let pos = match state_json::parse(rules, line) {
        Ok(pos) => pos,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    if pos.is_over() {
        return json!({ "error": "the game is over: there is no move to make" });
    }
    let threads = args
        .threads
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let decision = Thinker::new(pos, args.level, args.seed, None)
        .threads(threads)
        .run();
    let report = &decision.report;
    json!({
        "move": decision.mv.to_string(),
        "score": (report.expected_margin() * 100.0).round() / 100.0,
        "depth": report.depth,
        "nodes": report.nodes,
        "ms": report.elapsed.as_millis() as u64,
    })
}

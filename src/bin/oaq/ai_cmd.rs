//! `oaq ai`: the engine protocol. One state JSON per input line, one JSON answer per line.

use std::io::{BufRead, Read, Write};

use o_an_quan::ai::{Level, MAX_THREADS, Thinker};
use o_an_quan::rules::RuleSet;
use o_an_quan::state_json;
use serde_json::json;

use crate::{Failure, rules_arg};

#[derive(clap::Args)]
#[command(allow_negative_numbers = true)]
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
    /// Threads a level that may use every core (Master) searches on, 1 to 64 (default: one
    /// per core).
    #[arg(long, value_parser = clap::value_parser!(u16).range(1..=MAX_THREADS as i64))]
    threads: Option<u16>,
}

/// The longest line read: a state JSON is a few hundred bytes.
const MAX_LINE: usize = 64 * 1024;

pub fn run(args: Args) -> Result<(), Failure> {
    let rules = rules_arg::resolve(&args.rules)?;
    // Loaded before the first line, so that an answer does not depend on how soon it was.
    if o_an_quan::ai::tablebase::Tablebase::serves(&rules) {
        o_an_quan::ai::tablebase::shipped();
    }
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut number = 0;
    while let Some(line) = read_line(&mut input)? {
        number += 1;
        let answer = match line {
            Line::Text(text) if text.trim().is_empty() => continue,
            Line::Text(text) => answer(rules, &args, &text),
            Line::NotUtf8(at) => json!({
                "error": format!("line {number}: not UTF-8 text (byte {at} starts no character)")
            }),
            Line::TooLong(bytes) => json!({
                "error": format!("line {number}: {bytes} bytes, longer than the {MAX_LINE} a state may take")
            }),
        };
        writeln!(out, "{answer}")?;
        out.flush()?;
    }
    Ok(())
}

/// One line of input, as far as it could be read.
#[derive(Debug, PartialEq)]
enum Line {
    Text(String),
    /// Not UTF-8 from this byte offset on.
    NotUtf8(usize),
    /// Longer than `MAX_LINE`: this many bytes, read and dropped.
    TooLong(usize),
}

/// The next line without its end, or `None` at the end of the input. A bad line is named, not
/// fatal: the engine answers it and reads on.
fn read_line(input: &mut impl BufRead) -> std::io::Result<Option<Line>> {
    let mut bytes = Vec::new();
    input
        .by_ref()
        .take(MAX_LINE as u64 + 1)
        .read_until(b'\n', &mut bytes)?;
    if bytes.is_empty() {
        return Ok(None);
    }
    if bytes.last() == Some(&b'\n') {
        bytes.pop();
    } else if bytes.len() > MAX_LINE {
        // Drop the rest of the line, counting it, without holding it.
        let mut length = bytes.len();
        loop {
            let buffer = input.fill_buf()?;
            if buffer.is_empty() {
                break;
            }
            let (used, end) = match buffer.iter().position(|&b| b == b'\n') {
                Some(i) => (i + 1, true),
                None => (buffer.len(), false),
            };
            length += used - usize::from(end);
            input.consume(used);
            if end {
                break;
            }
        }
        return Ok(Some(Line::TooLong(length)));
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Ok(Some(match String::from_utf8(bytes) {
        Ok(text) => Line::Text(text),
        Err(e) => Line::NotUtf8(e.utf8_error().valid_up_to()),
    }))
}

fn answer(rules: RuleSet, args: &Args, line: &str) -> serde_json::Value {
    let pos = match state_json::parse(rules, line) {
        Ok(pos) => pos,
        Err(e) => return json!({ "error": e.to_string() }),
    };
    if pos.is_over() {
        return json!({ "error": "the game is over: there is no move to make" });
    }
    let threads = args.threads.map_or_else(
        || std::thread::available_parallelism().map_or(1, |n| n.get()),
        usize::from,
    );
    let decision = Thinker::new(pos, args.level, args.seed, None)
        .threads(threads)
        .run();
    let report = &decision.report;
    json!({
        "move": decision.mv.to_string(),
        // Rounded as a decimal: an f32 widened to f64 would print its binary tail.
        "score": (f64::from(report.expected_margin()) * 100.0).round() / 100.0,
        "depth": report.depth,
        "nodes": report.nodes,
        "ms": report.elapsed.as_millis() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        let mut reader = std::io::BufReader::with_capacity(16, input);
        std::iter::from_fn(|| read_line(&mut reader).unwrap()).collect()
    }

    #[test]
    fn bad_lines_are_named_and_reading_goes_on() {
        let mut input = b"{\"pits\":[]}\r\n\xff\xfe\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', MAX_LINE + 10));
        input.extend(b"\nlast");
        assert_eq!(
            lines(&input),
            [
                Line::Text("{\"pits\":[]}".into()),
                Line::NotUtf8(0),
                Line::TooLong(MAX_LINE + 10),
                Line::Text("last".into()),
            ]
        );
    }
}

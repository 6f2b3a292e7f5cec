//! The opening book: the first positions of every 2-player preset (the start, and each position
//! after one move, the table flip's swap included), searched far deeper than a move's time
//! allows by `oaq book build`, so that Master and the hint answer them at once and at their best.

use std::sync::OnceLock;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::limits::Report;
use oaq_rules::{Move, Position, presets};

/// A book as its file holds it (`assets/ai/book/PRESET.ron`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookFile {
    /// The preset's id.
    pub preset: String,
    pub entries: Vec<BookEntry>,
}

/// One searched position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BookEntry {
    /// The moves from the start that reach it, as `oaq replay` takes them ("" for the start).
    pub moves: String,
    /// The deepest iteration completed, and the time the search was given.
    pub depth: u32,
    pub seconds: f64,
    /// The values are the game's exact result under best play.
    pub solved: bool,
    /// Every legal move and its value for the side to move (hundredths of a point, as the
    /// search reports them), best first.
    pub values: Vec<(String, i32)>,
}

impl BookFile {
    /// The positions a book covers under `preset`'s rules: the start, every position after one
    /// move and, where the rules allow the swap, after one move and the swap.
    pub fn lines(position: Position) -> Vec<Vec<Move>> {
        let mut lines = vec![Vec::new()];
        for &first in position.legal_moves().iter() {
            let mut after = position;
            after.play_unchecked(first);
            if after.is_over() {
                continue;
            }
            lines.push(vec![first]);
            if after.can_swap() {
                let mut swapped = after;
                swapped.play_unchecked(Move::Swap);
                if !swapped.is_over() {
                    lines.push(vec![first, Move::Swap]);
                }
            }
        }
        lines
    }
}

/// A position of a shipped book, ready to answer.
struct Known {
    pos: Position,
    report: Report,
}

const SHIPPED: [(&str, &str); 6] = [
    (
        "standard",
        include_str!("../../../assets/ai/book/standard.ron"),
    ),
    (
        "young-mandarin",
        include_str!("../../../assets/ai/book/young-mandarin.ron"),
    ),
    ("basic", include_str!("../../../assets/ai/book/basic.ron")),
    (
        "mature-quan",
        include_str!("../../../assets/ai/book/mature-quan.ron"),
    ),
    (
        "table-flip",
        include_str!("../../../assets/ai/book/table-flip.ron"),
    ),
    (
        "ten-seeds",
        include_str!("../../../assets/ai/book/ten-seeds.ron"),
    ),
];

/// Read a book file and turn its entries into answers; an entry whose moves or values do not
/// fit the preset is an error that names it.
pub fn parse(text: &str) -> Result<(BookFile, Vec<(Position, Report)>), String> {
    let file: BookFile = ron::from_str(text).map_err(|e| e.to_string())?;
    let preset = presets::get(&file.preset)
        .ok_or_else(|| format!("the book is for {:?}, which is no preset", file.preset))?;
    let mut known = Vec::new();
    for entry in &file.entries {
        let fail = |what: String| format!("book entry {:?}: {what}", entry.moves);
        let mut pos = Position::new(preset.rules);
        for text in entry.moves.split_whitespace() {
            let mv: Move = text.parse().map_err(|e| fail(format!("{e}")))?;
            pos.play(mv).map_err(|e| fail(e.to_string()))?;
        }
        let mut moves = Vec::new();
        for (text, value) in &entry.values {
            let mv: Move = text.parse().map_err(|e| fail(format!("{e}")))?;
            if !pos.is_legal(mv) {
                return Err(fail(format!("{mv} is not legal there")));
            }
            moves.push((mv, *value));
        }
        if moves.len() != pos.legal_moves().len() {
            return Err(fail("it does not value every legal move".into()));
        }
        moves.sort_by_key(|&(_, value)| -value);
        let (best, score) = moves[0];
        known.push((
            pos,
            Report {
                best,
                score,
                depth: entry.depth,
                nodes: 0,
                elapsed: Duration::ZERO,
                solved: entry.solved,
                pv: vec![best],
                moves,
            },
        ));
    }
    Ok((file, known))
}

fn shipped() -> &'static [Known] {
    static BOOK: OnceLock<Vec<Known>> = OnceLock::new();
    BOOK.get_or_init(|| {
        SHIPPED
            .iter()
            .flat_map(|(id, text)| match parse(text) {
                Ok((_, known)) => known,
                // The files are part of the program and a test reads every one.
                Err(e) => panic!("assets/ai/book/{id}.ron is broken: {e}"),
            })
            .map(|(pos, report)| Known { pos, report })
            .collect()
    })
}

/// The book's answer for `pos`, when a shipped book has it.
///
/// ```
/// use oaq_ai::book;
/// use oaq_rules::{presets, Position};
/// let start = Position::new(presets::get("basic").unwrap().rules);
/// let report = book::lookup(&start).unwrap();
/// assert!(start.is_legal(report.best));
/// ```
pub fn lookup(pos: &Position) -> Option<Report> {
    shipped()
        .iter()
        .find(|known| known.pos == *pos)
        .map(|known| known.report.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_book_covers_its_preset() {
        for (id, text) in SHIPPED {
            let (file, known) = parse(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(file.preset, id);
            let start = Position::new(presets::get(id).unwrap().rules);
            assert_eq!(known.len(), BookFile::lines(start).len(), "{id}");
            for (pos, report) in known {
                assert_eq!(lookup(&pos).as_ref(), Some(&report));
                assert!(
                    report.depth >= 12,
                    "{id}: {:?} searched to {}",
                    report.pv,
                    report.depth
                );
            }
        }
    }

    #[test]
    fn a_broken_entry_is_named() {
        let text = r#"(preset: "basic", entries: [(moves: "2- 2-", depth: 3, seconds: 1.0, solved: false, values: [])])"#;
        let error = parse(text).unwrap_err();
        assert!(error.contains("\"2- 2-\""), "{error}");
        let text = r#"(preset: "basic", entries: [(moves: "", depth: 3, seconds: 1.0, solved: false, values: [("2-", 5)])])"#;
        assert!(parse(text).unwrap_err().contains("every legal move"));
    }
}

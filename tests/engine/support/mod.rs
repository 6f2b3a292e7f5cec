//! Helpers shared by the integration tests: positions from a few numbers, and random games.

use o_an_quan::rules::{Position, RuleSet, Setup, Store, presets};

/// The rule set of a shipped preset.
pub fn rules(id: &str) -> RuleSet {
    presets::get(id)
        .unwrap_or_else(|| panic!("no preset {id}"))
        .rules
}

/// A store with `stones` small stones and `mandarins` mandarin pieces.
pub fn store(stones: i16, mandarins: u8) -> Store {
    Store {
        stones,
        mandarins,
        ..Store::default()
    }
}

/// A position under `rules` with the given board, mandarin pieces and stores, `to_move` to play
/// move number `ply`.
pub fn position(
    rules: RuleSet,
    pits: &[u8],
    quan: &[bool],
    stores: &[Store],
    to_move: u8,
    ply: u32,
) -> Position {
    let setup = Setup {
        ply,
        to_move,
        pits: pits.to_vec(),
        quan: quan.to_vec(),
        stores: stores.to_vec(),
        over: false,
        forfeit: None,
        swapped: false,
    };
    Position::from_setup(rules, &setup).unwrap_or_else(|e| panic!("bad test position: {e}"))
}

/// Everything on the board and in the stores, at face value (debts are bookkeeping on top).
pub fn total_value(pos: &Position) -> i32 {
    let board: i32 = pos.pits().iter().map(|&n| i32::from(n)).sum();
    let pieces = (0..pos.players()).filter(|&p| pos.has_mandarin(p)).count() as i32 * 10;
    let stores: i32 = (0..pos.players()).map(|p| pos.store(p).worth()).sum();
    board + pieces + stores
}

//! What the game says, in the player's language: the message line's notes, names of the sides
//! and the pits, the turn, and the final count explained.

use std::fmt::Display;

use crate::game::board::layout::Layout;
use crate::game::state::{Game, Note};
use crate::rules::geometry;
use crate::rules::{EndReason, Event, Position, TurnEnd};
use crate::session::{Lang, Seat};

impl Note {
    /// A table string with its arguments, in both languages.
    pub fn text(key: &'static str, args: &[(&str, &dyn Display)]) -> Note {
        Note::Text {
            en: Lang::En.trf(key, args),
            vi: Lang::Vi.trf(key, args),
        }
    }
}

/// The message line for `notes`.
pub fn message(notes: &[Note], game: &Game, layout: &Layout, lang: Lang) -> String {
    notes
        .iter()
        .filter_map(|note| render(note, game, layout, lang))
        .collect::<Vec<_>>()
        .join("  ·  ")
}

fn render(note: &Note, game: &Game, layout: &Layout, lang: Lang) -> Option<String> {
    match note {
        Note::Event(event) => narrate(event, game, lang),
        Note::Turn => turn(game, lang),
        Note::Hint(advice) => Some(advice.describe(layout, lang)),
        Note::HintThinking => Some(lang.tr("hint.thinking").to_owned()),
        Note::Text { en, vi } => Some(match lang {
            Lang::En => en.clone(),
            Lang::Vi => vi.clone(),
        }),
    }
}

/// "You", "The computer" or "Player 2" for the side `side` of the board.
pub fn who(game: &Game, side: usize, lang: Lang) -> String {
    match game.history.player_of(side) {
        // Among humans only, or the computer against itself, sides go by number.
        _ if !game.mixed() => lang.trf("who.player", &[("n", &(side + 1))]),
        Seat::Human => lang.tr("who.you").to_owned(),
        Seat::Computer(_) => lang.tr("who.computer").to_owned(),
        Seat::Remote => lang.tr("who.opponent").to_owned(),
    }
}

/// Whose turn it is, or nothing once the game is over.
pub fn turn(game: &Game, lang: Lang) -> Option<String> {
    let seat = game.history.to_play()?;
    let side = game.pos().to_move();
    Some(match seat {
        _ if !game.mixed() => lang.trf("turn.player", &[("n", &(side + 1))]),
        Seat::Human => lang.tr("turn.you").to_owned(),
        Seat::Computer(_) => lang.tr("turn.computer").to_owned(),
        Seat::Remote => lang.tr("turn.opponent").to_owned(),
    })
}

/// The message for a move's `event`, if it deserves one: who did what.
pub fn narrate(event: &Event, game: &Game, lang: Lang) -> Option<String> {
    let who = |p: u8| who(game, usize::from(p), lang);
    // The move being shown is the last one played.
    let mover = game
        .history
        .entries()
        .last()
        .map_or(game.pos().to_move(), |e| e.side) as u8;
    Some(match *event {
        Event::Capture {
            stones,
            mandarin: true,
            ..
        } => lang.trf(
            "capture.mandarin",
            &[
                ("who", &who(mover)),
                ("n", &stones),
                ("total", &(10 + u32::from(stones))),
            ],
        ),
        Event::Capture { stones: 1, .. } => lang.trf("capture.one", &[("who", &who(mover))]),
        Event::Capture { stones, .. } => {
            lang.trf("capture.many", &[("who", &who(mover)), ("n", &stones)])
        }
        Event::TurnEnd { reason } => match reason {
            TurnEnd::MandarinPit { .. } => lang.tr("end.mandarin_pit").to_owned(),
            TurnEnd::TwoEmpty { .. } => lang.tr("end.two_empty").to_owned(),
            TurnEnd::Protected { .. } => lang.tr("end.protected").to_owned(),
            TurnEnd::Cycle => lang.tr("end.cycle").to_owned(),
            TurnEnd::Blocked { .. } => return None,
        },
        Event::Refill {
            player, paid, loan, ..
        } => match loan {
            _ if game.pos().rules().refill == crate::rules::Refill::Deduct => {
                lang.trf("refill.deducted", &[("who", &who(player))])
            }
            Some(loan) => lang.trf(
                "refill.borrowed",
                &[("who", &who(player)), ("n", &paid), ("loan", &loan.stones)],
            ),
            None => lang.trf("refill.paid", &[("who", &who(player)), ("n", &paid)]),
        },
        Event::Swap => {
            // After the flip, the mover's person plays side 0.
            match game.history.player_of(0) {
                Seat::Computer(_) if game.mixed() => lang.tr("swap.computer").to_owned(),
                _ => lang.trf("swap.done", &[("who", &who(0))]),
            }
        }
        Event::GameOver { reason, .. } => match reason {
            EndReason::Forfeit { player } => lang.trf("over.forfeit", &[("who", &who(player))]),
            EndReason::NoStonesToLend { player } => {
                lang.trf("over.no_lender", &[("who", &who(player))])
            }
            EndReason::Repetition => lang.tr("over.repetition").to_owned(),
            EndReason::MoveLimit => {
                lang.trf("over.move_limit", &[("n", &game.pos().rules().max_plies())])
            }
            EndReason::BoardFull { player } => {
                lang.trf("over.board_full", &[("who", &who(player))])
            }
            EndReason::MandarinsCaptured => lang.tr("over.mandarins").to_owned(),
            EndReason::ScoreReached { player } => lang.trf(
                "over.score_reached",
                &[
                    ("who", &who(player)),
                    ("n", &game.pos().rules().win_at.unwrap_or_default()),
                    ("total", &game.pos().rules().total_value()),
                ],
            ),
        },
        _ => return None,
    })
}

/// What a store holds, in words a child reads: "14 stones + 1 mandarin" ("1 stone", "0 stones").
pub fn store_contents(stones: i32, mandarins: usize, lang: Lang) -> String {
    let stones = if stones == 1 {
        lang.tr("count.stone").to_owned()
    } else {
        lang.trf("count.stones", &[("n", &stones)])
    };
    match mandarins {
        0 => stones,
        1 => format!("{stones} + {}", lang.tr("count.mandarin")),
        n => format!("{stones} + {}", lang.trf("count.mandarins", &[("n", &n)])),
    }
}

/// "1 mandarin + 23 stones + 4 from the row – 2 owed = 35", for the game-over panel.
pub fn final_count(pos: &Position, player: usize, swept: u32, lang: Lang) -> String {
    let store = pos.store(player);
    let mandarins = u32::from(store.mandarins);
    let stones = i32::from(store.stones) - swept as i32;
    let mut parts = Vec::new();
    match mandarins {
        0 => {}
        1 => parts.push(lang.tr("count.mandarin").to_owned()),
        n => parts.push(lang.trf("count.mandarins", &[("n", &n)])),
    }
    parts.push(lang.trf("count.stones", &[("n", &stones)]));
    if swept > 0 {
        parts.push(lang.trf("count.row", &[("n", &swept)]));
    }
    let mut text = parts.join(" + ");
    let owed: i32 = store.owes.iter().map(|&o| i32::from(o)).sum();
    if owed > 0 {
        text += &format!(" – {}", lang.trf("count.owed", &[("n", &owed)]));
    }
    let lent: i32 = (0..pos.players())
        .map(|q| i32::from(pos.store(q).owes[player]))
        .sum();
    if lent > 0 {
        text += &format!(" + {}", lang.trf("count.lent", &[("n", &lent)]));
    }
    text + &format!(" = {}", pos.score(player))
}

/// A pit's name without its contents: "your pit 3", "the computer's pit 8", "the left
/// mandarin pit".
pub fn pit_name(game: &Game, layout: &Layout, pit: usize, lang: Lang) -> String {
    let Some(number) = geometry::pit_number(pit) else {
        if layout.players() != 2 {
            let after = geometry::owner(pit) + 1;
            return lang.trf("a11y.mandarin_pit.after", &[("p", &after)]);
        }
        // Left or right as the player sees the board.
        let across = layout.pit_center(pit).dot(layout.screen_axis());
        return lang
            .tr(if across < 0.0 {
                "a11y.mandarin_pit.left"
            } else {
                "a11y.mandarin_pit.right"
            })
            .to_owned();
    };
    let side = geometry::owner(pit);
    match game.history.player_of(side) {
        // Among people sharing the device (or computers only) sides go by number.
        _ if !game.mixed() => lang.trf("a11y.pit.player", &[("p", &(side + 1)), ("n", &number)]),
        Seat::Human => lang.trf("a11y.pit.own", &[("n", &number)]),
        Seat::Computer(_) => lang.trf("a11y.pit.computer", &[("n", &number)]),
        Seat::Remote => lang.trf("a11y.pit.opponent", &[("n", &number)]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Setup, Store, presets};

    #[test]
    fn a_store_says_what_it_holds_in_words() {
        assert_eq!(store_contents(14, 1, Lang::En), "14 stones + 1 mandarin");
        assert_eq!(store_contents(1, 0, Lang::En), "1 stone");
        assert_eq!(store_contents(0, 2, Lang::En), "0 stones + 2 mandarins");
        assert_eq!(store_contents(14, 1, Lang::Vi), "14 dân + 1 quan");
    }

    #[test]
    fn the_final_count_reads_like_the_rule_sheet() {
        let rules = presets::get("standard").unwrap().rules;
        let mut owes = [0; 3];
        owes[1] = 2;
        let setup = Setup {
            ply: 60,
            to_move: 1,
            pits: vec![0; 12],
            quan: vec![false, false],
            stores: vec![
                Store {
                    stones: 27,
                    mandarins: 1,
                    owes,
                },
                Store {
                    stones: 23,
                    mandarins: 1,
                    owes: [0; 3],
                },
            ],
            over: true,
            forfeit: None,
            swapped: false,
        };
        let pos = Position::from_setup(rules, &setup).unwrap();
        assert_eq!(
            final_count(&pos, 0, 4, Lang::En),
            "1 mandarin + 23 stones + 4 from the row – 2 owed = 35"
        );
        assert_eq!(
            final_count(&pos, 1, 0, Lang::En),
            "1 mandarin + 23 stones + 2 lent = 35"
        );
        assert_eq!(
            final_count(&pos, 0, 4, Lang::Vi),
            "1 quan + 23 dân + 4 dân trên hàng – nợ 2 = 35"
        );
    }
}

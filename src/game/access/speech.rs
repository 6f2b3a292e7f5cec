//! What a screen reader says about the board, in the player's language: a pit's name and what
//! it holds, a whole move (who sowed which pit which way, relays, captures, the turn's end and
//! whose move is next), the scores, the clocks and the moves the player can make. Built from
//! the rules state and a move's events only, so that every language says the same thing.

use crate::game::board::layout::{Layout, Side};
use crate::game::board::text;
pub use crate::game::board::text::pit_name;
use crate::game::play::clock::clock_text;
use crate::game::state::Game;
use crate::rules::geometry::{self, is_mandarin};
use crate::rules::{Direction, Event, Move};
use crate::session::Lang;

/// "5 stones", "1 stone", "empty".
pub fn stones(n: u32, lang: Lang) -> String {
    match n {
        0 => lang.tr("a11y.empty").to_owned(),
        1 => lang.tr("a11y.stone").to_owned(),
        n => lang.trf("a11y.stones", &[("n", &n)]),
    }
}

/// A pit as the board grid names it: "your pit 3, 5 stones"; a mandarin pit says whether its
/// mandarin is still there: "the left mandarin pit, the mandarin and 2 stones".
pub fn pit_label(game: &Game, layout: &Layout, pit: usize, lang: Lang) -> String {
    let pos = game.pos();
    let held = u32::from(pos.pits().get(pit).copied().unwrap_or(0));
    let name = pit_name(game, layout, pit, lang);
    let contents = if is_mandarin(pit) && pos.has_mandarin(geometry::owner(pit)) {
        match held {
            0 => lang.tr("a11y.mandarin_only").to_owned(),
            n => lang.trf("a11y.with_mandarin", &[("stones", &stones(n, lang))]),
        }
    } else {
        stones(held, lang)
    };
    format!("{name}, {contents}")
}

/// "to the left" or "to the right" of the screen, for `dir` sown from a pit of `owner`'s row.
fn toward(layout: &Layout, owner: usize, dir: Direction, lang: Lang) -> &'static str {
    lang.tr(match layout.side_for(owner, dir) {
        Side::Left => "a11y.to_left",
        Side::Right => "a11y.to_right",
    })
}

/// The whole of a move, said once as it starts to be shown: "The computer sowed the
/// computer's pit 8 to the left, 4 stones. Picked up 3 from your pit 2 and went on. The
/// computer captured 5 stones. Two empty pits: turn over. Your move."
///
/// `game` is the match after the move (its last entry is this move); `events` are the move's.
pub fn move_summary(game: &Game, layout: &Layout, events: &[Event], lang: Lang) -> String {
    let Some(entry) = game.history.entries().last() else {
        return String::new();
    };
    let who = text::who(game, entry.side, lang);
    let mut parts = Vec::new();
    if let Move::Sow { pit, dir } = entry.mv {
        let pit = usize::from(pit);
        let count = events.iter().find_map(|e| match *e {
            Event::PickUp { count, .. } => Some(u32::from(count)),
            _ => None,
        });
        parts.push(lang.trf(
            "a11y.sowed",
            &[
                ("who", &who),
                ("pit", &pit_name(game, layout, pit, lang)),
                ("side", &toward(layout, geometry::owner(pit), dir, lang)),
                ("stones", &stones(count.unwrap_or(0), lang)),
            ],
        ));
    }
    for event in events {
        let said = match *event {
            Event::Relay { pit, count } => Some(lang.trf(
                "a11y.relay",
                &[
                    ("stones", &stones(u32::from(count), lang)),
                    ("pit", &pit_name(game, layout, usize::from(pit), lang)),
                ],
            )),
            Event::GameOver { .. } => text::narrate(event, game, lang).map(|over| {
                format!(
                    "{over}. {}. {}",
                    lang.tr("a11y.game_over"),
                    scores(game, lang)
                )
            }),
            _ => text::narrate(event, game, lang),
        };
        parts.extend(said);
    }
    parts.extend(text::turn(game, lang));
    sentences(parts)
}

/// The parts as sentences: each ends with a full stop, joined by spaces.
fn sentences(parts: Vec<String>) -> String {
    parts
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| {
            if p.ends_with(['.', '!', '?', ':']) {
                p
            } else {
                p + "."
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The last move again, as it was announced, or "No move yet".
pub fn last_move(game: &Game, layout: &Layout, lang: Lang) -> String {
    let Some(entry) = game.history.entries().last() else {
        return lang.tr("a11y.no_move").to_owned();
    };
    let mut before = entry.before;
    match before.play(entry.mv) {
        Ok(outcome) => move_summary(game, layout, &outcome.events, lang),
        Err(_) => lang.tr("a11y.no_move").to_owned(),
    }
}

/// Every side's points and store: "You: 24 points, 14 stones + 1 mandarin. The computer: 9
/// points, 9 stones."
pub fn scores(game: &Game, lang: Lang) -> String {
    let pos = game.pos();
    let parts = (0..pos.players())
        .map(|side| {
            let store = pos.store(side);
            lang.trf(
                "a11y.score",
                &[
                    ("who", &text::who(game, side, lang)),
                    ("points", &pos.score(side)),
                    (
                        "store",
                        &text::store_contents(
                            i32::from(store.stones),
                            usize::from(store.mandarins),
                            lang,
                        ),
                    ),
                ],
            )
        })
        .collect();
    sentences(parts)
}

/// Every side's time left (`left`, per side of the board; empty when untimed).
pub fn clocks(game: &Game, left: &[i64], lang: Lang) -> String {
    if left.is_empty() {
        return lang.tr("a11y.no_clock").to_owned();
    }
    let parts = left
        .iter()
        .enumerate()
        .map(|(side, &ms)| format!("{}: {}", text::who(game, side, lang), clock_text(ms)))
        .collect();
    sentences(parts)
}

/// The moves the player at this device can make now: "You can sow your pit 1, your pit 3 or
/// your pit 4, each to the left or to the right."
pub fn legal_moves(game: &Game, layout: &Layout, lang: Lang) -> String {
    if game.history.is_over() {
        return lang.tr("a11y.game_over").to_owned();
    }
    if !game.human_to_move() {
        return text::turn(game, lang).unwrap_or_default();
    }
    let pits = crate::game::play::input::playable_pits(game, layout);
    let names: Vec<String> = pits
        .iter()
        .map(|&pit| pit_label(game, layout, pit, lang))
        .collect();
    let mut said = lang.trf("a11y.can_sow", &[("pits", &names.join("; "))]);
    if game.pos().can_swap() {
        said += " ";
        said += lang.tr("a11y.can_flip");
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::state::{Launch, Prefs};
    use crate::session::Settings;

    fn game() -> Game {
        let prefs = Prefs(Settings::default());
        Game::new(&prefs, &Launch::default(), 0)
    }

    #[test]
    fn pits_are_named_by_owner_number_and_contents_in_both_languages() {
        let game = game();
        let layout = Layout::new(2).nearest(game.viewer_side());
        assert_eq!(
            pit_label(&game, &layout, 2, Lang::En),
            "your pit 3, 5 stones"
        );
        assert_eq!(
            pit_label(&game, &layout, 2, Lang::Vi),
            "ô của bạn số 3, 5 viên"
        );
        assert_eq!(
            pit_label(&game, &layout, 7, Lang::En),
            "the computer's pit 7, 5 stones"
        );
        let mut mandarins = [5, 11].map(|pit| pit_label(&game, &layout, pit, Lang::En));
        mandarins.sort();
        assert_eq!(
            mandarins,
            [
                "the left mandarin pit, the mandarin alone",
                "the right mandarin pit, the mandarin alone"
            ]
        );
    }

    #[test]
    fn a_move_is_said_whole_with_its_pit_side_stones_captures_and_the_next_turn() {
        let mut game = game();
        let layout = Layout::new(2).nearest(game.viewer_side());
        let mv = Move::Sow {
            pit: 4,
            dir: Direction::CounterClockwise,
        };
        let outcome = game.history.play(mv).unwrap();
        let said = move_summary(&game, &layout, &outcome.events, Lang::En);
        let side = toward(&layout, 0, Direction::CounterClockwise, Lang::En);
        assert!(
            said.starts_with(&format!("You sowed your pit 5 {side}, 5 stones.")),
            "{said}"
        );
        assert!(said.ends_with("The computer's move."), "{said}");
        // Every capture of the move is in it.
        let captures = outcome
            .events
            .iter()
            .filter(|e| matches!(e, Event::Capture { .. }))
            .count();
        assert_eq!(said.matches("captured").count(), captures, "{said}");
        let vi = move_summary(&game, &layout, &outcome.events, Lang::Vi);
        assert!(vi.starts_with("Bạn rải ô của bạn số 5"), "{vi}");
        assert!(vi.ends_with("Đến lượt máy."), "{vi}");
        // "L" says it again, from the history alone.
        assert_eq!(last_move(&game, &layout, Lang::En), said);
    }

    #[test]
    fn scores_clocks_and_moves_read_aloud() {
        let game = game();
        let layout = Layout::new(2).nearest(game.viewer_side());
        assert_eq!(
            scores(&game, Lang::En),
            "You: 0 points, 0 stones. The computer: 0 points, 0 stones."
        );
        assert_eq!(clocks(&game, &[], Lang::En), "This game has no clock.");
        assert_eq!(
            clocks(&game, &[65_000, 9_500], Lang::En),
            "You: 1:05. The computer: 0:09.5."
        );
        let moves = legal_moves(&game, &layout, Lang::En);
        assert_eq!(moves.matches("your pit").count(), 5, "{moves}");
        assert!(moves.starts_with("You can sow your pit"), "{moves}");
        assert_eq!(last_move(&game, &layout, Lang::Vi), "Chưa có nước nào.");
    }
}

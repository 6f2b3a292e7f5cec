//! The end of an online game over the board: the result and its cause, the rating change, a
//! rematch (asked by every player), the review, and the opponent: a friend, a game later, a
//! report.

use bevy::prelude::*;

use super::client::{Online, Room};
use super::game_action::GameAction;
use crate::game::board::art::Art;
use crate::game::theme::part::Part;
use crate::game::theme::widget::{self, button, row, text};
use crate::net::protocol::{EndCause, GameResult, PlayerInfo};
use crate::net::room::RoomState;
use crate::session::Lang;

/// A finished game on the board, as its end panel shows it.
pub(super) struct Ended<'a> {
    pub room: &'a Room,
    pub state: &'a RoomState,
    pub result: &'a GameResult,
    pub online: &'a Online<'a>,
    /// The report's reasons are open.
    pub reporting: bool,
}

impl Ended<'_> {
    /// The panel, as a value.
    pub fn panel(&self, lang: Lang) -> EndPanel {
        let (room, state, result) = (self.room, self.state, self.result);
        EndPanel {
            lang,
            result: result_words(result, state, room.you, lang),
            rating: self.rating_words(lang),
            rematch: rematch_words(state, room.you, lang),
            next: self.next_buttons(),
            opponent: self.opponent_buttons(),
            reporting: self.reporting,
        }
    }

    /// The rating before and after, for a player of the game.
    fn rating_words(&self, lang: Lang) -> Option<String> {
        let seat = self.room.you?;
        let change = self.room.ratings.iter().find(|r| r.seat == seat)?;
        let delta = change.after - change.before;
        Some(lang.trf(
            "online.rating",
            &[
                ("before", &format!("{:.0}", change.before)),
                ("after", &format!("{:.0}", change.after)),
                ("change", &format!("{delta:+.0}")),
            ],
        ))
    }

    /// Rematch (unless asked already, aborted, or against a bot), leave, review.
    fn next_buttons(&self) -> Vec<(GameAction, &'static str)> {
        let (you, aborted) = (self.room.you, self.result.cause == EndCause::Aborted);
        let asked = you.is_some_and(|s| self.state.rematch_asked[s]);
        // A tournament's game has no rematch: the tournament pairs again. Nor a bot's: its
        // program plays the games it is challenged to (Play now offers another).
        let tournament = self.online.tournaments.of_room(&self.room.code).is_some();
        let bot = self.state.seats.iter().flatten().any(|p| p.bot);
        let mut buttons = Vec::new();
        if tournament {
            buttons.push((GameAction::Tournament, "tour.back"));
        } else if you.is_some() && !aborted && !asked && !bot {
            buttons.push((GameAction::Rematch, "online.rematch"));
        }
        buttons.push((GameAction::Leave, "online.leave"));
        if !aborted {
            buttons.push((GameAction::Review, "over.review"));
        }
        buttons
    }

    /// The opponent of a two-player game: be friends (not in child mode), a challenge for
    /// later (unless one waits), a report.
    fn opponent_buttons(&self) -> Vec<(GameAction, &'static str)> {
        let state = self.state;
        let opponent = self
            .room
            .you
            .and_then(|you| (0..state.players()).find(|&s| s != you))
            .and_then(|s| state.seats[s].as_ref());
        let Some(opponent) = opponent.filter(|_| state.players() == 2) else {
            return Vec::new();
        };
        let people = &self.online.people;
        let mut buttons = Vec::new();
        if people.friend(&opponent.id).is_none() && !people.child {
            buttons.push((GameAction::AddFriend, "people.add"));
        }
        if !people.outgoing.iter().any(|c| c.to.id == opponent.id) {
            buttons.push((GameAction::ChallengeLater, "people.later"));
        }
        buttons.push((GameAction::Report, "people.report"));
        buttons
    }
}

/// The end panel, as a value: the result in words, the rating's change, a rematch asked, the
/// buttons (what comes next; the opponent), and the report's reasons when open.
#[derive(PartialEq)]
pub(super) struct EndPanel {
    lang: Lang,
    result: String,
    rating: Option<String>,
    rematch: Option<String>,
    /// The buttons and their words' keys.
    next: Vec<(GameAction, &'static str)>,
    opponent: Vec<(GameAction, &'static str)>,
    reporting: bool,
}

impl Part for EndPanel {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        let centred = || TextLayout::justify(Justify::Center);
        p.spawn((widget::title(art, self.result.clone(), 24.0), centred()));
        if let Some(rating) = &self.rating {
            p.spawn((text(art, rating.clone(), 18.0), centred()));
        }
        // A rematch opens only when every player asked for it.
        if let Some(asked) = &self.rematch {
            p.spawn((text(art, asked.clone(), 16.0), centred()));
        }
        let buttons = |r: &mut ChildSpawnerCommands, buttons: &[(GameAction, &'static str)]| {
            for (action, key) in buttons {
                r.spawn(button(art, *action, lang.tr(key)));
            }
        };
        p.spawn(centred_row())
            .with_children(|r| buttons(r, &self.next));
        // The opponent: a friend from now on, or a game another day.
        if !self.opponent.is_empty() {
            p.spawn(centred_row())
                .with_children(|r| buttons(r, &self.opponent));
        }
        if self.reporting {
            p.spawn((text(art, lang.tr("people.report.why"), 15.0), centred()));
            p.spawn(centred_row()).with_children(|r| {
                for reason in crate::net::social::ReportReason::ALL {
                    let key = super::pages::reason_key(reason);
                    r.spawn(button(art, GameAction::ReportAs(reason), lang.tr(key)));
                }
            });
        }
    }
}

/// "You", the opponent's name, or a seat's player's name.
pub(super) fn name_of(state: &RoomState, seat: usize, you: Option<usize>, lang: Lang) -> String {
    if Some(seat) == you {
        return lang.tr("who.you").to_owned();
    }
    state.seats[seat].as_ref().map_or_else(
        || lang.tr("who.opponent").to_owned(),
        PlayerInfo::shown_name,
    )
}

/// A row of buttons, centred and wrapping.
fn centred_row() -> Node {
    Node {
        justify_content: JustifyContent::Center,
        flex_wrap: FlexWrap::Wrap,
        ..row()
    }
}

/// The result in words: who won and why.
pub fn result_words(
    result: &GameResult,
    state: &RoomState,
    you: Option<usize>,
    lang: Lang,
) -> String {
    let by = result
        .by
        .map(|s| name_of(state, s, you, lang))
        .unwrap_or_default();
    let cause = match result.cause {
        EndCause::Rules => String::new(),
        EndCause::Time => lang.trf("online.end.time", &[("who", &by)]),
        EndCause::Resign => lang.trf("online.end.resign", &[("who", &by)]),
        EndCause::Agreed => lang.tr("online.end.agreed").to_owned(),
        EndCause::Abandoned => lang.trf("online.end.abandoned", &[("who", &by)]),
        EndCause::Aborted => return lang.tr("online.end.aborted").to_owned(),
    };
    let winners: Vec<usize> = (0..result.places.len())
        .filter(|&s| result.places[s] == 0)
        .collect();
    let headline = match winners.as_slice() {
        [one] if Some(*one) == you => lang.tr("over.you_win").to_owned(),
        [one] => lang.trf("over.wins", &[("who", &name_of(state, *one, you, lang))]),
        _ => lang.tr("over.draw").to_owned(),
    };
    let scores = result
        .scores
        .iter()
        .enumerate()
        .map(|(s, score)| format!("{} {score}", name_of(state, s, you, lang)))
        .collect::<Vec<_>>()
        .join(" · ");
    [headline, cause, scores]
        .into_iter()
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// What the game-over panel says of a rematch: asked by us (waiting for the others), or by an
/// opponent (ours to accept with Rematch).
fn rematch_words(state: &RoomState, you: Option<usize>, lang: Lang) -> Option<String> {
    let you = you?;
    if state.rematch_asked[you] {
        return Some(lang.tr("online.rematch.asked").to_owned());
    }
    let theirs = (0..state.players()).any(|s| s != you && state.rematch_asked[s]);
    theirs.then(|| lang.tr("online.rematch.theirs").to_owned())
}

//! "My games": our games by days, ours to move first with the time left on each, each opened
//! on the board with a press; and our vacation (days left this year, take some off, come back).

use bevy::prelude::*;

use super::PageAction;
use super::kit::{centred_row, header, wrapping_row};
use super::news_words;
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::theme::widget::{bold, button, text};
use crate::net::correspondence::{MyGame, time_words};
use crate::rules::presets;
use crate::session::Lang;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        OnEnter(super::OnlinePage::Games),
        |mut commands: Commands| {
            let ask = crate::net::protocol::ClientMessage::MyGames;
            commands.trigger(crate::game::online::client::Ask::Say(ask));
        },
    );
}

/// Vacation lengths offered at a press.
const VACATIONS: [u8; 3] = [3, 7, 14];

/// One of our games by days in words: whose move, against whom, its rules, the time left.
pub fn game_line(g: &MyGame, lang: Lang) -> String {
    let state = if g.left_ms.is_none() {
        lang.tr("games.open_seat")
    } else if g.your_turn {
        lang.tr("games.yours")
    } else {
        lang.tr("games.theirs")
    };
    let rules = presets::get(&g.preset).map_or(g.preset.clone(), |p| lang.pick(&p.name).to_owned());
    let mut line = state.to_owned();
    if !g.opponent.is_empty() {
        line.push_str(&format!(" · {}", g.opponent));
    }
    line.push_str(&format!(" · {rules}"));
    if let Some(left) = g.left_ms {
        let time = time_words(left, lang);
        line.push_str(&format!(
            " · {}",
            lang.trf("games.left", &[("time", &time)])
        ));
    }
    if g.paused {
        line.push_str(&format!(" ({})", lang.tr("games.paused")));
    }
    line
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    narrow: bool,
) {
    header(p, art, lang, lang.tr("games.title").to_owned());
    if let Some(news) = &online.people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    super::kit::problem_line(p, art, lang, online);
    let Some((games, vacation)) = &online.correspondence.my_games else {
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        return;
    };
    if games.is_empty() {
        p.spawn(text(art, lang.tr("games.none"), 16.0));
    }
    let shown = if narrow { 5 } else { 9 };
    for g in games.iter().take(shown) {
        p.spawn(wrapping_row()).with_children(|r| {
            r.spawn(button(
                art,
                PageAction::OpenGame(g.code.clone()),
                lang.tr("games.open"),
            ));
            if g.your_turn {
                r.spawn(bold(art, game_line(g, lang), 16.0));
            } else {
                r.spawn(text(art, game_line(g, lang), 16.0));
            }
        });
    }
    if games.len() > shown {
        p.spawn(text(
            art,
            lang.trf("people.more", &[("n", &(games.len() - shown))]),
            15.0,
        ));
    }
    p.spawn(centred_row()).with_child(button(
        art,
        PageAction::Open(super::OnlinePage::Notifications),
        lang.tr("notify.title"),
    ));
    let now = online.connection.server_now();
    match vacation.until_ms {
        Some(until) => {
            let left = time_words(until - now, lang);
            p.spawn(bold(art, lang.trf("vacation.on", &[("left", &left)]), 16.0));
            p.spawn(centred_row()).with_child(button(
                art,
                PageAction::Vacation(0),
                lang.tr("vacation.end"),
            ));
        }
        None => {
            let day = vacation.day_ms.max(1);
            let days = vacation.left_ms / day;
            p.spawn(text(
                art,
                lang.trf("vacation.left", &[("days", &days)]),
                16.0,
            ));
            p.spawn(centred_row()).with_children(|r| {
                for n in VACATIONS.iter().filter(|&&n| i64::from(n) <= days) {
                    r.spawn(button(
                        art,
                        PageAction::Vacation(*n),
                        lang.trf("vacation.take", &[("n", n)]),
                    ));
                }
            });
        }
    }
}

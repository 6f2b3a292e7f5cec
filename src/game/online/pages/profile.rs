//! A profile page: the rating with its provisional mark, the record, the rating-over-time
//! graph, the recent games (each opens in the review); on another's, add, challenge, block and
//! report.

use bevy::prelude::*;

use super::PageAction;
use super::kit::{centred_row, header, wrapping_row};
use super::news_words;
use super::state::OnlinePage;
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::online::graph;
use crate::game::theme::widget::{bold, button, row, text};
use crate::net::social::{ReportReason, rating_label};
use crate::rules::presets;
use crate::session::Lang;

/// The page's form: whose profile it is (another player's id; ours when none), and whether
/// the report's reasons are shown.
#[derive(Resource, Debug, Default, Clone, PartialEq)]
pub struct ProfileForm {
    pub other: Option<String>,
    pub reporting: bool,
}

pub(super) fn plugin(app: &mut App) {
    // Made by the page's opener, which names the player (and asks for the profile).
    super::page_form::<ProfileForm>(app, OnlinePage::Profile);
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    (form, profile): (&ProfileForm, Option<&crate::net::social::Profile>),
    (graph, ratings): (Option<Handle<Image>>, &[f64]),
    narrow: bool,
) {
    let Some(profile) = profile else {
        header(p, art, lang, lang.tr("people.profile").to_owned());
        p.spawn(text(art, lang.tr("online.connecting"), 16.0));
        return;
    };
    let player = &profile.player;
    header(p, art, lang, player.name.clone());
    if let Some(news) = &online.people.news {
        p.spawn(bold(art, news_words(news, lang), 16.0));
    }
    let games = profile.won + profile.lost + profile.drawn;
    p.spawn(bold(
        art,
        lang.trf(
            "people.rating",
            &[("rating", &rating_label(player.rating, player.deviation))],
        ),
        20.0,
    ));
    if crate::net::social::provisional(player.deviation) {
        p.spawn(text(art, lang.tr("people.provisional"), 14.0));
    }
    p.spawn(text(
        art,
        lang.trf(
            "people.record",
            &[
                ("games", &games),
                ("won", &profile.won),
                ("lost", &profile.lost),
                ("drawn", &profile.drawn),
            ],
        ),
        16.0,
    ));
    rating_graph(p, art, lang, graph, ratings, narrow);
    recent_games(p, art, lang, profile, narrow);
    actions(p, art, lang, online, form, profile);
}

/// The rating after each rated game, as a graph with its range (or why there is none).
fn rating_graph(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    graph: Option<Handle<Image>>,
    ratings: &[f64],
    narrow: bool,
) {
    match graph {
        Some(graph) => {
            let (lo, hi) = graph::range(ratings);
            // Narrower on a phone, and as much lower, so that the line keeps its slopes.
            let graph_height = if narrow { 90.0 } else { graph::HEIGHT as f32 };
            p.spawn(row()).with_children(|r| {
                r.spawn(Node {
                    flex_direction: FlexDirection::Column,
                    justify_content: JustifyContent::SpaceBetween,
                    height: px(graph_height),
                    ..default()
                })
                .with_children(|c| {
                    c.spawn(text(art, format!("{hi:.0}"), 13.0));
                    c.spawn(text(art, format!("{lo:.0}"), 13.0));
                });
                r.spawn((
                    ImageNode::new(graph),
                    Node {
                        width: px(graph::WIDTH as f32 * graph_height / graph::HEIGHT as f32),
                        height: px(graph_height),
                        ..default()
                    },
                ));
            });
        }
        None => {
            p.spawn(text(art, lang.tr("online.leaderboard.empty"), 15.0));
        }
    }
}

/// The last games, each with Review (fewer on a phone).
fn recent_games(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    profile: &crate::net::social::Profile,
    narrow: bool,
) {
    if !profile.games.is_empty() {
        p.spawn(bold(art, lang.tr("people.recent"), 17.0));
    }
    for game in profile.games.iter().rev().take(if narrow { 3 } else { 5 }) {
        p.spawn(wrapping_row()).with_children(|r| {
            let outcome = lang.tr(match game.outcome {
                crate::net::social::Outcome::Won => "people.won",
                crate::net::social::Outcome::Lost => "people.lost",
                crate::net::social::Outcome::Drawn => "people.drawn",
            });
            let preset = presets::get(&game.preset)
                .map_or(game.preset.clone(), |p| lang.pick(&p.name).to_owned());
            let line = format!(
                "{outcome} · {} · {preset} · {:.0}",
                game.opponents.join(", "),
                game.rating
            );
            r.spawn(text(art, line, 15.0));
            r.spawn(button(
                art,
                PageAction::Review(game.code.clone()),
                lang.tr("over.review"),
            ));
        });
    }
}

/// One's own: Account and Friends; another's: Challenge or Add, Remove, Block, Report (and its
/// reasons once asked).
fn actions(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    form: &ProfileForm,
    profile: &crate::net::social::Profile,
) {
    let player = &profile.player;
    let own = form.other.is_none();
    p.spawn(centred_row()).with_children(|r| {
        if own {
            r.spawn(button(
                art,
                PageAction::Open(OnlinePage::Account),
                lang.tr("people.account"),
            ));
            r.spawn(button(
                art,
                PageAction::Open(OnlinePage::Friends),
                lang.tr("people.friends"),
            ));
        } else {
            let id = player.id.clone();
            if profile.friend {
                r.spawn(button(
                    art,
                    PageAction::Challenge(id.clone()),
                    lang.tr("people.challenge"),
                ));
                r.spawn(button(
                    art,
                    PageAction::Remove(id.clone()),
                    lang.tr("people.remove"),
                ));
            } else if !online.people.child {
                r.spawn(button(
                    art,
                    PageAction::AddOpponent(id.clone()),
                    lang.tr("people.add"),
                ));
            }
            r.spawn(button(
                art,
                PageAction::Block(id.clone()),
                lang.tr("people.block"),
            ));
            r.spawn(button(
                art,
                PageAction::StartReport,
                lang.tr("people.report"),
            ));
        }
    });
    if form.reporting && !own {
        p.spawn(text(art, lang.tr("people.report.why"), 15.0));
        p.spawn(centred_row()).with_children(|r| {
            for reason in ReportReason::ALL {
                let key = super::reason_key(reason);
                r.spawn(button(
                    art,
                    PageAction::Report(player.id.clone(), reason),
                    lang.tr(key),
                ));
            }
        });
    }
}

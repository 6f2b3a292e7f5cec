//! The pages drawn: the first visit's question, a link's question, or the open page in its
//! panel (each page draws itself with the widgets of `kit`).

use bevy::window::PrimaryWindow;

use bevy::prelude::*;

use super::kit::centred_row;
use super::{Page, Pages, PeopleAction};
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::online::form::Form;
use crate::game::online::room_link;
use crate::game::online::{graph, qr};
use crate::game::screens::ui::{self, button, panel, text};
use crate::game::state::{Prefs, Screen};

#[derive(Component)]
pub(super) struct PagesRoot;

#[allow(clippy::too_many_arguments)]
pub(super) fn build(
    mut commands: Commands,
    art: Res<Art>,
    prefs: Res<Prefs>,
    online: Res<Online>,
    pages: Res<Pages>,
    form: Res<Form>,
    device: Res<crate::game::online::push::PushDevice>,
    mut images: ResMut<Assets<Image>>,
    mut qr_of: Local<Option<(String, Handle<Image>)>>,
    mut graph_of: Local<Option<(Vec<f64>, Handle<Image>)>>,
    roots: Query<Entity, With<PagesRoot>>,
    window: Option<Single<&Window, With<PrimaryWindow>>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    let lang = prefs.lang();
    // A phone shows fewer lines: smaller QR codes, fewer friends and games.
    let narrow = window.is_some_and(|w| w.width() < 700.0);
    let who_plays = super::asking_who_plays(&online, &prefs);
    if pages.page == Page::None && !who_plays && online.offer.is_none() {
        return;
    }
    let mut qr = |text: &str, images: &mut Assets<Image>| {
        // Drawn once per text, not at every rebuild.
        if qr_of.as_ref().is_none_or(|(t, _)| t != text) {
            *qr_of = qr::image(text).map(|image| (text.to_owned(), images.add(image)));
        }
        qr_of.as_ref().map(|(_, h)| h.clone())
    };
    let root = commands
        .spawn((PagesRoot, DespawnOnExit(Screen::Online), ui::backdrop(0.55)))
        .id();
    let people = &online.people;
    if who_plays {
        commands.entity(root).with_children(|b| {
            b.spawn(panel(520.0)).with_children(|p| {
                p.spawn(ui::title(&art, lang.tr("people.who"), 24.0));
                p.spawn(text(&art, lang.tr("people.who.why"), 16.0));
                p.spawn(centred_row()).with_children(|r| {
                    r.spawn(button(
                        &art,
                        PeopleAction::WhoPlays(true),
                        lang.tr("people.who.child"),
                    ));
                    r.spawn(button(
                        &art,
                        PeopleAction::WhoPlays(false),
                        lang.tr("people.who.adult"),
                    ));
                });
            });
        });
        return;
    }
    if let Some(offer) = &online.offer {
        commands.entity(root).with_children(|b| {
            b.spawn(panel(560.0)).with_children(|p| {
                super::offer::page(p, &art, lang, &online, offer);
            });
        });
        return;
    }
    match pages.page {
        Page::None => {}
        Page::Friends => {
            let code = people
                .profile
                .as_ref()
                .and_then(|p| p.friend_code.clone())
                .unwrap_or_default();
            let friend_link = friend_link(&prefs.0, &code);
            let qr = (!code.is_empty())
                .then(|| qr(&friend_link, &mut images))
                .flatten();
            commands.entity(root).with_children(|b| {
                b.spawn(panel(640.0)).with_children(|p| {
                    super::friends::page(p, &art, lang, &online, &pages, &form, &code, qr, narrow);
                });
            });
        }
        Page::Profile => {
            let profile = match &pages.other {
                Some(id) => people.viewed.as_ref().filter(|p| p.player.id == *id),
                None => people.profile.as_ref(),
            };
            let ratings: Vec<f64> = profile
                .map(|p| p.games.iter().map(|g| g.rating).collect())
                .unwrap_or_default();
            let graph = (!ratings.is_empty()).then(|| {
                if graph_of.as_ref().is_none_or(|(r, _)| *r != ratings) {
                    *graph_of = Some((ratings.clone(), images.add(graph::image(&ratings))));
                }
                graph_of.as_ref().map(|(_, h)| h.clone())
            });
            commands.entity(root).with_children(|b| {
                b.spawn(panel(600.0)).with_children(|p| {
                    super::profile::page(
                        p,
                        &art,
                        lang,
                        &online,
                        &pages,
                        profile,
                        graph.flatten(),
                        &ratings,
                        narrow,
                    );
                });
            });
        }
        Page::PlayNow => {
            commands.entity(root).with_children(|b| {
                b.spawn(panel(600.0)).with_children(|p| {
                    super::play_now::page(p, &art, lang, &online, &form);
                });
            });
        }
        Page::Notifications => {
            commands.entity(root).with_children(|b| {
                b.spawn(panel(600.0)).with_children(|p| {
                    super::notifications::page(p, &art, lang, &online, &pages, &device);
                });
            });
        }
        Page::Games => {
            commands.entity(root).with_children(|b| {
                b.spawn(panel(640.0)).with_children(|p| {
                    super::games::page(p, &art, lang, &online, narrow);
                });
            });
        }
        Page::Account => {
            let link = people
                .link_code
                .as_ref()
                .map(|(c, _)| link_link(&prefs.0, c));
            let qr = link.as_deref().and_then(|l| qr(l, &mut images));
            commands.entity(root).with_children(|b| {
                b.spawn(panel(640.0)).with_children(|p| {
                    super::account::page(p, &art, lang, &online, &pages, qr, narrow);
                });
            });
        }
    }
}

/// The link in a friend code's QR: the game's page, which adds the friend when opened.
fn friend_link(settings: &crate::session::Settings, code: &str) -> String {
    let room = room_link(settings, "X");
    format!(
        "{}?friend={code}",
        room.split('?').next().unwrap_or_default()
    )
}

/// The link in a link code's QR: the game's page, which becomes this player when opened.
fn link_link(settings: &crate::session::Settings, code: &str) -> String {
    let room = room_link(settings, "X");
    format!("{}?link={code}", room.split('?').next().unwrap_or_default())
}

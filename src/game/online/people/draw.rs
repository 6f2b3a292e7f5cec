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
use crate::game::state::{Prefs, Screen};
use crate::game::theme::part::Parts;
use crate::game::theme::widget::{self, button, panel, text};
use crate::game::theme::{page, target};

#[derive(Component)]
pub(super) struct PagesRoot;

/// What the pages' layer shows: the first visit's question, a link's question, or a page (whose
/// other player or tournament it is), laid out for a phone or not.
#[derive(Clone, PartialEq)]
pub(super) enum Face {
    WhoPlays,
    Offer,
    Page(Page, Option<String>, Option<String>),
}

/// The part of the layer drawn again as the pages' state changes: the question's panel, or the
/// page's body (which scrolls).
#[derive(Component)]
pub(super) struct Content;

/// The pages follow their state: the layer spawned when its face changes (another page, the
/// window between a phone's and a larger one), else its content drawn again in the same panel,
/// so that a page keeps how far it was scrolled through the news it shows.
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
    mut pictures_of: Local<(
        Option<(String, Handle<Image>)>,
        Option<(Vec<f64>, Handle<Image>)>,
    )>,
    mut spawned: Local<Option<(Face, bool)>>,
    roots: Query<Entity, With<PagesRoot>>,
    content: Option<Single<Entity, With<Content>>>,
    (headers, parents): (Query<Entity, With<page::PageHeader>>, Query<&ChildOf>),
    window: Option<Single<&Window, With<PrimaryWindow>>>,
    scale: Res<UiScale>,
    mut parts: Parts,
) {
    let lang = prefs.lang();
    let narrow = window.as_ref().is_some_and(|w| w.width() < 700.0);
    let phone = window.is_some_and(|w| target::phone_sized(w.size() / scale.0));
    let Some(face) = Face::of(&online, &prefs, &pages) else {
        for root in &roots {
            commands.entity(root).despawn();
        }
        *spawned = None;
        return;
    };
    let now = Some((face.clone(), phone));
    // A page made of parts is given what they show (drawn again where that changed).
    if content.is_some()
        && *spawned == now
        && pages.page == Page::PlayNow
        && super::play_now::show(&mut parts, lang, &online, &form)
    {
        return;
    }
    let into = match content.map(|c| *c) {
        Some(content) if *spawned == now => {
            emptied(&mut commands, content, &headers, &parents);
            content
        }
        _ => {
            for root in &roots {
                commands.entity(root).despawn();
            }
            *spawned = now;
            spawn_layer(&mut commands, &face, phone, pages.page)
        }
    };
    let (qr_of, graph_of) = &mut *pictures_of;
    let mut drawn = Drawn {
        images: &mut images,
        qr_of,
        graph_of,
    };
    let shown = PageSources {
        art: &art,
        lang,
        online: &online,
        pages: &pages,
        form: &form,
        device: &device,
        narrow,
    };
    commands
        .entity(into)
        .with_children(|p| match (&face, &online.offer) {
            (Face::WhoPlays, _) => who_plays_page(p, &art, lang),
            (Face::Offer, Some(offer)) => super::offer::page(p, &art, lang, &online, offer),
            (Face::Offer, None) => {}
            (Face::Page(..), _) => {
                let pictures = drawn.pictures(&shown, &prefs.0);
                shown.page(p, pictures);
            }
        });
}

/// `content` emptied to be drawn again, with the page's header that was lifted out of it to the
/// frame's top.
fn emptied(
    commands: &mut Commands,
    content: Entity,
    headers: &Query<Entity, With<page::PageHeader>>,
    parents: &Query<&ChildOf>,
) {
    commands.entity(content).despawn_children();
    let frame = parents.get(content).map(ChildOf::parent).ok();
    let lifted = headers
        .iter()
        .filter(|h| parents.get(*h).ok().map(ChildOf::parent) == frame);
    lifted.for_each(|header| commands.entity(header).despawn());
}

impl Face {
    /// What the layer shows now; nothing when no page is open and nothing is asked.
    fn of(online: &Online, prefs: &Prefs, pages: &Pages) -> Option<Face> {
        if super::asking_who_plays(online, prefs) {
            Some(Face::WhoPlays)
        } else if online.offer.is_some() {
            Some(Face::Offer)
        } else if pages.page != Page::None {
            let page = Face::Page(pages.page, pages.other.clone(), pages.tournament.clone());
            Some(page)
        } else {
            None
        }
    }
}

/// The layer over the screen for `face`: its backdrop and its panel (a page's frame and body);
/// the entity its content goes in.
fn spawn_layer(commands: &mut Commands, face: &Face, phone: bool, page: Page) -> Entity {
    // A page hides the board (a question only dims it).
    let dim = if phone || matches!(face, Face::Page(..)) {
        1.0
    } else {
        0.55
    };
    let root = commands
        .spawn((
            PagesRoot,
            DespawnOnExit(Screen::Online),
            widget::backdrop(dim),
        ))
        .id();
    let width = match face {
        Face::WhoPlays => 520.0,
        Face::Offer => 560.0,
        Face::Page(..) => page_width(page),
    };
    let mut content = Entity::PLACEHOLDER;
    commands.entity(root).with_children(|b| {
        if matches!(face, Face::Page(..)) {
            b.spawn(page::page(width, phone)).with_children(|p| {
                content = p.spawn((page::page_body(), Content)).id();
            });
        } else {
            content = b.spawn((panel(width), Content)).id();
        }
    });
    content
}

/// "Who is playing on this device?", asked on the first visit.
fn who_plays_page(p: &mut ChildSpawnerCommands, art: &Art, lang: crate::session::Lang) {
    p.spawn(widget::title(art, lang.tr("people.who"), 24.0));
    p.spawn(text(art, lang.tr("people.who.why"), 16.0));
    p.spawn(centred_row()).with_children(|r| {
        let child = lang.tr("people.who.child");
        r.spawn(button(art, PeopleAction::WhoPlays(true), child));
        let adult = lang.tr("people.who.adult");
        r.spawn(button(art, PeopleAction::WhoPlays(false), adult));
    });
}

/// The panel's width for each page.
fn page_width(page: Page) -> f32 {
    match page {
        Page::Friends | Page::Games | Page::Account | Page::Tournaments | Page::Tournament => 640.0,
        _ => 600.0,
    }
}

/// The pictures a page shows, drawn once per text or per graph, not at every rebuild.
struct Drawn<'a> {
    images: &'a mut Assets<Image>,
    qr_of: &'a mut Option<(String, Handle<Image>)>,
    graph_of: &'a mut Option<(Vec<f64>, Handle<Image>)>,
}

/// The pictures for the open page: a QR code, the rating graph and its ratings.
#[derive(Default)]
struct Pictures {
    qr: Option<Handle<Image>>,
    graph: Option<Handle<Image>>,
    ratings: Vec<f64>,
}

impl Drawn<'_> {
    fn qr(&mut self, text: &str) -> Option<Handle<Image>> {
        if self.qr_of.as_ref().is_none_or(|(t, _)| t != text) {
            *self.qr_of = qr::image(text).map(|image| (text.to_owned(), self.images.add(image)));
        }
        self.qr_of.as_ref().map(|(_, h)| h.clone())
    }

    fn graph(&mut self, ratings: &[f64]) -> Option<Handle<Image>> {
        if ratings.is_empty() {
            return None;
        }
        if self.graph_of.as_ref().is_none_or(|(r, _)| r != ratings) {
            let image = self.images.add(graph::image(ratings));
            *self.graph_of = Some((ratings.to_vec(), image));
        }
        self.graph_of.as_ref().map(|(_, h)| h.clone())
    }

    fn pictures(&mut self, shown: &PageSources, settings: &crate::session::Settings) -> Pictures {
        let people = &shown.online.people;
        match shown.pages.page {
            Page::Friends => {
                let code = shown.friend_code();
                let qr = (!code.is_empty())
                    .then(|| self.qr(&friend_link(settings, &code)))
                    .flatten();
                Pictures { qr, ..default() }
            }
            Page::Profile => {
                let ratings: Vec<f64> = shown
                    .profile()
                    .map(|p| p.games.iter().map(|g| g.rating).collect())
                    .unwrap_or_default();
                Pictures {
                    graph: self.graph(&ratings),
                    ratings,
                    ..default()
                }
            }
            Page::Account => {
                let link = people
                    .link_code
                    .as_ref()
                    .map(|(c, _)| link_link(settings, c));
                Pictures {
                    qr: link.and_then(|l| self.qr(&l)),
                    ..default()
                }
            }
            Page::Tournament => {
                let id = shown.pages.tournament.as_deref().unwrap_or_default();
                let link = super::tournaments::tournament_link(settings, id);
                Pictures {
                    qr: (!id.is_empty()).then(|| self.qr(&link)).flatten(),
                    ..default()
                }
            }
            _ => Pictures::default(),
        }
    }
}

/// What the open page is drawn from.
struct PageSources<'a> {
    art: &'a Art,
    lang: crate::session::Lang,
    online: &'a Online,
    pages: &'a Pages,
    form: &'a Form,
    device: &'a crate::game::online::push::PushDevice,
    /// A phone shows fewer lines: smaller QR codes, fewer friends and games.
    narrow: bool,
}

impl PageSources<'_> {
    fn friend_code(&self) -> String {
        let profile = self.online.people.profile.as_ref();
        profile
            .and_then(|p| p.friend_code.clone())
            .unwrap_or_default()
    }

    /// The profile the page shows: another player's, or ours.
    fn profile(&self) -> Option<&crate::net::social::Profile> {
        let people = &self.online.people;
        match &self.pages.other {
            Some(id) => people.viewed.as_ref().filter(|p| p.player.id == *id),
            None => people.profile.as_ref(),
        }
    }

    fn page(&self, p: &mut ChildSpawnerCommands, pictures: Pictures) {
        let (art, lang, online, pages) = (self.art, self.lang, self.online, self.pages);
        let narrow = self.narrow;
        match pages.page {
            Page::None => {}
            Page::Friends => {
                let code = self.friend_code();
                let (form, qr) = (self.form, pictures.qr);
                super::friends::page(p, art, lang, online, pages, form, &code, qr, narrow);
            }
            Page::Profile => super::profile::page(
                p,
                art,
                lang,
                online,
                pages,
                self.profile(),
                pictures.graph,
                &pictures.ratings,
                narrow,
            ),
            Page::PlayNow => super::play_now::page(p, art, lang, online, self.form),
            Page::Notifications => {
                super::notifications::page(p, art, lang, online, pages, self.device)
            }
            Page::Games => super::games::page(p, art, lang, online, narrow),
            Page::Account => super::account::page(p, art, lang, online, pages, pictures.qr, narrow),
            Page::Tournaments => super::tournaments::list_page(p, art, lang, online, pages, narrow),
            Page::NewTournament => {
                super::tournaments::draft_page(p, art, lang, online, pages, self.form)
            }
            Page::Tournament => super::tournament::TournamentPage {
                art,
                lang,
                online,
                pages,
                qr: pictures.qr,
                narrow,
            }
            .draw(p),
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

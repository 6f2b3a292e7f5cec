//! The pages drawn: the first visit's question, a link's question, or the open page in its
//! panel (each page draws itself with the widgets of `kit`), spawned when what the screen shows
//! (`Showing`) changes and drawn again in the same panel when what the page shows changes.

use bevy::ecs::system::SystemParam;
use bevy::window::PrimaryWindow;

use bevy::prelude::*;

use super::kit::centred_row;
use super::state::{Asked, OnlinePage, Showing};
use super::{
    AccountForm, Draft, FriendsForm, MailForm, PageAction, ProfileForm, TournamentForm,
    TournamentsForm,
};
use crate::game::board::art::Art;
use crate::game::online::client::{Online, OnlineRead};
use crate::game::online::field::Typing;
use crate::game::online::form::Form;
use crate::game::online::push::PushDevice;
use crate::game::online::room_link;
use crate::game::online::{graph, qr};
use crate::game::state::{Prefs, Screen};
use crate::game::theme::widget::{self, button, panel, text};
use crate::game::theme::{page, target};

#[derive(Component)]
pub(super) struct PagesRoot;

/// The part of the layer drawn again as the page's state changes: the question's panel, or the
/// page's body (which scrolls).
#[derive(Component)]
pub(super) struct Content;

/// The open page's form, read to draw it (each is there while its page is open).
#[derive(SystemParam)]
pub(super) struct PageForms<'w> {
    friends: Option<Res<'w, FriendsForm>>,
    profile: Option<Res<'w, ProfileForm>>,
    account: Option<Res<'w, AccountForm>>,
    mail: Option<Res<'w, MailForm>>,
    tournaments: Option<Res<'w, TournamentsForm>>,
    draft: Option<Res<'w, Draft>>,
    tournament: Option<Res<'w, TournamentForm>>,
}

impl PageForms<'_> {
    fn changed(&self) -> bool {
        fn changed<T: Resource>(form: &Option<Res<T>>) -> bool {
            form.as_ref().is_some_and(|f| f.is_changed())
        }
        changed(&self.friends)
            || changed(&self.profile)
            || changed(&self.account)
            || changed(&self.mail)
            || changed(&self.tournaments)
            || changed(&self.draft)
            || changed(&self.tournament)
    }

    /// What names the page's subject, beside the page: another player, a tournament.
    fn subject(&self) -> Option<String> {
        let other = self.profile.as_ref().and_then(|f| f.other.clone());
        other.or_else(|| self.tournament.as_ref().map(|f| f.id.clone()))
    }
}

/// What the pages are drawn from, beside their forms.
#[derive(SystemParam)]
pub(super) struct Sources<'w> {
    showing: Res<'w, State<Showing>>,
    art: Res<'w, Art>,
    prefs: Res<'w, Prefs>,
    online: OnlineRead<'w>,
    form: Res<'w, Form>,
    device: Res<'w, PushDevice>,
    typing: Res<'w, Typing>,
    forms: PageForms<'w>,
}

/// Whether anything a page shows changed since it was drawn.
pub(super) fn news(sources: Sources) -> bool {
    sources.showing.is_changed()
        || shown_part_changed(*sources.showing.get(), &sources.online)
        || sources.prefs.is_changed()
        || sources.form.is_changed()
        || sources.device.is_changed()
        || sources.typing.is_changed()
        || sources.forms.changed()
}

/// Whether a part of online play's state that what shows draws changed: each page reads who
/// we are and the connection's problem, and its own part besides.
fn shown_part_changed(showing: Showing, online: &OnlineRead) -> bool {
    use OnlinePage::*;
    let own = match showing {
        Showing::Page(Friends | Profile | Account) => online.people.is_changed(),
        Showing::Page(Games) => online.correspondence.is_changed() || online.people.is_changed(),
        Showing::Page(Notifications) => online.correspondence.is_changed(),
        Showing::Page(Tournaments | Tournament | NewTournament) => {
            online.tournaments.is_changed() || online.people.is_changed()
        }
        Showing::Page(PlayNow) => online.lobby.is_changed() || online.people.is_changed(),
        _ => return online.changed(),
    };
    own || online.connection.is_changed() || online.identity.is_changed()
}

/// The layer spawned for: what shows, the window a phone's or not, the page's subject.
type Spawned = (Showing, bool, Option<String>);

/// The pages follow their state: the layer spawned when what shows changes (another page,
/// another player's or tournament's, the window between a phone's and a larger one), else its
/// content drawn again in the same panel, so that a page keeps how far it was scrolled through
/// the news it shows. A page made of parts (Play now) keeps them current itself.
pub(super) fn build(
    mut commands: Commands,
    sources: Sources,
    mut images: ResMut<Assets<Image>>,
    (mut drawn, mut spawned): (Local<Drawn>, Local<Option<Spawned>>),
    (roots, content): (
        Query<Entity, With<PagesRoot>>,
        Option<Single<Entity, With<Content>>>,
    ),
    (headers, parents): (Query<Entity, With<page::PageHeader>>, Query<&ChildOf>),
    (window, scale): (Option<Single<&Window, With<PrimaryWindow>>>, Res<UiScale>),
) {
    let showing = *sources.showing.get();
    let narrow = window.as_ref().is_some_and(|w| w.width() < 700.0);
    let phone = window.is_some_and(|w| target::phone_sized(w.size() / scale.0));
    if !showing.covers_the_lobby() {
        for root in &roots {
            commands.entity(root).despawn();
        }
        *spawned = None;
        return;
    }
    let now = Some((showing, phone, sources.forms.subject()));
    let into = match content.map(|c| *c) {
        Some(_) if *spawned == now && showing == Showing::Page(OnlinePage::PlayNow) => return,
        Some(content) if *spawned == now => {
            emptied(&mut commands, content, &headers, &parents);
            content
        }
        _ => {
            for root in &roots {
                commands.entity(root).despawn();
            }
            *spawned = now;
            spawn_layer(&mut commands, showing, phone)
        }
    };
    let (art, lang, online) = (&*sources.art, sources.prefs.lang(), &sources.online.view());
    commands.entity(into).with_children(|p| match showing {
        Showing::Asked(Asked::WhoPlays) => who_plays_page(p, art, lang),
        Showing::Asked(Asked::Offer) => {
            if let Some(offer) = &online.identity.offer {
                super::offer::page(p, art, lang, online, offer);
            }
        }
        Showing::Page(page) => {
            let view = PageView {
                art,
                lang,
                online,
                form: &sources.form,
                device: &sources.device,
                typing: *sources.typing,
                narrow,
            };
            let pictures =
                drawn.pictures(&mut images, page, &view, &sources.forms, &sources.prefs.0);
            view.page(p, page, &sources.forms, pictures);
        }
        _ => {}
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

/// The layer over the screen for what shows: its backdrop and its panel (a page's frame and
/// body); the entity its content goes in.
fn spawn_layer(commands: &mut Commands, showing: Showing, phone: bool) -> Entity {
    let page = match showing {
        Showing::Page(page) => Some(page),
        _ => None,
    };
    // A page hides the board (a question only dims it).
    let dim = if phone || page.is_some() { 1.0 } else { 0.55 };
    let root = commands
        .spawn((
            PagesRoot,
            DespawnOnExit(Screen::Online),
            widget::backdrop(dim),
        ))
        .id();
    let mut content = Entity::PLACEHOLDER;
    commands.entity(root).with_children(|b| match page {
        Some(page) => {
            b.spawn(page::page(page_width(page), phone))
                .with_children(|p| {
                    content = p.spawn((page::page_body(), Content)).id();
                });
        }
        None => {
            let width = if showing == Showing::Asked(Asked::WhoPlays) {
                520.0
            } else {
                560.0
            };
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
        r.spawn(button(art, PageAction::WhoPlays(true), child));
        let adult = lang.tr("people.who.adult");
        r.spawn(button(art, PageAction::WhoPlays(false), adult));
    });
}

/// The panel's width for each page.
fn page_width(page: OnlinePage) -> f32 {
    match page {
        OnlinePage::Friends
        | OnlinePage::Games
        | OnlinePage::Account
        | OnlinePage::Tournaments
        | OnlinePage::Tournament => 640.0,
        _ => 600.0,
    }
}

/// The pictures pages show, drawn once per text or per graph, not at every drawing.
#[derive(Default)]
pub(super) struct Drawn {
    qr_of: Option<(String, Handle<Image>)>,
    graph_of: Option<(Vec<f64>, Handle<Image>)>,
}

/// The pictures for the open page: a QR code, the rating graph and its ratings.
#[derive(Default)]
struct Pictures {
    qr: Option<Handle<Image>>,
    graph: Option<Handle<Image>>,
    ratings: Vec<f64>,
}

impl Drawn {
    fn qr(&mut self, images: &mut Assets<Image>, text: &str) -> Option<Handle<Image>> {
        if self.qr_of.as_ref().is_none_or(|(t, _)| t != text) {
            self.qr_of = qr::image(text).map(|image| (text.to_owned(), images.add(image)));
        }
        self.qr_of.as_ref().map(|(_, h)| h.clone())
    }

    fn graph(&mut self, images: &mut Assets<Image>, ratings: &[f64]) -> Option<Handle<Image>> {
        if ratings.is_empty() {
            return None;
        }
        if self.graph_of.as_ref().is_none_or(|(r, _)| r != ratings) {
            let image = images.add(graph::image(ratings));
            self.graph_of = Some((ratings.to_vec(), image));
        }
        self.graph_of.as_ref().map(|(_, h)| h.clone())
    }

    fn pictures(
        &mut self,
        images: &mut Assets<Image>,
        page: OnlinePage,
        view: &PageView,
        forms: &PageForms,
        settings: &crate::session::Settings,
    ) -> Pictures {
        let people = &view.online.people;
        let mut qr =
            |drawn: &mut Drawn, link: Option<String>| link.and_then(|link| drawn.qr(images, &link));
        match page {
            OnlinePage::Friends => {
                let code = view.friend_code();
                let link = (!code.is_empty()).then(|| friend_link(settings, &code));
                Pictures {
                    qr: qr(self, link),
                    ..default()
                }
            }
            OnlinePage::Profile => {
                let ratings: Vec<f64> = view
                    .profile(forms)
                    .map(|p| p.games.iter().map(|g| g.rating).collect())
                    .unwrap_or_default();
                Pictures {
                    graph: self.graph(images, &ratings),
                    ratings,
                    ..default()
                }
            }
            OnlinePage::Account => {
                let link = people
                    .link_code
                    .as_ref()
                    .map(|(c, _)| link_link(settings, c));
                Pictures {
                    qr: qr(self, link),
                    ..default()
                }
            }
            OnlinePage::Tournament => {
                let id = forms.tournament.as_ref().map_or("", |f| f.id.as_str());
                let link =
                    (!id.is_empty()).then(|| super::tournament::tournament_link(settings, id));
                Pictures {
                    qr: qr(self, link),
                    ..default()
                }
            }
            _ => Pictures::default(),
        }
    }
}

/// What the open page is drawn from, beside its form.
struct PageView<'a> {
    art: &'a Art,
    lang: crate::session::Lang,
    online: &'a Online<'a>,
    form: &'a Form,
    device: &'a PushDevice,
    typing: Typing,
    /// A phone shows fewer lines: smaller QR codes, fewer friends and games.
    narrow: bool,
}

impl PageView<'_> {
    fn friend_code(&self) -> String {
        let profile = self.online.people.profile.as_ref();
        profile
            .and_then(|p| p.friend_code.clone())
            .unwrap_or_default()
    }

    /// The profile the page shows: another player's, or ours.
    fn profile(&self, forms: &PageForms) -> Option<&crate::net::social::Profile> {
        let people = &self.online.people;
        match forms.profile.as_ref().and_then(|f| f.other.as_ref()) {
            Some(id) => people.viewed.as_ref().filter(|p| p.player.id == *id),
            None => people.profile.as_ref(),
        }
    }

    /// `page` drawn into `p`, when its form is there.
    fn page(
        &self,
        p: &mut ChildSpawnerCommands,
        page: OnlinePage,
        forms: &PageForms,
        pictures: Pictures,
    ) {
        let (art, lang, online, narrow) = (self.art, self.lang, self.online, self.narrow);
        let typing = self.typing.0;
        match page {
            OnlinePage::Friends => {
                let Some(friends) = forms.friends.as_deref() else {
                    return;
                };
                let (code, qr) = (self.friend_code(), pictures.qr);
                let form = (friends, typing);
                super::friends::page(p, art, lang, online, form, self.form, (&code, qr), narrow);
            }
            OnlinePage::Profile => {
                let Some(form) = forms.profile.as_deref() else {
                    return;
                };
                let profile = self.profile(forms);
                let graph = (pictures.graph, pictures.ratings.as_slice());
                super::profile::page(p, art, lang, online, (form, profile), graph, narrow);
            }
            OnlinePage::PlayNow => super::play_now::page(p, art, lang, online, self.form),
            OnlinePage::Notifications => {
                if let Some(mail) = forms.mail.as_deref() {
                    let form = (mail, typing);
                    super::notifications::page(p, art, lang, online, form, self.device);
                }
            }
            OnlinePage::Games => super::games::page(p, art, lang, online, narrow),
            OnlinePage::Account => {
                if let Some(account) = forms.account.as_deref() {
                    let form = (account, typing);
                    super::account::page(p, art, lang, online, form, pictures.qr, narrow);
                }
            }
            OnlinePage::Tournaments => {
                if let Some(list) = forms.tournaments.as_deref() {
                    let form = (list, self.typing);
                    super::tournaments::list_page(p, art, lang, online, form, narrow);
                }
            }
            OnlinePage::NewTournament => {
                if let Some(draft) = forms.draft.as_deref() {
                    let form = (draft, self.typing);
                    super::new_tournament::draft_page(p, art, lang, online, form, self.form);
                }
            }
            OnlinePage::Tournament => {
                if let Some(open) = forms.tournament.as_deref() {
                    super::tournament::TournamentPage {
                        art,
                        lang,
                        online,
                        open,
                        typing: self.typing,
                        qr: pictures.qr,
                        narrow,
                    }
                    .draw(p);
                }
            }
            OnlinePage::Home | OnlinePage::Sheet | OnlinePage::Leaderboard => {}
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

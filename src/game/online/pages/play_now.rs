//! The "Play now" page: a grid of the pools' time controls for the form's rule set; while we
//! wait, how long and why we may wait longer, Stop looking, and (once a wave has found nobody)
//! the computer at a level near our rating, unrated, on this device.

use bevy::prelude::*;

use super::kit::{centred_row, header};
use super::{PageAction, PlayComputer};
use crate::game::board::art::Art;
use crate::game::online::client::{Online, OnlineRead, PoolWait, unix_ms};
use crate::game::online::form::{Form, clock_label};
use crate::game::state::{NewGame, Prefs, Screen};
use crate::game::theme::part::{Part, Parts, column, spawn_part};
use crate::game::theme::widget::{bold, button, text};
use crate::net::pool::{POOL_RULES, POOLS};
use crate::rules::presets;
use crate::session::{Lang, Mode};

pub(super) fn plugin(app: &mut App) {
    app.add_observer(play_computer);
    app.add_systems(
        Update,
        keep_current
            .run_if(in_state(super::OnlinePage::PlayNow))
            .after(crate::game::online::form::LobbyBuild)
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// The page's parts follow the wait (its seconds counting up) and the client's state; the
/// page itself is spawned once (`draw`).
fn keep_current(
    mut parts: Parts,
    prefs: Res<Prefs>,
    online: OnlineRead,
    form: Res<Form>,
    mut wake: ResMut<crate::game::state::Wake>,
) {
    // Between news, only the wait's seconds change.
    let shown =
        online.lobby.is_changed() || online.people.is_changed() || online.connection.is_changed();
    let news = shown || prefs.is_changed() || form.is_changed();
    if news || online.lobby.pool.is_some() {
        show(&mut parts, prefs.lang(), &online.view(), &form);
    }
    if online.lobby.pool.is_some() {
        wake.bypass_change_detection()
            .within(std::time::Duration::from_millis(250));
    }
}

/// The pool's rule set: the form's when pools are kept for it, else the standard one.
pub fn pool_rules(form: &Form) -> &'static str {
    POOL_RULES
        .iter()
        .copied()
        .find(|&r| r == form.preset)
        .unwrap_or(POOL_RULES[0])
}

/// The page: its header, then its body as a part (drawn again when the wait changes), whose
/// seconds waited are a part of their own (drawn again each second, the buttons left alone).
pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    form: &Form,
) {
    header(p, art, lang, lang.tr("play.now").to_owned());
    spawn_part(p, art, column(), PlayNowPage::of(lang, online, form));
}

/// The page's parts given what they show now.
fn show(parts: &mut Parts, lang: Lang, online: &Online, form: &Form) {
    // The seconds first (not there yet before the wait is shown): the page drawn again after
    // them spawns its own.
    if let Some(pool) = &online.lobby.pool {
        let _ = parts.show(Waited::of(pool, lang));
    }
    let _ = parts.show(PlayNowPage::of(lang, online, form));
}

/// The page's body, as a value: the refusal, the rule set's name, whether a child plays, and
/// the wait in a pool when there is one.
#[derive(PartialEq)]
struct PlayNowPage {
    lang: Lang,
    problem: Option<String>,
    rules: String,
    child: bool,
    pool: Option<PoolWait>,
}

impl PlayNowPage {
    fn of(lang: Lang, online: &Online, form: &Form) -> PlayNowPage {
        let rules = pool_rules(form);
        let name = presets::get(rules).map_or(rules.to_owned(), |p| lang.pick(&p.name).to_owned());
        PlayNowPage {
            lang,
            problem: online
                .connection
                .problem
                .as_ref()
                .map(|problem| lang.trf("online.refused", &[("why", &problem.message)])),
            rules: lang.trf("play.now.rules", &[("rules", &name)]),
            child: online.people.child,
            pool: online.lobby.pool.clone(),
        }
    }

    /// The pools' time controls, and the bots' (not for a child).
    fn choices(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        p.spawn(text(art, lang.tr("play.now.why"), 16.0));
        p.spawn(centred_row()).with_children(|r| {
            for (i, clock) in POOLS.iter().enumerate() {
                r.spawn(button(art, PageAction::Pool(i), clock_label(*clock, lang)));
            }
        });
        // Bots are strangers' programs: not for a child. Games by days are a bot's own choice
        // (most decline them): not offered here.
        if !self.child {
            p.spawn(text(art, lang.tr("play.now.bots"), 16.0));
            p.spawn(centred_row()).with_children(|r| {
                let live = POOLS.iter().enumerate().filter(|(_, c)| c.days().is_none());
                for (i, clock) in live {
                    let label = lang.trf("play.now.bot", &[("clock", &clock_label(*clock, lang))]);
                    r.spawn(button(art, PageAction::PlayBot(i), label));
                }
            });
        }
    }
}

impl Part for PlayNowPage {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        let lang = self.lang;
        if let Some(problem) = &self.problem {
            p.spawn(text(art, problem.clone(), 15.0));
        }
        p.spawn(text(art, self.rules.clone(), 16.0));
        let Some(pool) = &self.pool else {
            self.choices(art, p);
            return;
        };
        spawn_part(p, art, column(), Waited::of(pool, lang));
        if let Some(last) = pool.paired_last {
            p.spawn(text(
                art,
                lang.trf("play.now.last", &[("n", &last.abandoned), ("of", &last.of)]),
                15.0,
            ));
        }
        p.spawn(centred_row()).with_children(|r| {
            if let Some(level) = pool.computer {
                r.spawn(text(art, lang.tr("play.now.alone"), 16.0));
                r.spawn(button(
                    art,
                    PageAction::PlayComputer(level),
                    lang.trf("play.now.computer", &[("level", &level)]),
                ));
            }
            r.spawn(button(art, PageAction::LeavePool, lang.tr("play.now.stop")));
        });
    }
}

/// The pool waited in and the seconds waited, in words.
#[derive(PartialEq)]
struct Waited(String);

impl Waited {
    fn of(pool: &PoolWait, lang: Lang) -> Waited {
        let waited = ((unix_ms() - pool.since_ms).max(0) / 1000).to_string();
        Waited(lang.trf(
            "play.now.waiting",
            &[("clock", &clock_label(pool.clock, lang)), ("s", &waited)],
        ))
    }
}

impl Part for Waited {
    fn spawn(&self, art: &Art, p: &mut ChildSpawnerCommands) {
        p.spawn(bold(art, self.0.clone(), 18.0));
    }

    fn words(&self) -> Option<&str> {
        Some(&self.0)
    }
}

/// Nobody to pair with: a game on this device against the computer at the level offered.
fn play_computer(
    ask: On<PlayComputer>,
    mut commands: Commands,
    mut prefs: ResMut<Prefs>,
    mut next_screen: ResMut<NextState<Screen>>,
) {
    let settings = &mut prefs.0;
    settings.mode = Mode::Computer;
    settings.level = ask.level.clamp(1, 10);
    if presets::get(&ask.rules).is_some() {
        settings.preset = ask.rules.clone();
    }
    commands.trigger(NewGame);
    next_screen.set(Screen::Playing);
}

//! The "Play now" page: a grid of the pools' time controls for the form's rule set; while we
//! wait, how long and why we may wait longer, Stop looking, and (once a wave has found nobody)
//! the computer at a level near our rating, unrated, on this device.

use bevy::prelude::*;

use super::kit::{centred_row, header};
use super::{PeopleAction, PlayComputer};
use crate::game::board::art::Art;
use crate::game::online::client::{Online, unix_ms};
use crate::game::online::form::{Form, clock_label};
use crate::game::state::{NewGame, Prefs, Screen};
use crate::game::theme::widget::{bold, button, text};
use crate::net::pool::{POOL_RULES, POOLS};
use crate::rules::presets;
use crate::session::{Lang, Mode};

pub(super) fn plugin(app: &mut App) {
    app.add_observer(play_computer);
}

/// The pool's rule set: the form's when pools are kept for it, else the standard one.
pub fn pool_rules(form: &Form) -> &'static str {
    POOL_RULES
        .iter()
        .copied()
        .find(|&r| r == form.preset)
        .unwrap_or(POOL_RULES[0])
}

pub(super) fn page(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    lang: Lang,
    online: &Online,
    form: &Form,
) {
    header(p, art, lang, lang.tr("play.now").to_owned());
    super::kit::problem_line(p, art, lang, online);
    let rules = pool_rules(form);
    let name = presets::get(rules).map_or(rules.to_owned(), |p| lang.pick(&p.name).to_owned());
    p.spawn(text(
        art,
        lang.trf("play.now.rules", &[("rules", &name)]),
        16.0,
    ));
    let Some(pool) = &online.pool else {
        p.spawn(text(art, lang.tr("play.now.why"), 16.0));
        p.spawn(centred_row()).with_children(|r| {
            for (i, clock) in POOLS.iter().enumerate() {
                r.spawn(button(
                    art,
                    PeopleAction::Pool(i),
                    clock_label(*clock, lang),
                ));
            }
        });
        // Bots are strangers' programs: not for a child. Games by days are a bot's own choice
        // (most decline them): not offered here.
        if !online.people.child {
            p.spawn(text(art, lang.tr("play.now.bots"), 16.0));
            p.spawn(centred_row()).with_children(|r| {
                let live = POOLS.iter().enumerate().filter(|(_, c)| c.days().is_none());
                for (i, clock) in live {
                    let label = lang.trf("play.now.bot", &[("clock", &clock_label(*clock, lang))]);
                    r.spawn(button(art, PeopleAction::PlayBot(i), label));
                }
            });
        }
        return;
    };
    let waited = ((unix_ms() - pool.since_ms).max(0) / 1000).to_string();
    p.spawn(bold(
        art,
        lang.trf(
            "play.now.waiting",
            &[("clock", &clock_label(pool.clock, lang)), ("s", &waited)],
        ),
        18.0,
    ));
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
                PeopleAction::PlayComputer(level),
                lang.trf("play.now.computer", &[("level", &level)]),
            ));
        }
        r.spawn(button(
            art,
            PeopleAction::LeavePool,
            lang.tr("play.now.stop"),
        ));
    });
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

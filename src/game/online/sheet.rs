//! The sheet of a room of one's own choices, over the online home: the rule set and its winning
//! score, the time (a usual control, days a move, or minutes and an increment), who moves first,
//! public or private, and Create.

use bevy::prelude::*;

use super::client::Online;
use super::form::{BY_DAYS, CLOCKS, Form, OnlineAction, base_words, clock_label};
use crate::game::board::art::Art;
use crate::game::theme::page::page_body;
use crate::game::theme::page::title_and_back;
use crate::game::theme::part::{Part, column, spawn_part};
use crate::game::theme::widget::{button, row, small_button, text};
use crate::net::protocol::First;
use crate::rules::presets;
use crate::session::Lang;

/// The sheet's header (its title and Back), then its rows (a part: drawn again as they are
/// chosen, the page's scroll kept).
pub fn spawn(p: &mut ChildSpawnerCommands, art: &Art, sheet: Sheet) {
    let (heading, back) = (
        sheet.lang.tr("home.custom.title"),
        sheet.lang.tr("online.back"),
    );
    title_and_back(p, art, heading.to_owned(), OnlineAction::Back, back, ());
    p.spawn(page_body())
        .with_children(|body| spawn_part(body, art, column(), sheet));
}

/// The sheet's rows, as a value: the form's choices, and whether a child plays (their rooms are
/// private).
#[derive(PartialEq)]
pub struct Sheet {
    pub lang: Lang,
    pub form: Form,
    pub child: bool,
}

impl Sheet {
    pub fn of(form: &Form, online: &Online, lang: Lang) -> Sheet {
        Sheet {
            lang,
            form: form.clone(),
            child: online.people.child,
        }
    }
}

impl Part for Sheet {
    fn spawn(&self, art: &Art, body: &mut ChildSpawnerCommands) {
        let (lang, form) = (self.lang, &self.form);
        body.spawn(row())
            .with_children(|r| rules_row(r, art, lang, form));
        body.spawn(row())
            .with_children(|r| clock_row(r, art, lang, form));
        body.spawn(row())
            .with_children(|r| choices_row(r, art, lang, form, self.child));
    }
}

/// The new room's rule set, and whether it is won at a majority.
fn rules_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form) {
    let preset = presets::get(&form.preset).unwrap_or(&presets::all()[0]);
    r.spawn(text(art, lang.tr("menu.rules"), 17.0));
    r.spawn(small_button(art, OnlineAction::Preset(-1), "‹"));
    r.spawn(text(art, lang.pick(&preset.name), 17.0));
    r.spawn(small_button(art, OnlineAction::Preset(1), "›"));
    let majority = lang.trf(
        "menu.majority",
        &[
            ("n", &preset.rules.majority()),
            ("total", &preset.rules.total_value()),
        ],
    );
    let on = lang.tr(if form.majority {
        "switch.on"
    } else {
        "switch.off"
    });
    // The switch stays beside its words when the row wraps.
    let together = Node {
        flex_wrap: FlexWrap::NoWrap,
        ..row()
    };
    r.spawn(together).with_children(|pair| {
        pair.spawn(text(art, majority, 17.0));
        pair.spawn(small_button(art, OnlineAction::Majority, on));
    });
}

/// The new room's time: a preset, days a move, or minutes and an increment of one's own.
fn clock_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form) {
    r.spawn(text(art, lang.tr("online.time"), 17.0));
    r.spawn(small_button(art, OnlineAction::Clock(-1), "‹"));
    let label = if form.clock == CLOCKS.len() {
        lang.tr("online.custom").to_owned()
    } else if form.clock == BY_DAYS {
        lang.tr("online.by_days").to_owned()
    } else {
        clock_label(form.clock_spec(), lang)
    };
    r.spawn(text(art, label, 17.0));
    r.spawn(small_button(art, OnlineAction::Clock(1), "›"));
    if form.clock == BY_DAYS {
        r.spawn(small_button(art, OnlineAction::Days(-1), "-"));
        r.spawn(text(art, clock_label(form.clock_spec(), lang), 17.0));
        r.spawn(small_button(art, OnlineAction::Days(1), "+"));
    }
    if form.clock == CLOCKS.len() {
        r.spawn(small_button(art, OnlineAction::Minutes(-1), "-"));
        r.spawn(text(art, base_words(form.base_s, lang), 17.0));
        r.spawn(small_button(art, OnlineAction::Minutes(1), "+"));
        r.spawn(small_button(art, OnlineAction::Increment(-1), "-"));
        let increment = lang.trf("online.increment", &[("n", &form.increment)]);
        r.spawn(text(art, increment, 17.0));
        r.spawn(small_button(art, OnlineAction::Increment(1), "+"));
    }
}

/// Who moves first, public or private (a child's are private), and Create.
fn choices_row(r: &mut ChildSpawnerCommands, art: &Art, lang: Lang, form: &Form, child: bool) {
    let first = match form.first {
        First::Me => "online.first.me",
        First::Them => "online.first.them",
        First::Random => "online.first.random",
    };
    r.spawn(button(art, OnlineAction::First, lang.tr(first)));
    // A child's rooms are private: the server would refuse a public one.
    if !child {
        let public = if form.public {
            "online.public"
        } else {
            "online.private"
        };
        r.spawn(button(art, OnlineAction::Public, lang.tr(public)));
    }
    r.spawn(button(art, OnlineAction::Create, lang.tr("online.create")));
}

//! The pages' widget kit: rows that wrap on a phone, a header with its Back, a QR code, the
//! server's last refusal.

use bevy::prelude::*;

use super::PageAction;
use crate::game::board::art::Art;
use crate::game::online::client::Online;
use crate::game::theme::page;
use crate::game::theme::widget::{row, text};
use crate::rules::presets;
use crate::session::Lang;

pub(super) fn centred_row() -> Node {
    Node {
        justify_content: JustifyContent::Center,
        flex_wrap: FlexWrap::Wrap,
        ..row()
    }
}

pub(super) fn wrapping_row() -> Node {
    Node {
        flex_wrap: FlexWrap::Wrap,
        ..row()
    }
}

pub(super) fn qr_node(p: &mut ChildSpawnerCommands, qr: Handle<Image>, side: f32) {
    p.spawn(Node {
        justify_content: JustifyContent::Center,
        ..default()
    })
    .with_child((
        ImageNode::new(qr),
        Node {
            width: px(side),
            height: px(side),
            ..default()
        },
    ));
}

/// A page's title with Back beside it, kept at the top of the page while the rest scrolls, so
/// that Back is on screen however long the page.
pub(super) fn header(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, title: String) {
    let back = lang.tr("online.back");
    page::title_and_back(p, art, title, PageAction::Back, back, page::PageHeader);
}

/// The server's last refusal, in a line under a page's title.
pub(super) fn problem_line(p: &mut ChildSpawnerCommands, art: &Art, lang: Lang, online: &Online) {
    if let Some(problem) = &online.connection.problem {
        p.spawn(text(
            art,
            lang.trf("online.refused", &[("why", &problem.message)]),
            15.0,
        ));
    }
}

/// A rule set's name by its preset's id.
pub(super) fn rules_words_of(preset: &str, lang: Lang) -> String {
    presets::get(preset).map_or(preset.to_owned(), |p| lang.pick(&p.name).to_owned())
}

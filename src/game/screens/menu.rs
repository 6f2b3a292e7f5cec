//! The panels over the board: the menu of settings, "leave the game in progress?", the rules
//! help and the table flip question. Each is built when it opens and rebuilt when a setting
//! changes, so that every text follows the language at once. While one is open the game's
//! clock stands still.

use bevy::prelude::*;

use crate::game::board::art::Art;
use crate::game::platform::OpensFilePicker;
use crate::game::screens::actions::{Action, clock_label, level_label};
use crate::game::state::{Game, Motion, Overlay, Prefs};
use crate::game::theme::widget::{self, button, panel, row, small_button, text};
use crate::rules::{MandarinStart, Refill};
use crate::session::Lang;

/// The root of the open panel.
#[derive(Component)]
struct PanelRoot;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        (
            pause_behind_panels.run_if(state_changed::<Overlay>),
            build.run_if(
                state_changed::<Overlay>
                    .or_eager(resource_changed::<Prefs>)
                    .or_eager(resource_changed::<Motion>),
            ),
        )
            .in_set(crate::game::state::GameSet::Show),
    );
}

/// Moves, thinking pauses and animations wait while a panel is open.
fn pause_behind_panels(overlay: Res<State<Overlay>>, mut time: ResMut<Time<Virtual>>) {
    if *overlay.get() == Overlay::None {
        time.unpause();
    } else {
        time.pause();
    }
}

fn build(
    mut commands: Commands,
    overlay: Res<State<Overlay>>,
    prefs: Res<Prefs>,
    game: Res<Game>,
    art: Res<Art>,
    motion: Res<Motion>,
    roots: Query<Entity, With<PanelRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    let lang = prefs.lang();
    let root = commands.spawn((PanelRoot, widget::backdrop(0.6))).id();
    let content = match overlay.get() {
        Overlay::None => {
            commands.entity(root).despawn();
            return;
        }
        Overlay::Menu => menu(&mut commands, &art, &prefs),
        Overlay::Intro => super::intro::card(&mut commands, &art, prefs.lang()),
        Overlay::Help => help(&mut commands, &art, &prefs),
        Overlay::Access => access(&mut commands, &art, &prefs, &motion),
        Overlay::ConfirmNewGame => question(
            &mut commands,
            &art,
            lang.tr("confirm.new_game").to_owned(),
            [
                (Action::Leave, lang.tr("confirm.leave")),
                (Action::Stay, lang.tr("confirm.stay")),
            ],
        ),
        Overlay::Flip => {
            let points = game.pos().score(0);
            question(
                &mut commands,
                &art,
                lang.trf("swap.confirm", &[("n", &points)]),
                [
                    (Action::FlipYes, lang.tr("swap.yes")),
                    (Action::Back, lang.tr("swap.no")),
                ],
            )
        }
    };
    commands.entity(root).add_child(content);
}

/// A question and two answers.
fn question(
    commands: &mut Commands,
    art: &Art,
    prompt: String,
    answers: [(Action, &str); 2],
) -> Entity {
    commands
        .spawn(panel(520.0))
        .with_children(|p| {
            p.spawn((
                text(art, prompt, 20.0),
                TextLayout::justify(Justify::Center),
            ));
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..row()
            })
            .with_children(|r| {
                for (action, label) in answers {
                    r.spawn(button(art, action, label));
                }
            });
        })
        .id()
}

/// One line of the menu: a label, then its controls.
fn setting(
    p: &mut ChildSpawnerCommands,
    art: &Art,
    label: &str,
    controls: impl FnOnce(&mut ChildSpawnerCommands),
) {
    p.spawn((
        widget::SettingRow,
        Node {
            justify_content: JustifyContent::SpaceBetween,
            ..row()
        },
    ))
    .with_children(|r| {
        r.spawn(text(art, label, 18.0));
        r.spawn(row()).with_children(controls);
    });
}

/// A value between two stepping buttons.
fn stepper(r: &mut ChildSpawnerCommands, art: &Art, value: String, action: fn(i8) -> Action) {
    r.spawn(small_button(art, action(-1), "‹"));
    r.spawn((
        text(art, value, 18.0),
        Node {
            min_width: px(150),
            justify_content: JustifyContent::Center,
            ..default()
        },
        TextLayout::justify(Justify::Center),
    ));
    r.spawn(small_button(art, action(1), "›"));
}

fn menu(commands: &mut Commands, art: &Art, prefs: &Prefs) -> Entity {
    let lang = prefs.lang();
    commands
        .spawn(panel(700.0))
        .with_children(|p| {
            // The title, and the accessibility settings at its right: first in reach, and no
            // extra line in a menu that must fit a landscape phone.
            p.spawn(Node {
                justify_content: JustifyContent::SpaceBetween,
                ..row()
            })
            .with_children(|r| {
                r.spawn(widget::title(art, lang.tr("menu.title"), 26.0));
                r.spawn(button(art, Action::OpenAccess, lang.tr("menu.access")));
            });
            match_settings(p, art, prefs);
            look_and_sound(p, art, prefs);
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                margin: UiRect::top(px(8)),
                ..row()
            })
            .with_children(|r| {
                r.spawn(button(art, Action::NewGame, lang.tr("menu.new_game")));
                r.spawn(button(art, Action::OpenHelp, lang.tr("menu.help")));
                r.spawn(button(art, Action::Export, lang.tr("menu.export")));
                r.spawn((
                    button(art, Action::ImportHow, lang.tr("menu.import")),
                    OpensFilePicker,
                ));
                r.spawn(button(art, Action::Back, lang.tr("menu.back")));
            });
        })
        .id()
}

/// The match's settings: the mode, the computer's level and who moves first, the rule set and
/// its rules, the clock.
fn match_settings(p: &mut ChildSpawnerCommands, art: &Art, prefs: &Prefs) {
    let lang = prefs.lang();
    let on_off = |on: bool| lang.tr(if on { "switch.on" } else { "switch.off" });
    let preset = prefs.preset();
    setting(p, art, lang.tr("menu.mode"), |r| {
        stepper(r, art, lang.tr(prefs.mode.key()).to_owned(), Action::Mode);
    });
    if prefs.mode.has_computer() {
        setting(p, art, lang.tr("menu.difficulty"), |r| {
            stepper(r, art, level_label(prefs.level, lang), Action::Level);
        });
        setting(p, art, lang.tr("menu.first"), |r| {
            let who = if prefs.human_first {
                "first.you"
            } else {
                "first.computer"
            };
            r.spawn(button(art, Action::First, lang.tr(who)));
        });
    }
    setting(p, art, lang.tr("menu.rules"), |r| {
        stepper(r, art, lang.pick(&preset.name).to_owned(), Action::Preset);
    });
    p.spawn(text(art, lang.pick(&preset.description), 15.0));
    setting(p, art, lang.tr("menu.clock"), |r| {
        stepper(r, art, clock_label(prefs.clock, lang), Action::Clock);
    });
    // The two rule switches on one line, so that the menu fits a landscape phone.
    let rules = prefs.preset().rules;
    let majority = lang.trf(
        "menu.majority",
        &[("n", &rules.majority()), ("total", &rules.total_value())],
    );
    let majority_switch = |r: &mut ChildSpawnerCommands| {
        r.spawn(button(art, Action::Majority, on_off(prefs.majority_wins)));
    };
    if prefs.young_mandarin_applies() {
        setting(p, art, lang.tr("menu.young"), |r| {
            r.spawn(button(art, Action::Young, on_off(prefs.young_mandarin)));
            r.spawn(text(art, majority, 18.0));
            majority_switch(r);
        });
    } else {
        p.spawn(text(art, lang.tr("menu.young.own"), 15.0));
        setting(p, art, &majority, majority_switch);
    }
}

/// How the game looks and sounds, and its language.
fn look_and_sound(p: &mut ChildSpawnerCommands, art: &Art, prefs: &Prefs) {
    let lang = prefs.lang();
    let on_off = |on: bool| lang.tr(if on { "switch.on" } else { "switch.off" });
    // Two short settings on one line, so that the menu fits a landscape phone.
    setting(p, art, lang.tr("menu.speed"), |r| {
        r.spawn(button(art, Action::Speed, lang.tr(prefs.speed.key())));
        r.spawn(text(art, lang.tr("menu.score"), 18.0));
        r.spawn(button(art, Action::Score, lang.tr(prefs.score_view.key())));
    });
    setting(p, art, lang.tr("menu.sound"), |r| {
        r.spawn(button(art, Action::Sound, on_off(prefs.sound)));
        r.spawn(text(art, lang.tr("menu.volume"), 18.0));
        stepper(
            r,
            art,
            format!("{:.0}%", prefs.volume * 100.0),
            Action::Volume,
        );
    });
    setting(p, art, lang.tr("menu.language"), |r| {
        for option in Lang::ALL {
            r.spawn(button(art, Action::Language(option), option.name()));
        }
    });
}

/// Text size, contrast, motion, confirming moves, button size; the keys; the sides' shapes.
fn access(commands: &mut Commands, art: &Art, prefs: &Prefs, motion: &Motion) -> Entity {
    let lang = prefs.lang();
    let on_off = |on: bool| lang.tr(if on { "switch.on" } else { "switch.off" });
    let reduced_word = |reduced: bool| {
        lang.tr(if reduced {
            "access.motion.reduced"
        } else {
            "access.motion.full"
        })
    };
    let motion_label = match prefs.reduce_motion {
        None => lang.trf(
            "access.motion.system",
            &[("state", &reduced_word(motion.system_reduced))],
        ),
        Some(reduced) => reduced_word(reduced).to_owned(),
    };
    commands
        .spawn(panel(760.0))
        .with_children(|p| {
            p.spawn(widget::title(art, lang.tr("access.title"), 26.0));
            setting(p, art, lang.tr("access.text_size"), |r| {
                stepper(r, art, format!("{}%", prefs.text_size), Action::TextSize);
            });
            setting(p, art, lang.tr("access.contrast"), |r| {
                r.spawn(button(art, Action::Contrast, on_off(prefs.high_contrast)));
            });
            setting(p, art, lang.tr("access.motion"), |r| {
                r.spawn(button(art, Action::Motion, motion_label));
            });
            setting(p, art, lang.tr("access.confirm"), |r| {
                r.spawn(button(art, Action::ConfirmMoves, on_off(prefs.confirm_sow)));
            });
            setting(p, art, lang.tr("access.targets"), |r| {
                r.spawn(button(
                    art,
                    Action::LargeTargets,
                    on_off(prefs.large_targets),
                ));
            });
            p.spawn(text(art, lang.tr("access.side_marks"), 15.0));
            p.spawn(text(art, lang.tr("help.keys"), 15.0));
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..row()
            })
            .with_children(|r| {
                r.spawn(button(art, Action::Back, lang.tr("help.close")));
            });
        })
        .id()
}

/// The rules in the game's words: the common rules, the chosen rule set's refill and its
/// special rules.
fn help(commands: &mut Commands, art: &Art, prefs: &Prefs) -> Entity {
    let lang = prefs.lang();
    let rules = prefs.rules();
    let mut keys = vec!["help.board", "help.turn", "help.relay", "help.capture"];
    keys.push(match rules.refill {
        Refill::Borrow => "help.refill.borrow",
        Refill::Forfeit => "help.refill.forfeit",
        Refill::Deduct => "help.refill.deduct",
    });
    keys.push("help.end");
    if rules.players == 3 {
        keys.push("help.variant.three");
    }
    if rules.mandarin_start == MandarinStart::TenStones {
        keys.push("help.variant.ten");
    } else if let Some(protection) = rules.protection {
        keys.push(if protection.plies.is_some() {
            "help.variant.young"
        } else {
            "help.variant.mature"
        });
    }
    if rules.table_flip {
        keys.push("help.variant.flip");
    }
    if rules.repetition {
        keys.push("help.variant.repetition");
    }
    let majority = rules.win_at.map(|n| {
        lang.trf(
            "help.variant.majority",
            &[("n", &n), ("total", &rules.total_value())],
        )
    });
    let limit = lang.trf("help.limit", &[("n", &rules.max_plies())]);
    let title = format!(
        "{} — {}",
        lang.tr("help.title"),
        lang.pick(&prefs.preset().name)
    );
    commands
        .spawn(panel(1000.0))
        .with_children(|p| {
            p.spawn(widget::title(art, title, 24.0));
            for line in keys
                .into_iter()
                .map(|key| lang.tr(key).to_owned())
                .chain(majority)
                .chain([limit, lang.tr("help.keys").to_owned()])
            {
                p.spawn(text(art, line, 16.0));
            }
            p.spawn(Node {
                justify_content: JustifyContent::Center,
                ..row()
            })
            .with_children(|r| {
                r.spawn(button(art, Action::Lesson, lang.tr("lesson.open")));
                r.spawn(button(art, Action::Back, lang.tr("help.close")));
            });
        })
        .id()
}

//! "Confirm each move": the move the player chose waits in a small panel above the message
//! line, "Sow your pit 3 to the left?", until they press Sow (or Enter), or choose again (Esc).

use bevy::prelude::*;

use crate::game::board::art::Art;
use crate::game::screens::actions::Action;
use crate::game::state::{GameSet, PendingSow, Prefs, Screen};
use crate::game::theme::widget::{self, Modal, button, row};
use crate::rules::{Move, geometry};

#[derive(Component)]
struct ConfirmRoot;

pub(super) fn plugin(app: &mut App) {
    app.add_systems(
        Update,
        show.run_if(
            resource_changed::<PendingSow>
                .or_eager(resource_changed::<Prefs>)
                .or_eager(state_changed::<Screen>),
        )
        .in_set(GameSet::Show),
    );
}

fn show(
    mut commands: Commands,
    pending: Res<PendingSow>,
    prefs: Res<Prefs>,
    screen: Res<State<Screen>>,
    art: Res<Art>,
    layout: Res<crate::game::board::layout::Layout>,
    roots: Query<Entity, With<ConfirmRoot>>,
) {
    for root in &roots {
        commands.entity(root).despawn();
    }
    let Some(Move::Sow { pit, dir }) = pending.0 else {
        return;
    };
    if !matches!(screen.get(), Screen::Playing | Screen::Puzzles) {
        return;
    }
    let lang = prefs.lang();
    let pit = usize::from(pit);
    let side = match layout.side_for(geometry::owner(pit), dir) {
        crate::game::board::layout::Side::Left => lang.tr("a11y.to_left"),
        crate::game::board::layout::Side::Right => lang.tr("a11y.to_right"),
    };
    let name = lang.trf(
        "a11y.pit.own",
        &[("n", &geometry::pit_number(pit).unwrap_or(0))],
    );
    let question = lang.trf("a11y.confirm", &[("pit", &name), ("side", &side)]);
    commands
        .spawn((
            ConfirmRoot,
            Modal,
            Node {
                position_type: PositionType::Absolute,
                left: px(8),
                right: px(8),
                bottom: px(70),
                justify_content: JustifyContent::Center,
                ..default()
            },
            GlobalZIndex(8),
        ))
        .with_children(|b| {
            b.spawn(widget::panel(560.0)).with_children(|p| {
                p.spawn((
                    widget::text(&art, question, 18.0),
                    TextLayout::justify(Justify::Center),
                ));
                p.spawn(Node {
                    justify_content: JustifyContent::Center,
                    ..row()
                })
                .with_children(|r| {
                    r.spawn(button(
                        &art,
                        Action::ConfirmSow,
                        lang.tr("a11y.confirm.yes"),
                    ));
                    r.spawn(button(&art, Action::CancelSow, lang.tr("a11y.confirm.no")));
                });
            });
        });
}

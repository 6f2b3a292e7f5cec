//! No button without its words: on the web the fonts arrive over the network after the first
//! frames, and every panel and bar waits hidden until they have.

use bevy::prelude::*;

use crate::game::board::art::Art;

pub(super) fn plugin(app: &mut App) {
    app.init_resource::<FontsArrived>();
    app.add_systems(
        PostUpdate,
        hold_until_fonts
            .run_if(|arrived: Res<FontsArrived>| !arrived.0)
            .before(bevy::camera::visibility::VisibilitySystems::VisibilityPropagate),
    );
}

/// Whether the fonts have arrived (on the web they come over the network after the first
/// frames).
#[derive(Resource, Default)]
struct FontsArrived(bool);

/// A panel hidden until the fonts arrive, and how it was shown before.
#[derive(Component)]
struct AwaitingFonts(Visibility);

/// No button without its words: every panel and bar stays hidden until the fonts have arrived
/// (or failed to: then there is nothing to wait for), and shows as it was then.
fn hold_until_fonts(
    mut commands: Commands,
    mut arrived: ResMut<FontsArrived>,
    art: Res<Art>,
    assets: Res<AssetServer>,
    mut roots: Query<
        (Entity, &mut Visibility),
        (With<Node>, Without<ChildOf>, Without<AwaitingFonts>),
    >,
    mut held: Query<(Entity, &mut Visibility, &AwaitingFonts), With<AwaitingFonts>>,
) {
    use bevy::asset::LoadState;
    let done = art.fonts().iter().all(|font| {
        matches!(
            assets.load_state(*font),
            LoadState::Loaded | LoadState::Failed(_)
        )
    });
    if done {
        for (entity, mut visibility, AwaitingFonts(was)) in &mut held {
            *visibility = *was;
            commands.entity(entity).remove::<AwaitingFonts>();
        }
        arrived.0 = true;
        return;
    }
    for (entity, mut visibility) in &mut roots {
        commands.entity(entity).insert(AwaitingFonts(*visibility));
        *visibility = Visibility::Hidden;
    }
}

//! The shipped puzzle set, a file of its own (`assets/puzzles/puzzles.ron`, thousands of
//! puzzles): loaded when the Puzzles screen first opens, not at start, so that a first visit on
//! the web does not download it. Read and checked against the rules off the frame, by the asset
//! server's loader.

use std::sync::Arc;

use bevy::asset::{AssetLoader, LoadContext, LoadState, io::Reader};
use bevy::prelude::*;

use crate::ai::puzzle::{Line, PuzzleFile};

/// Where the set is, under the assets.
pub const PATH: &str = "puzzles/puzzles.ron";

/// The set and its lines, checked against the rules; shared, since the screen keeps it.
#[derive(Asset, TypePath, Clone)]
pub struct PuzzleSet(pub Arc<(PuzzleFile, Vec<Line>)>);

#[derive(Default, TypePath)]
struct PuzzleSetLoader;

impl AssetLoader for PuzzleSetLoader {
    type Asset = PuzzleSet;
    type Settings = ();
    type Error = BevyError;

    async fn load(
        &self,
        reader: &mut dyn Reader,
        _settings: &(),
        _context: &mut LoadContext<'_>,
    ) -> Result<PuzzleSet, BevyError> {
        let mut bytes = Vec::new();
        reader.read_to_end(&mut bytes).await?;
        let text = std::str::from_utf8(&bytes)?;
        Ok(PuzzleSet(Arc::new(PuzzleFile::parse(text)?)))
    }

    fn extensions(&self) -> &[&str] {
        &["ron"]
    }
}

/// How far the set is: asked for, there, or not to be had (and why).
#[derive(Resource, Default)]
pub enum SetLoad {
    #[default]
    NotAsked,
    Loading(Handle<PuzzleSet>),
    Ready(PuzzleSet),
    Failed(String),
}

impl SetLoad {
    pub fn ready(&self) -> Option<&PuzzleSet> {
        match self {
            SetLoad::Ready(set) => Some(set),
            _ => None,
        }
    }
}

pub(super) fn plugin(app: &mut App) {
    app.init_asset::<PuzzleSet>()
        .init_asset_loader::<PuzzleSetLoader>()
        .init_resource::<SetLoad>();
    app.add_systems(
        Update,
        arrive.run_if(|load: Res<SetLoad>| matches!(*load, SetLoad::Loading(_))),
    );
}

/// Ask for the set, the first time only (a failed load is asked for again).
pub(super) fn ask(mut load: ResMut<SetLoad>, assets: Res<AssetServer>) {
    if matches!(*load, SetLoad::NotAsked | SetLoad::Failed(_)) {
        *load = SetLoad::Loading(assets.load(PATH));
    }
}

/// Once loaded: kept for the rest of the run (the handle let go), or the failure said.
fn arrive(mut load: ResMut<SetLoad>, assets: Res<AssetServer>, sets: Res<Assets<PuzzleSet>>) {
    let SetLoad::Loading(handle) = &*load else {
        return;
    };
    if let Some(set) = sets.get(handle) {
        *load = SetLoad::Ready(set.clone());
    } else if let LoadState::Failed(error) = assets.load_state(handle) {
        *load = SetLoad::Failed(error.to_string());
    }
}

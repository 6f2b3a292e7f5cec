//! Bevy's core render pipeline, the half the game draws with: the 2D camera's passes (sprites,
//! UI, text), tonemapping, upscaling to the window and the camera driver, in place of Bevy's
//! `CorePipelinePlugin`, which also sets up 3D: its passes, order-independent transparency,
//! motion vectors, deferred lighting and mipmap generation.
//!
//! Why: the mipmap generation alone preprocesses its downsampling shader (23 KB of WGSL,
//! through naga_oil's regular expressions) once for each of 40 texture formats while its
//! plugin is added, and every 3D pass adds systems that each frame's schedules run and check.
//! With a phone's CPU (Chromium's CPU slowed 4×) that plugin took 0.33 s of the 0.57 s
//! Bevy's plugins took in all, before the first frame (docs/measurements.md, "Start-up, by
//! function").
//! The game never draws in 3D.
//!
//! What is here mirrors `CorePipelinePlugin::build` (Bevy 0.19.1) less its 3D plugins; the two
//! systems it keeps crate-private are written again below, the same way.

use std::path::{Path, PathBuf};

use bevy::asset::io::embedded::EmbeddedAssetRegistry;
use bevy::camera::{ClearColor, NormalizedRenderTarget};
use bevy::core_pipeline::FullscreenShader;
use bevy::core_pipeline::blit::BlitPlugin;
use bevy::core_pipeline::core_2d::Core2dPlugin;
use bevy::core_pipeline::schedule::camera_driver;
use bevy::core_pipeline::tonemapping::TonemappingPlugin;
use bevy::core_pipeline::upscaling::UpscalingPlugin;
use bevy::ecs::entity::EntityHashSet;
use bevy::prelude::*;
use bevy::render::RenderApp;
use bevy::render::camera::{ExtractedCamera, SortedCameras};
use bevy::render::render_resource::{
    CommandEncoderDescriptor, LoadOp, Operations, RenderPassColorAttachment, RenderPassDescriptor,
    StoreOp,
};
use bevy::render::renderer::{
    PendingCommandBuffers, RenderDevice, RenderGraph, RenderGraphSystems, RenderQueue,
};
use bevy::render::view::ExtractedWindows;

/// The full-screen triangle every post-processing pass starts from, as Bevy 0.19.1 ships it
/// (`bevy_core_pipeline/src/fullscreen_vertex_shader/fullscreen.wgsl`, MIT or Apache-2.0),
/// registered where `FullscreenShader` loads it from.
const FULLSCREEN_WGSL: &str = include_str!("pipeline/fullscreen.wgsl");
const FULLSCREEN_PATH: &str = "bevy_core_pipeline/fullscreen_vertex_shader/fullscreen.wgsl";

/// Takes the place of `CorePipelinePlugin` in Bevy's default plugins (`start::app`).
pub struct Core2dPipeline;

impl Plugin for Core2dPipeline {
    fn build(&self, app: &mut App) {
        app.world_mut()
            .resource_mut::<EmbeddedAssetRegistry>()
            .insert_asset(
                PathBuf::new(),
                Path::new(FULLSCREEN_PATH),
                FULLSCREEN_WGSL.as_bytes(),
            );
        app.add_plugins((Core2dPlugin, BlitPlugin, TonemappingPlugin, UpscalingPlugin));
        let Some(render_app) = app.get_sub_app_mut(RenderApp) else {
            return;
        };
        render_app.init_resource::<FullscreenShader>().add_systems(
            RenderGraph,
            (
                camera_driver.in_set(RenderGraphSystems::Render),
                (submit_pending_command_buffers, clear_uncovered_windows)
                    .chain()
                    .in_set(RenderGraphSystems::Submit),
            ),
        );
    }
}

/// What the cameras drew this frame goes to the GPU.
fn submit_pending_command_buffers(
    mut pending: ResMut<PendingCommandBuffers>,
    queue: Res<RenderQueue>,
) {
    let buffers = pending.take();
    if !buffers.is_empty() {
        queue.submit(buffers);
    }
}

/// A window no camera drew into this frame (none yet, or one of no size) is cleared to the
/// clear colour rather than shown with whatever its buffer held.
fn clear_uncovered_windows(
    cameras: Res<SortedCameras>,
    extracted: Query<&ExtractedCamera>,
    windows: Res<ExtractedWindows>,
    clear_color: Res<ClearColor>,
    device: Res<RenderDevice>,
    queue: Res<RenderQueue>,
) {
    let covered: EntityHashSet = cameras
        .0
        .iter()
        .filter_map(|sorted| extracted.get(sorted.entity).ok())
        .filter_map(|camera| match &camera.target {
            Some(NormalizedRenderTarget::Window(window)) => Some(window.entity()),
            _ => None,
        })
        .filter(|window| {
            windows
                .windows
                .get(window)
                .is_some_and(|w| w.physical_width > 0 && w.physical_height > 0)
        })
        .collect();
    let colour = clear_color.0.to_linear();
    let uncovered: Vec<_> = windows
        .iter()
        .filter(|(entity, _)| !covered.contains(*entity))
        .filter_map(|(_, window)| window.swap_chain_texture_view.clone())
        .collect();
    if uncovered.is_empty() {
        return;
    }
    let mut encoder = device.create_command_encoder(&CommandEncoderDescriptor::default());
    for view in &uncovered {
        encoder.begin_render_pass(&RenderPassDescriptor {
            label: Some("no_camera_clear_pass"),
            color_attachments: &[Some(RenderPassColorAttachment {
                view,
                depth_slice: None,
                resolve_target: None,
                ops: Operations {
                    load: LoadOp::Clear(colour.into()),
                    store: StoreOp::Store,
                },
            })],
            depth_stencil_attachment: None,
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        });
    }
    queue.submit([encoder.finish()]);
}

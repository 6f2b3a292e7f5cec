//! In the browser: real page elements laid invisibly over what the game draws (the text
//! fields' inputs, Import's file input), so that a tap or click reaches the page itself. Where a
//! node is on the page, the layer they go in, and their placing, written only when it moves.

use bevy::prelude::*;
use bevy::ui::UiGlobalTransform;

/// A UI node's top-left corner and size in the page's CSS pixels: the node's own are physical
/// pixels, from its centre.
pub fn css_rect(node: &ComputedNode, at: &UiGlobalTransform, scale: f32) -> (Vec2, Vec2) {
    let size = node.size() / scale;
    (at.translation / scale - size / 2.0, size)
}

/// Where laid elements go: the canvas's parent, which the canvas fills.
pub fn layer() -> Option<web_sys::Element> {
    web_sys::window()?
        .document()?
        .get_element_by_id("game")?
        .parent_element()
}

/// Lays `element` invisibly over the rectangle at `corner` of `size` (CSS pixels), with `css`
/// besides; `written` keeps the style last written, so that an element that did not move is not
/// touched.
pub fn place(
    element: &web_sys::Element,
    written: &mut String,
    corner: Vec2,
    size: Vec2,
    css: &str,
) {
    let style = format!(
        "position:absolute;left:{:.0}px;top:{:.0}px;width:{:.0}px;height:{:.0}px;\
         margin:0;border:0;opacity:0;z-index:2;{css}",
        corner.x, corner.y, size.x, size.y
    );
    if *written != style {
        let _ = element.set_attribute("style", &style);
        *written = style;
    }
}

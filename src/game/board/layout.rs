//! Where things are on screen, in world units: a fixed area that the camera fits to any window
//! (1280 × 720, or 720 × 1280 when the 2-player board stands upright in a portrait window).
//! Two boards: the 2-player rectangle (two rows, a half-moon mandarin pit at each end) and the
//! 3-player triangle (a row along each side, a round mandarin pit at each corner). Pure
//! functions of the board, so that hit tests and the direction mapping are tested without a
//! window.

use bevy::math::{Rot2, Vec2, Vec2Swizzles};
use bevy::prelude::Resource;

use crate::game::state::BarSpace;
use crate::rules::Direction;
use crate::rules::geometry::{self, ROW_LEN};

/// The area the camera always shows whole, in a landscape window.
pub const WORLD: Vec2 = Vec2::new(1280.0, 720.0);
/// The area shown whole when the 2-player board stands upright: on a phone held upright, rows
/// across the screen would leave pits too small to touch.
pub const WORLD_UPRIGHT: Vec2 = Vec2::new(720.0, 1280.0);
/// The area shown whole around the 3-player triangle in a window taller than wide: just wider
/// than the triangle, with the stores in a row under it. (The triangle cannot turn to gain
/// more: it is about as wide as it is tall.)
pub const WORLD_TALL_TRIANGLE: Vec2 = Vec2::new(800.0, 1280.0);
/// Side of a citizen pit on the 2-player board.
pub const PIT: f32 = 118.0;
/// Gap between two citizen pits on the 2-player board.
const GAP: f32 = 10.0;
/// A row of five citizen pits on the 2-player board, for the glow round the row of the player
/// to move.
pub const ROW_GLOW: Vec2 = Vec2::new(5.0 * PIT + 4.0 * GAP + 8.0, PIT + 8.0);
/// Distance between the centres of the two rows.
const ROW_SPACING: f32 = PIT + 14.0;
/// Raise of the 2-player board above the window's centre, to leave room for the message line.
const BOARD_Y: f32 = 20.0;
/// The same on the upright board.
const UPRIGHT_Y: f32 = 10.0;
/// Half-moon mandarin pits of the 2-player board: width and height.
pub const MANDARIN_PIT: Vec2 = Vec2::new(110.0, 2.0 * PIT + 14.0);
/// The 3-player board: side of a citizen pit, step between pits, side of the triangle joining
/// the mandarin pits' centres, diameter of a mandarin pit, and the bottom side's height.
const PIT3: f32 = 84.0;
const STEP3: f32 = 92.0;
const SIDE3: f32 = 620.0;
const MANDARIN3: f32 = 116.0;
const BOTTOM3: f32 = -262.0;
/// Side of an arrow beside a selected pit, and of its touch target: about 9 mm on a phone (see
/// the tests).
pub const ARROW: f32 = 110.0;
/// Wood around the 3-player board's triangle of mandarin pits.
pub const WOOD_MARGIN: f32 = MANDARIN3 / 2.0 + 20.0;

/// A side of the screen, for the arrows: left and right always mean the screen's. On the
/// upright board, whose rows run up and down, `Left` is down and `Right` is up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

/// The board on screen, for 2 or 3 players, in a landscape or a portrait window.
#[derive(Resource, Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    players: usize,
    /// The window is taller than wide: the 2-player board turns upright for it, the triangle
    /// gets its stores under it.
    tall_window: bool,
    /// The 2-player board is turned round (half a turn about its centre) so that player 1's row
    /// is the one nearest the viewer: the player at this device plays side 1.
    turned: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::new(2)
    }
}

impl Layout {
    /// The board for `players`, in a landscape window.
    pub fn new(players: usize) -> Layout {
        Layout {
            players: if players == 3 { 3 } else { 2 },
            tall_window: false,
            turned: false,
        }
    }

    /// The same board with `side`'s row nearest the viewer: the 2-player board turns round for
    /// side 1; the triangle keeps its place (each of its rows faces a side of the screen).
    pub fn nearest(self, side: usize) -> Layout {
        Layout {
            turned: side == 1 && !self.triangle(),
            ..self
        }
    }

    /// The side whose row is nearest the viewer.
    pub fn near_side(&self) -> usize {
        usize::from(self.turned)
    }

    /// The same board in a window that is taller than wide (`tall`) or not.
    pub fn for_window(self, tall: bool) -> Layout {
        Layout {
            tall_window: tall,
            ..self
        }
    }

    pub fn tall_window(&self) -> bool {
        self.tall_window
    }

    /// The 2-player board stands upright: rows run up the screen, mandarin pits at the top and
    /// the bottom, player 0's row on the right.
    pub fn upright(&self) -> bool {
        self.tall_window && !self.triangle()
    }

    /// The area the camera shows whole.
    pub fn world(&self) -> Vec2 {
        if self.upright() {
            WORLD_UPRIGHT
        } else if self.tall_triangle() {
            WORLD_TALL_TRIANGLE
        } else {
            WORLD
        }
    }

    /// The 3-player triangle in a window taller than wide.
    fn tall_triangle(&self) -> bool {
        self.tall_window && self.triangle()
    }

    /// The screen direction that `Side::Right` means: right, or up on the upright board.
    pub fn screen_axis(&self) -> Vec2 {
        if self.upright() { Vec2::Y } else { Vec2::X }
    }

    /// A direction or offset of the landscape 2-player board as it appears on screen: turned a
    /// quarter counter-clockwise on the upright board.
    fn turn(&self, v: Vec2) -> Vec2 {
        if self.upright() {
            Vec2::new(-v.y, v.x)
        } else {
            v
        }
    }

    /// A point of the landscape 2-player board as it appears on screen: the turned board is
    /// turned round its centre, the upright board a quarter about the board's centre and centred
    /// in its window.
    fn place(&self, v: Vec2) -> Vec2 {
        let centre = Vec2::new(0.0, BOARD_Y);
        let v = if self.turned { 2.0 * centre - v } else { v };
        if self.upright() {
            self.turn(v - Vec2::new(0.0, BOARD_Y)) + Vec2::new(0.0, UPRIGHT_Y)
        } else {
            v
        }
    }

    /// Size of the words and numbers drawn in the world: larger in a tall window, which a phone
    /// held upright shows at about half size.
    pub fn text_scale(&self) -> f32 {
        if self.tall_window { 1.4 } else { 1.0 }
    }

    /// Rotation of the board and the stores on screen.
    pub fn board_angle(&self) -> f32 {
        if self.upright() {
            std::f32::consts::FRAC_PI_2
        } else {
            0.0
        }
    }

    pub fn players(&self) -> usize {
        self.players
    }

    /// Ring slots: citizen and mandarin pits.
    pub fn ring(&self) -> usize {
        geometry::ring_len(self.players)
    }

    fn triangle(&self) -> bool {
        self.players == 3
    }

    /// The corners of the triangle (the mandarin pits' centres): the one before player `p`'s
    /// row, going round counter-clockwise from the bottom left.
    fn corner(p: usize) -> Vec2 {
        let height = SIDE3 * 3f32.sqrt() / 2.0;
        match p % 3 {
            0 => Vec2::new(-SIDE3 / 2.0, BOTTOM3),
            1 => Vec2::new(SIDE3 / 2.0, BOTTOM3),
            _ => Vec2::new(0.0, BOTTOM3 + height),
        }
    }

    /// The centres of the 3-player board's mandarin pits, counter-clockwise.
    pub fn corners(&self) -> [Vec2; 3] {
        [0, 1, 2].map(Layout::corner)
    }

    /// The direction player `p`'s row runs in ring order (toward higher indices).
    pub fn row_direction(&self, p: usize) -> Vec2 {
        if self.triangle() {
            (Layout::corner(p + 1) - Layout::corner(p)).normalize()
        } else if (p == 0) != self.turned {
            self.turn(Vec2::X)
        } else {
            self.turn(Vec2::NEG_X)
        }
    }

    /// The unit vector from player `p`'s row away from the board's middle.
    pub fn outward(&self, p: usize) -> Vec2 {
        let d = self.row_direction(p);
        Vec2::new(d.y, -d.x)
    }

    /// Centre of ring index `index`. On the 2-player board player 0's row runs left to right
    /// along the bottom and player 1's right to left along the top; on the triangle the rows
    /// go round counter-clockwise from the bottom.
    pub fn pit_center(&self, index: usize) -> Vec2 {
        let owner = geometry::owner(index);
        if self.triangle() {
            if geometry::is_mandarin(index) {
                return Layout::corner(owner + 1);
            }
            let k = (index % (ROW_LEN + 1)) as f32 - 2.0;
            let middle = (Layout::corner(owner) + Layout::corner(owner + 1)) / 2.0;
            return middle + self.row_direction(owner) * k * STEP3;
        }
        let step = PIT + GAP;
        let half_row = (ROW_LEN as f32 - 1.0) / 2.0;
        let bottom = BOARD_Y - ROW_SPACING / 2.0;
        let top = BOARD_Y + ROW_SPACING / 2.0;
        let mandarin_x = (half_row + 0.5) * step + MANDARIN_PIT.x / 2.0 + GAP / 2.0;
        self.place(match index {
            0..=4 => Vec2::new((index as f32 - half_row) * step, bottom),
            5 => Vec2::new(mandarin_x, BOARD_Y),
            6..=10 => Vec2::new((half_row - (index - 6) as f32) * step, top),
            _ => Vec2::new(-mandarin_x, BOARD_Y),
        })
    }

    /// Width and height of pit `index`, before its rotation.
    pub fn pit_size(&self, index: usize) -> Vec2 {
        match (self.triangle(), geometry::is_mandarin(index)) {
            (true, true) => Vec2::splat(MANDARIN3),
            (true, false) => Vec2::splat(PIT3),
            (false, true) => MANDARIN_PIT,
            (false, false) => Vec2::splat(PIT),
        }
    }

    /// Rotation of pit `index` (its row's slope).
    pub fn pit_angle(&self, index: usize) -> f32 {
        if self.triangle() && !geometry::is_mandarin(index) {
            self.row_direction(geometry::owner(index)).to_angle()
        } else {
            self.board_angle()
        }
    }

    /// Whether mandarin pit `index`'s half-moon is drawn mirrored: the one at the left end (the
    /// bottom, upright) faces the other way.
    pub fn mirrored_pit(&self, index: usize) -> bool {
        !self.triangle() && geometry::is_mandarin(index) && ((index == 11) != self.turned)
    }

    /// Whether mandarin pits are round (the triangle) rather than half-moons.
    pub fn round_mandarin_pits(&self) -> bool {
        self.triangle()
    }

    /// The wooden board's size (before its rotation, `board_angle`) and centre.
    pub fn board_rect(&self) -> (Vec2, Vec2) {
        if self.triangle() {
            let height = SIDE3 * 3f32.sqrt() / 2.0;
            let size = Vec2::new(SIDE3, height) + 2.0 * WOOD_MARGIN;
            let centre = Vec2::new(0.0, BOTTOM3 + height / 2.0);
            return (size, centre);
        }
        let width = self.pit_center(5).distance(self.pit_center(11)) + MANDARIN_PIT.x + 2.0 * 26.0;
        (
            Vec2::new(width, MANDARIN_PIT.y + 2.0 * 26.0),
            self.place(Vec2::new(0.0, BOARD_Y)),
        )
    }

    /// Size of a store, before its rotation (`board_angle`).
    pub fn store_size(&self) -> Vec2 {
        if self.triangle() {
            Vec2::new(250.0, 118.0)
        } else {
            Vec2::new(560.0, 64.0)
        }
    }

    /// Centre of `player`'s store: under the bottom row and over the top row on the 2-player
    /// board; in the free corners of the window beside the triangle, or in a row under it in a
    /// tall window, each on its player's side (the left row's on the left).
    pub fn store_center(&self, player: usize) -> Vec2 {
        if self.tall_triangle() {
            let x = match player {
                0 => 0.0,
                1 => 262.0,
                _ => -262.0,
            };
            return Vec2::new(x, -420.0);
        }
        if self.triangle() {
            return match player {
                0 => Vec2::new(500.0, -190.0),
                1 => Vec2::new(500.0, 150.0),
                _ => Vec2::new(-500.0, 150.0),
            };
        }
        let (board, _) = self.board_rect();
        let offset = board.y / 2.0 + self.store_size().y / 2.0 + 18.0;
        self.place(if player == 0 {
            Vec2::new(0.0, BOARD_Y - offset)
        } else {
            Vec2::new(0.0, BOARD_Y + offset)
        })
    }

    /// Where the label of `player`'s store goes.
    pub fn store_label_position(&self, player: usize) -> Vec2 {
        let store = self.store_size();
        if self.triangle() {
            self.store_center(player) - Vec2::new(0.0, store.y / 2.0 + 42.0)
        } else if self.upright() {
            // Beyond the ends of the board: player 0's under its row, on the right, player 1's
            // over its row, on the left.
            let (board, centre) = self.board_rect();
            let beyond = board.x / 2.0 + 54.0;
            let x = self.store_center(player).x;
            if player == self.near_side() {
                Vec2::new(x - 30.0, centre.y - beyond)
            } else {
                Vec2::new(x + 30.0, centre.y + beyond)
            }
        } else {
            self.store_center(player) + Vec2::new(store.x / 2.0 + 140.0, 0.0)
        }
    }

    /// Where the "thinking…" label of `player` goes: beside their store.
    pub fn thinking_position(&self, player: usize) -> Vec2 {
        if self.triangle() {
            Vec2::new(0.0, -25.0)
        } else if self.upright() {
            let label = self.store_label_position(player);
            Vec2::new(-label.x, label.y)
        } else {
            self.store_center(player) + Vec2::new(-420.0, 0.0)
        }
    }

    /// Where `player`'s clock goes in a timed game: beyond the left end of the store on the
    /// landscape board, beyond the board's other end from the store's label on the upright one,
    /// under the store's label on the triangle.
    pub fn clock_position(&self, player: usize) -> Vec2 {
        if self.triangle() {
            self.store_label_position(player) - Vec2::new(0.0, 36.0)
        } else if self.upright() {
            let label = self.store_label_position(player);
            Vec2::new(-label.x, label.y)
        } else {
            self.store_center(player) - Vec2::new(self.store_size().x / 2.0 + 90.0, 0.0)
        }
    }

    /// Centre of the round table-flip button: beyond the right-hand mandarin pit (over the top
    /// one on the upright board).
    pub fn flip_button_position(&self) -> Vec2 {
        let (board, centre) = self.board_rect();
        let beyond = board.x / 2.0 + 70.0;
        if self.upright() {
            Vec2::new(centre.x, centre.y + beyond)
        } else {
            Vec2::new(centre.x + beyond, centre.y)
        }
    }

    /// Where the hand holds stones above `index` while sowing.
    pub fn hand_position(&self, index: usize) -> Vec2 {
        self.pit_center(index) + Vec2::new(0.0, 46.0)
    }

    /// A stone's place inside pit `index`: a loose spiral from the centre, jittered by `seed`,
    /// so that a pile looks like a pile and never leaves the pit.
    pub fn stone_offset(&self, index: usize, slot: usize, seed: u32) -> Vec2 {
        let mandarin_pit = geometry::is_mandarin(index);
        let size = self.pit_size(index);
        let golden = 2.399_963_f32;
        let radius_limit = match (mandarin_pit, self.triangle()) {
            (true, false) => 40.0,
            (true, true) => size.x / 2.0 - 30.0,
            (false, _) => size.x / 2.0 - 16.0,
        };
        let r = (8.0 * (slot as f32).sqrt()).min(radius_limit);
        let jitter = (hash(seed ^ slot as u32) % 1000) as f32 / 1000.0 - 0.5;
        let angle = slot as f32 * golden + jitter;
        // In a mandarin pit the stones gather below the mandarin piece, which sits higher up.
        let (squash, centre) = match (mandarin_pit, self.triangle()) {
            (true, false) => (Vec2::new(0.8, 1.2), Vec2::new(0.0, -44.0)),
            (true, true) => (Vec2::new(1.0, 0.6), Vec2::new(0.0, -18.0)),
            (false, _) => (Vec2::ONE, Vec2::ZERO),
        };
        self.turn(centre + Vec2::new(angle.cos(), angle.sin()) * r * squash)
    }

    /// Where a mandarin piece sits in its mandarin pit.
    pub fn piece_offset(&self) -> Vec2 {
        if self.triangle() {
            Vec2::new(0.0, 20.0)
        } else {
            self.turn(Vec2::new(0.0, 50.0))
        }
    }

    /// A stone's place in a store: rows of small stones from the left, after the mandarins.
    pub fn store_offset(&self, slot: usize) -> Vec2 {
        let store = self.store_size();
        let (per_row, rows) = if self.triangle() { (14, 5) } else { (36, 2) };
        let (row, col) = ((slot % (per_row * rows)) / per_row, slot % per_row);
        self.turn(Vec2::new(
            -store.x / 2.0 + 60.0 + col as f32 * 13.5,
            store.y / 2.0 - 20.0 - row as f32 * 21.0,
        ))
    }

    /// A captured mandarin's place in a store: at the left end.
    pub fn store_mandarin_offset(&self, slot: usize) -> Vec2 {
        let store = self.store_size();
        // The triangle's taller stores keep captured mandarins apart.
        let step = if self.triangle() { 38.0 } else { 26.0 };
        self.turn(Vec2::new(
            -store.x / 2.0 + 22.0,
            store.y / 2.0 - 22.0 - slot as f32 * step,
        ))
    }

    /// The ring index under `point`, if any.
    pub fn pit_at(&self, point: Vec2) -> Option<usize> {
        (0..self.ring()).find(|&i| {
            let local = Rot2::radians(-self.pit_angle(i)) * (point - self.pit_center(i));
            let half = self.pit_size(i) / 2.0;
            if self.triangle() && geometry::is_mandarin(i) {
                local.length() <= half.x
            } else {
                local.x.abs() <= half.x && local.y.abs() <= half.y
            }
        })
    }

    /// Which sowing direction the screen's `side` means on `player`'s row.
    pub fn direction_for(&self, player: usize, side: Side) -> Direction {
        // Counter-clockwise is toward higher ring indices, along the row's direction: it goes
        // right on screen (up on the upright board) when that direction points that way.
        let ccw_goes_right = self.row_direction(player).dot(self.screen_axis()) > 0.0;
        if ccw_goes_right == (side == Side::Right) {
            Direction::CounterClockwise
        } else {
            Direction::Clockwise
        }
    }

    /// The screen side a sowing direction goes toward on `player`'s row.
    pub fn side_for(&self, player: usize, dir: Direction) -> Side {
        if self.direction_for(player, Side::Left) == dir {
            Side::Left
        } else {
            Side::Right
        }
    }

    /// The unit vector an arrow for `side` points along on `player`'s row.
    pub fn arrow_direction(&self, player: usize, side: Side) -> Vec2 {
        match self.direction_for(player, side) {
            Direction::CounterClockwise => self.row_direction(player),
            Direction::Clockwise => -self.row_direction(player),
        }
    }

    /// Where the two arrows of a selected pit go: beside its row, one each way along the row;
    /// on the player's side of the 2-player board, inside the triangle of the 3-player board.
    /// They are big enough for a finger, so they may cover a neighbour or a store while they
    /// show.
    pub fn arrow_position(&self, index: usize, side: Side) -> Vec2 {
        let owner = geometry::owner(index);
        let off_row = self.pit_size(index).y / 2.0 + ARROW / 2.0 - 14.0;
        let away = if self.triangle() { -1.0 } else { 1.0 };
        self.pit_center(index)
            + self.arrow_direction(owner, side) * (ARROW / 2.0 + 2.0)
            + self.outward(owner) * off_row * away
    }

    /// The arrow of `side` beside the selected `pit` is under `point`.
    pub fn arrow_hit(&self, pit: usize, side: Side, point: Vec2) -> bool {
        point.distance(self.arrow_position(pit, side)) <= ARROW / 2.0
    }

    /// Where the count badge of pit `index` goes: a corner toward the middle of the board.
    pub fn badge_position(&self, index: usize) -> Vec2 {
        let size = self.pit_size(index);
        if self.triangle() {
            let centre = self.pit_center(index);
            let middle = self.corners().iter().sum::<Vec2>() / 3.0;
            let inward = if geometry::is_mandarin(index) {
                (middle - centre).normalize()
            } else {
                -self.outward(geometry::owner(index))
            };
            return centre + inward * (size.y / 2.0 + 12.0);
        }
        // The pit's top-right corner on screen, whichever way the board stands.
        let on_screen = if self.upright() {
            Vec2::new(size.y, size.x)
        } else {
            size
        };
        let inset = match (geometry::is_mandarin(index), self.upright()) {
            // Clear of the half-moon's curve.
            (true, false) => Vec2::new(26.0, 14.0),
            (true, true) => Vec2::new(40.0, 24.0),
            (false, _) => Vec2::new(16.0, 14.0),
        } * self.count_scale().sqrt();
        self.pit_center(index) + on_screen / 2.0 - inset
    }

    /// Size of the pits' and stores' counts: larger in a tall window, which a phone held
    /// upright shows at about half size.
    pub fn count_scale(&self) -> f32 {
        if self.tall_window { 1.8 } else { 1.0 }
    }

    /// Where the count of `player`'s store goes: its top-right corner on screen, as on the
    /// pits.
    pub fn store_badge_position(&self, player: usize) -> Vec2 {
        let size = self.store_size();
        let on_screen = if self.upright() {
            Vec2::new(size.y, size.x)
        } else {
            size
        };
        self.store_center(player) + on_screen / 2.0 - Vec2::splat(6.0)
    }

    /// The middle of `player`'s row, its angle on screen and its size before the angle: for
    /// the glow round the row of the player to move.
    pub fn row_rect(&self, player: usize) -> (Vec2, f32, Vec2) {
        let row = geometry::row(player);
        let (first, last) = (row.start, row.end - 1);
        let centre = (self.pit_center(first) + self.pit_center(last)) / 2.0;
        let size = if self.triangle() {
            Vec2::new(4.0 * STEP3 + PIT3 + 8.0, PIT3 + 8.0)
        } else {
            ROW_GLOW
        };
        (centre, self.pit_angle(first), size)
    }
    /// The highest point of what the board draws in the world (the wood, the pits and their
    /// arrows, the stores, their labels and the clocks): a bar along the window's top must end
    /// above it. The world's top edge is higher still, so a bar of ordinary size costs the board
    /// nothing.
    pub fn content_top(&self) -> f32 {
        let on_screen = |size: Vec2| if self.upright() { size.yx() } else { size };
        let (board, centre) = self.board_rect();
        let label = LABEL_HALF_HEIGHT * self.text_scale();
        let stores = (0..self.players()).flat_map(|p| {
            [
                self.store_center(p).y + on_screen(self.store_size()).y / 2.0,
                self.store_label_position(p).y + label,
                self.clock_position(p).y + label,
            ]
        });
        let arrows = (0..self.ring())
            .filter(|&i| !geometry::is_mandarin(i))
            .flat_map(|i| [Side::Left, Side::Right].map(|s| self.arrow_position(i, s).y))
            .map(|y| y + ARROW / 2.0);
        let pits = (0..self.ring())
            .map(|i| self.pit_center(i).y + on_screen(self.pit_size(i)).max_element() / 2.0);
        stores
            .chain(arrows)
            .chain(pits)
            .fold(centre.y + on_screen(board).y / 2.0, f32::max)
    }
}

/// Half the height of a store's label (three lines: the player, the stones, the points) or a
/// clock, in world units (before `text_scale`).
const LABEL_HALF_HEIGHT: f32 = 36.0;

/// How the camera shows a world of `world` units, whose drawing reaches up to `content_top`, in a
/// window of `window` logical pixels with bars taking `room` along its edges: the world as large
/// as the window allows with the room under it for the bottom bar, the top bar above the
/// drawing, and the columns at the sides beside the world. Returns the pixels per world unit and
/// the camera's viewport origin (where the world's centre stands, from the bottom left, in
/// fractions of the window).
pub fn camera_fit(world: Vec2, content_top: f32, window: Vec2, room: &BarSpace) -> (f32, Vec2) {
    let (w, h) = (window.x.max(1.0), window.y.max(1.0));
    let BarSpace {
        top,
        bottom,
        right,
        left,
        ..
    } = *room;
    let drawn = content_top + world.y / 2.0;
    let scale = ((w - left - right) / world.x)
        .min((h - bottom) / world.y)
        .min((h - top - bottom) / drawn)
        // Bars taller than the window leave the board a sliver, never less than nothing.
        .max(MIN_SCALE);
    // What must show, in world units: from the bottom bar's room under the world up to the top
    // bar's room over the drawing. The world stays centred where that leaves both clear (a
    // window with height to spare), and moves as little as it must otherwise.
    let low = -world.y / 2.0 - bottom / scale;
    let high = content_top + top / scale;
    let shown = h / scale;
    let centre = 0.0f32.min(low + shown / 2.0).max(high - shown / 2.0);
    let across = (left + (w - left - right).max(0.0) / 2.0) / w;
    (scale, Vec2::new(across, 0.5 - centre / shown))
}

/// The least scale `camera_fit` gives, in pixels per world unit.
const MIN_SCALE: f32 = 0.02;

fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb_352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846c_a68b);
    x ^ (x >> 16)
}

#[cfg(test)]
mod tests {
    use super::*;
    use bevy::prelude::default;

    /// Both boards, in a landscape and in a portrait window, the 2-player board either way round.
    fn boards() -> [Layout; 6] {
        [
            Layout::new(2),
            Layout::new(3),
            Layout::new(2).for_window(true),
            Layout::new(3).for_window(true),
            Layout::new(2).nearest(1),
            Layout::new(2).for_window(true).nearest(1),
        ]
    }

    /// Half the extent on screen of a `size` rectangle turned by `angle`.
    fn half_extent(size: Vec2, angle: f32) -> Vec2 {
        let (sin, cos) = angle.sin_cos();
        Vec2::new(
            size.x * cos.abs() + size.y * sin.abs(),
            size.x * sin.abs() + size.y * cos.abs(),
        ) / 2.0
    }

    #[test]
    fn left_and_right_are_the_screen_s_on_every_row() {
        let two = Layout::new(2);
        // Bottom row: sowing right goes to higher ring indices; top row: the other way.
        assert_eq!(
            two.direction_for(0, Side::Right),
            Direction::CounterClockwise
        );
        assert_eq!(
            two.direction_for(1, Side::Left),
            Direction::CounterClockwise
        );
        // Upright, player 0's row runs up the right-hand side: up is its counter-clockwise.
        let upright = two.for_window(true);
        assert!(upright.pit_center(0).x > 0.0 && upright.pit_center(6).x < 0.0);
        assert_eq!(
            upright.direction_for(0, Side::Right),
            Direction::CounterClockwise
        );
        for layout in boards() {
            let axis = layout.screen_axis();
            for player in 0..layout.players() {
                for side in [Side::Left, Side::Right] {
                    let dir = layout.direction_for(player, side);
                    assert_eq!(layout.side_for(player, dir), side);
                    // The next pit that way is really on that side of the screen.
                    let pit = geometry::row(player).start + 2;
                    let next = match dir {
                        Direction::CounterClockwise => pit + 1,
                        Direction::Clockwise => pit - 1,
                    };
                    let along = (layout.pit_center(next) - layout.pit_center(pit)).dot(axis);
                    assert_eq!(
                        along < 0.0,
                        side == Side::Left,
                        "{layout:?} {player} {side:?}"
                    );
                    // And its arrow is the one on that side.
                    let other = match side {
                        Side::Left => Side::Right,
                        Side::Right => Side::Left,
                    };
                    let a = layout.arrow_position(pit, side).dot(axis);
                    let b = layout.arrow_position(pit, other).dot(axis);
                    assert_eq!(a < b, side == Side::Left);
                }
            }
        }
    }

    #[test]
    fn every_pit_is_hit_at_its_centre_and_stones_stay_inside() {
        for layout in boards() {
            for i in 0..layout.ring() {
                assert_eq!(layout.pit_at(layout.pit_center(i)), Some(i), "{layout:?}");
                for slot in 0..40 {
                    let p = layout.pit_center(i) + layout.stone_offset(i, slot, 7);
                    assert_eq!(layout.pit_at(p), Some(i), "{layout:?} pit {i} slot {slot}");
                }
                if !geometry::is_mandarin(i) {
                    // The two arrows are apart, and each is hit at its centre only.
                    let left = layout.arrow_position(i, Side::Left);
                    let right = layout.arrow_position(i, Side::Right);
                    assert!(layout.arrow_hit(i, Side::Left, left));
                    assert!(
                        !layout.arrow_hit(i, Side::Right, left),
                        "{layout:?} pit {i}"
                    );
                    assert!(!layout.arrow_hit(i, Side::Left, right));
                }
            }
            let corner = layout.world() / 2.0 - 5.0;
            assert_eq!(layout.pit_at(corner), None);
        }
    }

    #[test]
    fn pits_and_arrows_are_big_enough_for_a_finger_on_a_phone() {
        // A phone of 390 × 844 points at 160 points per inch, held either way; 9 mm at least.
        let points_per_mm = 160.0 / 25.4;
        for (window, tall) in [
            (Vec2::new(390.0, 844.0), true),
            (Vec2::new(844.0, 390.0), false),
        ] {
            // Millimetres on the phone of `units` of `players`' world, shown whole.
            let mm = |players: usize, units: f32| {
                let world = Layout::new(players).for_window(tall).world();
                units * (window.x / world.x).min(window.y / world.y) / points_per_mm
            };
            assert!(mm(2, PIT) >= 9.0, "pit {:.1} mm, tall {tall}", mm(2, PIT));
            assert!(
                mm(2, ARROW) >= 9.0,
                "arrow {:.1} mm, tall {tall}",
                mm(2, ARROW)
            );
            // Five pits and two mandarin pits along each side of the triangle leave it 6.5 mm
            // pits at best across an upright phone; a tall window gets the most out of it.
            let pit = mm(3, PIT3);
            assert!(pit >= 6.4, "3-player pit {pit:.1} mm, tall {tall}");
        }
    }

    #[test]
    fn pits_do_not_overlap() {
        for layout in boards() {
            for a in 0..layout.ring() {
                for b in a + 1..layout.ring() {
                    let distance = layout.pit_center(a).distance(layout.pit_center(b));
                    let reach =
                        (layout.pit_size(a).min_element() + layout.pit_size(b).min_element()) / 2.0;
                    assert!(distance >= reach, "{layout:?}: pits {a} and {b}");
                }
            }
        }
    }

    #[test]
    fn the_board_stores_and_arrows_fit_the_world() {
        for layout in boards() {
            let world = layout.world() / 2.0;
            let inside = |centre: Vec2, half: Vec2| {
                centre.x.abs() + half.x <= world.x + 1.0 && centre.y.abs() + half.y <= world.y + 1.0
            };
            let (board, centre) = layout.board_rect();
            let angle = layout.board_angle();
            assert!(
                inside(centre, half_extent(board, angle)),
                "{layout:?} board"
            );
            for p in 0..layout.players() {
                let store = half_extent(layout.store_size(), angle);
                assert!(
                    inside(layout.store_center(p), store),
                    "{layout:?} store {p}"
                );
                let clock = Vec2::new(60.0, 20.0) * layout.text_scale();
                assert!(
                    inside(layout.clock_position(p), clock),
                    "{layout:?} clock {p}"
                );
                for slot in 0..75 {
                    let stone = layout.store_offset(slot);
                    assert!(stone.x.abs() <= store.x && stone.y.abs() <= store.y);
                }
                for pit in geometry::row(p) {
                    for side in [Side::Left, Side::Right] {
                        let arrow = layout.arrow_position(pit, side);
                        assert!(inside(arrow, Vec2::splat(ARROW / 2.0)), "{layout:?} {pit}");
                    }
                }
            }
        }
    }

    #[test]
    fn the_drawing_reaches_up_to_content_top_and_stays_in_the_world() {
        for layout in boards() {
            let top = layout.content_top();
            assert!(top <= layout.world().y / 2.0, "{layout:?}: {top}");
            for i in 0..layout.ring() {
                assert!(layout.pit_center(i).y < top, "{layout:?} pit {i}");
            }
            for p in 0..layout.players() {
                assert!(layout.store_center(p).y < top, "{layout:?} store {p}");
            }
        }
    }

    /// Where world point `y` shows, in pixels from the window's top, for a fit.
    fn screen_y(fit: (f32, Vec2), window: Vec2, y: f32) -> f32 {
        let (scale, origin) = fit;
        window.y * (1.0 - origin.y) - y * scale
    }

    #[test]
    fn the_camera_keeps_the_board_clear_of_the_bars_and_costs_nothing_without_them() {
        let layout = Layout::new(2);
        let (world, top) = (layout.world(), layout.content_top());
        let window = Vec2::new(1280.0, 720.0);
        // No bars, or an ordinary bar over the world's free top: the world fills the window.
        for room in [
            BarSpace::default(),
            BarSpace {
                top: 60.0,
                ..default()
            },
        ] {
            let fit = camera_fit(world, top, window, &room);
            assert_eq!(fit, (1.0, Vec2::new(0.5, 0.5)), "{room:?}");
        }
        // Bars of large text, a column at the right: the drawing between them, the world beside.
        for room in [
            BarSpace {
                top: 200.0,
                bottom: 150.0,
                ..default()
            },
            BarSpace {
                bottom: 100.0,
                right: 300.0,
                left: 120.0,
                ..default()
            },
        ] {
            let fit = camera_fit(world, top, window, &room);
            let (scale, origin) = fit;
            assert!(screen_y(fit, window, top) >= room.top - 0.01, "{room:?}");
            // The world's bottom edge, where the message line is, above the bottom bar.
            let bottom = screen_y(fit, window, -world.y / 2.0);
            assert!(
                bottom <= window.y - room.bottom + 0.01,
                "{room:?}: {bottom}"
            );
            let left = window.x * origin.x - world.x / 2.0 * scale;
            let right = window.x * origin.x + world.x / 2.0 * scale;
            assert!(left >= room.left - 0.01 && right <= window.x - room.right + 0.01);
            assert!(scale < 1.0);
        }
        // A phone held upright has height to spare: a bar of two rows takes it, the world stays
        // where it was.
        let upright = Layout::new(2).for_window(true);
        let phone = Vec2::new(390.0, 844.0);
        let two_rows = BarSpace {
            top: 104.0,
            ..default()
        };
        let fit = camera_fit(upright.world(), upright.content_top(), phone, &two_rows);
        let alone = camera_fit(upright.world(), upright.content_top(), phone, &default());
        assert_eq!(fit, alone);
        assert!(screen_y(fit, phone, upright.content_top()) >= two_rows.top);
        // Bars taller than the window: a sliver of a board, never a negative or endless scale.
        let crushed = BarSpace {
            top: 500.0,
            bottom: 500.0,
            ..default()
        };
        let (scale, origin) = camera_fit(world, top, window, &crushed);
        assert!(scale > 0.0 && scale.is_finite() && origin.is_finite());
    }

    #[test]
    fn the_upright_board_is_the_landscape_board_turned() {
        let flat = Layout::new(2);
        let upright = flat.for_window(true);
        assert_eq!(upright.world(), WORLD_UPRIGHT);
        // The 3-player triangle keeps its shape.
        assert!(!Layout::new(3).for_window(true).upright());
        for i in 0..flat.ring() {
            for j in 0..flat.ring() {
                let d_flat = flat.pit_center(i).distance(flat.pit_center(j));
                let d_up = upright.pit_center(i).distance(upright.pit_center(j));
                assert!((d_flat - d_up).abs() < 0.01);
            }
        }
        // Mandarin pits at the top and the bottom.
        assert!(upright.pit_center(5).y > upright.pit_center(2).y + 300.0);
        assert!(upright.pit_center(11).y < upright.pit_center(2).y - 300.0);
    }

    #[test]
    fn the_turned_board_puts_side_1_nearest_and_keeps_left_and_right() {
        for tall in [false, true] {
            let plain = Layout::new(2).for_window(tall);
            let turned = plain.nearest(1);
            assert_eq!((plain.near_side(), turned.near_side()), (0, 1));
            // Nearest: at the bottom of a landscape window, on the right of an upright board.
            let near = |l: &Layout, p: usize| {
                let c = l.pit_center(geometry::row(p).start + 2);
                if tall { c.x } else { -c.y }
            };
            assert!(near(&plain, 0) > near(&plain, 1));
            assert!(near(&turned, 1) > near(&turned, 0), "tall {tall}");
            // Each store stays beside its own row, and the turned board is the same board.
            for p in 0..2 {
                let row = turned.pit_center(geometry::row(p).start + 2);
                let other = turned.pit_center(geometry::row(1 - p).start + 2);
                let store = turned.store_center(p);
                assert!(store.distance(row) < store.distance(other));
            }
            for i in 0..plain.ring() {
                for j in 0..plain.ring() {
                    let a = plain.pit_center(i).distance(plain.pit_center(j));
                    let b = turned.pit_center(i).distance(turned.pit_center(j));
                    assert!((a - b).abs() < 0.01);
                }
            }
            // Side 1 sowing toward the screen's right on the turned board goes the way side 0's
            // does on the plain one: the same ring direction as seen from the near row.
            assert_eq!(
                turned.direction_for(1, Side::Right),
                plain.direction_for(0, Side::Right)
            );
            // The half-moon at the left (or bottom) end is the mirrored one.
            assert!(plain.mirrored_pit(11) && !plain.mirrored_pit(5));
            assert!(turned.mirrored_pit(5) && !turned.mirrored_pit(11));
        }
        assert!(
            !Layout::new(3).nearest(1).turned,
            "the triangle keeps its place"
        );
    }
}

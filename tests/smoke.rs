//! The real game in a real window (Xvfb, Mesa's software renderer): the computer plays a few
//! moves, the game saves a screenshot of itself, and the picture shows the board with pebbles.

#![cfg(feature = "gui")]

use std::path::Path;
use std::process::Command;

use o_an_quan::game::layout;

/// RGB of the screenshot at world point (x, y) of the 1280 × 720 board area.
struct Shot {
    width: usize,
    rgb: Vec<[u8; 3]>,
}

impl Shot {
    fn read(path: &Path) -> Shot {
        let decoder =
            png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size().unwrap()];
        let info = reader.next_frame(&mut buf).unwrap();
        let channels = info.color_type.samples();
        let rgb = buf[..info.buffer_size()]
            .chunks(channels)
            .map(|c| [c[0], c[1], c[2]])
            .collect();
        Shot {
            width: info.width as usize,
            rgb,
        }
    }

    fn at(&self, x: f32, y: f32) -> [u8; 3] {
        let (px, py) = ((640.0 + x) as usize, (360.0 - y) as usize);
        self.rgb[py * self.width + px]
    }
}

fn near(a: [u8; 3], b: [u8; 3], tolerance: i32) -> bool {
    a.iter()
        .zip(b)
        .all(|(&x, y)| (i32::from(x) - i32::from(y)).abs() <= tolerance)
}

#[test]
fn the_game_shows_the_board_and_its_pebbles() {
    let dir = std::env::temp_dir().join(format!("o-an-quan-smoke-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let shot = dir.join("board.png");
    let status = Command::new("xvfb-run")
        .args(["-a", "-s", "-screen 0 1280x720x24"])
        .arg(env!("CARGO_BIN_EXE_o-an-quan"))
        .args([
            "--autoplay",
            "--level",
            "3",
            "--speed",
            "fast",
            "--after",
            "3",
            "--screenshot",
        ])
        .arg(&shot)
        .status()
        .expect("xvfb-run (Debian package xvfb) runs the game in a virtual screen");
    assert!(
        status.success(),
        "the game exits cleanly after its screenshot"
    );
    let image = Shot::read(&shot);
    assert_eq!(image.width, 1280);
    // The mat around the board, the wood of the board's rim.
    assert!(
        near(image.at(-620.0, 0.0), [77, 49, 29], 12),
        "mat: {:?}",
        image.at(-620.0, 0.0)
    );
    // Between the two rows, halfway along: bare wood.
    let between_rows = (layout::pit_center(2) + layout::pit_center(8)) / 2.0;
    let wood = image.at(between_rows.x, between_rows.y);
    assert!(near(wood, [200, 149, 90], 40), "board: {wood:?}");
    // Pebbles: bright, light-coloured pixels inside the pits, which are dark wood.
    let mut pebble_pixels = 0;
    for pit in 0..12 {
        let centre = layout::pit_center(pit);
        for dy in -40..=40 {
            for dx in -40..=40 {
                let [r, g, b] = image.at(centre.x + dx as f32, centre.y + dy as f32);
                if u32::from(r) + u32::from(g) + u32::from(b) > 330 {
                    pebble_pixels += 1;
                }
            }
        }
    }
    assert!(
        pebble_pixels > 2_000,
        "only {pebble_pixels} pebble pixels in the pits"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

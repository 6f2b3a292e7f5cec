//! The real game in a real window (Xvfb, Mesa's software renderer): the computer plays a few
//! moves, the game saves a screenshot of itself, and the picture shows the board with pebbles;
//! a game killed with SIGKILL in the middle of play resumes from its saved moves.

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use o_an_quan::game::layout::Layout;
use o_an_quan::session::Record;

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
        // Settings and saved games of this run stay in the scratch directory.
        .env("OAQ_HOME", &dir)
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
    // The woven mat round the board.
    assert!(
        near(image.at(-620.0, 0.0), [80, 51, 30], 16),
        "mat: {:?}",
        image.at(-620.0, 0.0)
    );
    // The board's left end, beyond the half-moon pit (where no glow reaches): bare wood.
    let layout = Layout::new(2);
    let (board, centre) = layout.board_rect();
    let wood = image.at(centre.x - board.x / 2.0 + 18.0, centre.y);
    assert!(near(wood, [200, 149, 90], 40), "board: {wood:?}");
    // Pebbles: bright, light-coloured pixels inside the pits, which are dark wood.
    let mut pebble_pixels = 0;
    for pit in 0..12 {
        let centre = layout.pit_center(pit);
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

/// A virtual X screen for as long as it lives.
struct VirtualScreen {
    server: std::process::Child,
    display: String,
}

impl VirtualScreen {
    fn start() -> VirtualScreen {
        let number = 90 + std::process::id() % 500;
        let display = format!(":{number}");
        let server = Command::new("Xvfb")
            .args([
                display.as_str(),
                "-screen",
                "0",
                "1280x720x24",
                "-nolisten",
                "tcp",
            ])
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("Xvfb (Debian package xvfb)");
        std::thread::sleep(Duration::from_millis(800));
        VirtualScreen { server, display }
    }
}

impl Drop for VirtualScreen {
    fn drop(&mut self) {
        let _ = self.server.kill();
        let _ = self.server.wait();
    }
}

#[test]
fn a_game_killed_mid_play_resumes_from_its_last_move() {
    let dir = std::env::temp_dir().join(format!("o-an-quan-kill-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let screen = VirtualScreen::start();
    let game = || {
        let mut command = Command::new(env!("CARGO_BIN_EXE_o-an-quan"));
        command
            .env("OAQ_HOME", &dir)
            .env("DISPLAY", &screen.display);
        command
    };
    let mut running = game()
        .args(["--autoplay", "--level", "1", "--speed", "fast"])
        .stdout(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let saved = dir.join("game.ron");
    let started = std::time::Instant::now();
    let moves_saved = || {
        std::fs::read_to_string(&saved)
            .ok()
            .and_then(|text| Record::parse(&text).ok())
            .map_or(0, |history| history.entries().len())
    };
    while moves_saved() < 5 {
        assert!(
            started.elapsed() < Duration::from_secs(120),
            "the game saved {} moves in two minutes",
            moves_saved()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    // In the middle of whatever it is doing: SIGKILL, no chance to tidy up.
    running.kill().unwrap();
    running.wait().unwrap();
    let text = std::fs::read_to_string(&saved).expect("the saved game survives");
    let record: Record = ron::from_str(&text).expect("a whole file, never half of one");
    let history = Record::parse(&text).expect("a game that replays");
    assert!(history.entries().len() >= 5);

    let shot = dir.join("resumed.png");
    let output = game()
        .args([
            "--resume",
            "--speed",
            "normal",
            "--after",
            "0",
            "--screenshot",
        ])
        .arg(&shot)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let stdout = String::from_utf8_lossy(&output.stdout);
    let moves_line = stdout
        .lines()
        .find_map(|l| l.strip_prefix("moves: "))
        .expect("the game reports its moves");
    let resumed: Vec<&str> = moves_line.split_whitespace().collect();
    // The computer plays on after resuming: the saved moves come first, all of them.
    assert!(
        resumed.len() >= record.moves.len() && resumed[..record.moves.len()] == record.moves[..],
        "saved {:?}, resumed {resumed:?}",
        record.moves
    );
    let image = Shot::read(&shot);
    assert!(
        near(image.at(-620.0, 0.0), [77, 49, 29], 12),
        "the resumed game is on screen"
    );
    drop(screen);
    std::fs::remove_dir_all(&dir).unwrap();
}

//! The `oaq` command line, run as a player or a script would run it.

use std::process::{Command, Output};

fn oaq(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_oaq"))
        .args(args)
        .output()
        .expect("oaq runs")
}

/// `program` with `args`, `input` written to its standard input, run to the end.
fn with_input(program: &str, args: &[&str], input: &str) -> Output {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the program runs");
    child
        .stdin
        .take()
        .expect("its input is piped")
        .write_all(input.as_bytes())
        .expect("it reads its input");
    child.wait_with_output().expect("it ends")
}

fn stdout(out: &Output) -> String {
    String::from_utf8(out.stdout.clone()).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8(out.stderr.clone()).unwrap()
}

/// `oaq match` given `file` by `flag` refuses it, with exit status 2 and a message saying `why`,
/// before any game.
fn match_refuses_a_file(flag: &str, file: &std::path::Path, why: &str) {
    let refused = oaq(&[
        "match",
        "--rules",
        "basic",
        "--a",
        "1",
        "--b",
        "1",
        "--games",
        "2",
        flag,
        file.to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(stderr(&refused).contains(why), "{}", stderr(&refused));
}

#[test]
fn rules_lists_every_preset_and_shows_one() {
    let out = oaq(&["rules"]);
    assert!(out.status.success());
    let text = stdout(&out);
    for id in [
        "standard",
        "young-mandarin",
        "basic",
        "mature-quan",
        "table-flip",
        "mature-quan-3p",
        "ten-seeds",
    ] {
        assert!(
            text.lines().any(|l| l.starts_with(id)),
            "{id} missing from {text}"
        );
    }
    assert!(text.contains("Quan Già"));
    let shown = stdout(&oaq(&["rules", "show", "mature-quan"]));
    assert!(shown.contains("min_stones: Some(5)") && shown.contains("repetition: true"));
    let missing = oaq(&["rules", "show", "chess"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(stderr(&missing).contains("chess"));
}

#[test]
fn replay_prints_the_start_and_the_state_after_each_move() {
    let out = oaq(&["replay", "--rules", "table-flip", "--moves", "2- swap 8+"]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 4);
    let keys: Vec<&str> = lines[0]
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = [
        "ply", "to_move", "pits", "quan", "stores", "scores", "over", "forfeit", "swapped",
    ];
    expected.sort();
    let mut sorted = keys.clone();
    sorted.sort();
    assert_eq!(sorted, expected);
    assert_eq!(lines[1]["scores"], serde_json::json!([6, 0]));
    assert_eq!(
        lines[1]["pits"],
        serde_json::json!([0, 0, 6, 6, 6, 1, 6, 0, 6, 6, 6, 1])
    );
    assert_eq!(lines[2]["swapped"], true);
    assert_eq!(lines[2]["ply"], 1);
    assert_eq!(lines[2]["to_move"], 1);
    assert_eq!(lines[3]["ply"], 2);
    assert_eq!(lines[3]["stores"][0]["owes"], serde_json::json!([0, 0]));
}

#[test]
fn an_illegal_move_stops_with_status_2_and_keeps_the_lines_before() {
    let out = oaq(&["replay", "--rules", "standard", "--moves", "2- 7+ 3+"]);
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(stdout(&out).lines().count(), 2);
    let message = stderr(&out);
    assert!(
        message.contains("ply 1") && message.contains("7+"),
        "{message}"
    );
    assert!(
        message.contains("legal moves: 6- 6+ 8- 8+ 9- 9+ 10- 10+"),
        "{message}"
    );

    let unparsable = oaq(&["replay", "--rules", "standard", "--moves", "2- 7x"]);
    assert_eq!(unparsable.status.code(), Some(2));
    assert_eq!(stdout(&unparsable).lines().count(), 2);
    assert!(stderr(&unparsable).contains("\"7x\""));
}

#[test]
fn replay_starts_from_a_given_position() {
    let position = r#"{"pits":[0,2,2,1,1,0,1,2,2,2,1,0],"stores":[{"stones":36},{}]}"#;
    let out = oaq(&[
        "replay",
        "--rules",
        "mature-quan",
        "--position",
        position,
        "--moves",
        "4+ 6- 4+ 6- 4+ 6-",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let last: serde_json::Value =
        serde_json::from_str(stdout(&out).lines().last().unwrap()).unwrap();
    assert_eq!(last["over"], true);
    assert_eq!(last["quan"], serde_json::json!([false, false]));

    let broken = oaq(&[
        "replay",
        "--rules",
        "standard",
        "--position",
        r#"{"pits":[1,2]}"#,
        "--moves",
        "",
    ]);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("pits: 2 entries"));
}

#[test]
fn a_bad_rules_file_is_named_and_explained() {
    let dir = std::env::temp_dir().join(format!("oaq-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("house.ron");
    let text = stdout(&oaq(&["rules", "show", "basic"])).replace("players: 2", "players: 5");
    std::fs::write(&file, text).unwrap();
    let out = oaq(&["replay", "--rules", file.to_str().unwrap(), "--moves", "1+"]);
    assert_eq!(out.status.code(), Some(2));
    let message = stderr(&out);
    assert!(
        message.contains("house.ron") && message.contains("players"),
        "{message}"
    );

    std::fs::write(&file, "Preset(id: \"x\"").unwrap();
    let out = oaq(&["perft", "--rules", file.to_str().unwrap(), "--depth", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(stderr(&out).contains("house.ron"));
    let unknown = oaq(&["perft", "--rules", "nonsense", "--depth", "1"]);
    assert!(stderr(&unknown).contains("the presets are standard"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn perft_prints_a_count_per_depth() {
    let out = oaq(&["perft", "--rules", "standard", "--depth", "4"]);
    assert!(out.status.success());
    let counts: Vec<u64> = stdout(&out)
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap().parse().unwrap())
        .collect();
    assert_eq!(counts, [10, 80, 664, 5128]);
    assert!(stdout(&out).contains("nodes/s"));
}

#[test]
fn ai_answers_each_line_and_survives_bad_ones() {
    let start = stdout(&oaq(&["replay", "--rules", "standard", "--moves", ""]));
    let input = format!("{start}{{\"pits\": [1,2\nnot json\n{{\"pits\":[]}}\n{start}");
    let out = with_input(
        env!("CARGO_BIN_EXE_oaq"),
        &["ai", "--rules", "standard", "--level", "easy"],
        &input,
    );
    assert!(out.status.success());
    let answers: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(answers.len(), 5);
    for i in [0, 4] {
        let mv = answers[i]["move"].as_str().unwrap();
        assert!(mv.ends_with('+') || mv.ends_with('-'), "{mv}");
        assert!(answers[i]["depth"].as_u64().unwrap() >= 1);
        assert!(answers[i]["nodes"].as_u64().is_some() && answers[i]["ms"].as_u64().is_some());
        assert!(answers[i]["score"].is_number());
    }
    assert!(answers[1]["error"].as_str().unwrap().contains("not JSON"));
    assert!(answers[2]["error"].as_str().unwrap().contains("not JSON"));
    assert!(answers[3]["error"].as_str().unwrap().contains("pits"));
}

#[test]
fn match_reports_the_result_of_both_seats() {
    let out = oaq(&[
        "match", "--rules", "basic", "--a", "3", "--b", "1", "--games", "4", "--seed", "5",
        "--jobs", "1",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    assert!(text.starts_with("4 games on basic: A (level 3)"), "{text}");
    assert!(
        text.contains("95% interval") && text.contains("ms per move on average"),
        "{text}"
    );
    // A level without noise against itself plays each opening's two games alike, seats
    // swapped: every opening is even.
    let mirror = oaq(&[
        "match", "--rules", "basic", "--a", "7", "--b", "7", "--games", "4", "--seed", "5",
    ]);
    let text = stdout(&mirror);
    assert!(
        text.contains("openings (both games): A won both 0, A ahead 0, even 2, B ahead 0"),
        "{text}"
    );
    assert!(text.contains("the side that moves first from the opening scores"));
    let three = oaq(&[
        "match",
        "--rules",
        "mature-quan-3p",
        "--a",
        "1",
        "--b",
        "1",
        "--games",
        "2",
    ]);
    assert_eq!(three.status.code(), Some(2));
}

#[test]
fn out_of_range_arguments_are_refused_with_the_range_before_anything_runs() {
    let cases: [(&[&str], &str); 14] = [
        (&["bench", "--seconds=-1"], "give more than 0"),
        (&["bench", "--seconds", "-1"], "give more than 0"),
        (&["bench", "--seconds", "NaN"], "give more than 0"),
        (&["bench", "--seconds", "inf"], "give more than 0"),
        (&["bench", "--seconds", "1e30"], "give more than 0"),
        (
            &[
                "match",
                "--rules",
                "basic",
                "--a",
                "1",
                "--b",
                "1",
                "--games",
                "18446744073709551615",
            ],
            "games",
        ),
        (
            &[
                "match",
                "--rules",
                "basic",
                "--a",
                "1",
                "--b",
                "1",
                "--games",
                "100000000000",
            ],
            "give 2 to 100000",
        ),
        (
            &[
                "match", "--rules", "basic", "--a", "1", "--b", "1", "--games", "0",
            ],
            "give 2 to 100000",
        ),
        (
            &[
                "match", "--rules", "basic", "--a", "1", "--b", "1", "--games", "1",
            ],
            "odd",
        ),
        (
            &[
                "match", "--rules", "basic", "--a", "1", "--b", "1", "--games", "-1",
            ],
            "games",
        ),
        (
            &["tune", "--rules", "basic", "--games", "0"],
            "give 2 to 100000",
        ),
        (&["perft", "--rules", "basic", "--depth", "1000"], "1..=12"),
        (&["tune", "--rules", "basic", "--depth", "1000"], "1..=12"),
        (
            &[
                "ai",
                "--rules",
                "basic",
                "--level",
                "master",
                "--threads",
                "40000",
            ],
            "1..=64",
        ),
    ];
    for (args, expected) in cases {
        let out = oaq(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let error = stderr(&out);
        assert!(error.contains(expected), "{args:?}: {error}");
        assert!(!error.contains("unexpected argument"), "{args:?}: {error}");
    }
}

#[test]
fn tune_refuses_an_output_it_cannot_write_before_the_first_round() {
    let out = oaq(&[
        "tune",
        "--rules",
        "basic",
        "--rounds",
        "1",
        "--games",
        "2",
        "--depth",
        "1",
        "--out",
        "/no/such/dir/w.ron",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let error = stderr(&out);
    assert!(error.contains("/no/such/dir/w.ron"), "{error}");
    assert!(
        !error.contains("round 0"),
        "played before refusing: {error}"
    );
}

#[test]
fn errors_quote_a_long_bad_value_cut_short() {
    let long = "7".repeat(60_000);
    for args in [
        vec!["replay", "--rules", "standard", "--moves", long.as_str()],
        vec!["replay", "--rules", long.as_str(), "--moves", "1+"],
        vec!["ai", "--rules", "standard", "--level", long.as_str()],
    ] {
        let out = oaq(&args);
        assert_eq!(out.status.code(), Some(2));
        let error = stderr(&out);
        assert!(
            error.len() < 400,
            "{} bytes: {}",
            error.len(),
            &error[..200]
        );
        assert!(error.contains("60000 characters"), "{error}");
    }
}

#[test]
fn ai_answers_a_line_that_is_not_utf8_and_reads_on() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_oaq"))
        .args(["ai", "--rules", "standard", "--level", "hard"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(b"\xff\xfe{\n{\"pits\":[5,5,5,5,5,0,5,5,5,5,5,0]}\n")
        .unwrap();
    drop(stdin);
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert!(lines[0]["error"].as_str().unwrap().contains("not UTF-8"));
    assert!(lines[1]["move"].is_string());
    // Scores are rounded as decimals: an f32 printed as f64 shows a long binary tail.
    let score = lines[1]["score"].to_string();
    assert!(
        score.split('.').nth(1).is_none_or(|d| d.len() <= 2),
        "{score}"
    );
}

#[test]
fn icons_are_painted_as_the_web_app_ships_them() {
    let dir = std::env::temp_dir().join(format!("oaq-icons-{}", std::process::id()));
    let out = oaq(&["icons", "--out", dir.to_str().unwrap()]);
    assert!(out.status.success(), "{}", stderr(&out));
    let shipped = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("web/icons");
    for (name, size) in [
        ("icon-32.png", 32),
        ("icon-192.png", 192),
        ("icon-512.png", 512),
        ("icon-maskable-512.png", 512),
        ("apple-touch-icon.png", 180),
    ] {
        let painted = std::fs::read(dir.join(name)).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(painted.clone()));
        let info = decoder.read_info().unwrap().info().clone();
        assert_eq!((info.width, info.height), (size, size), "{name}");
        assert_eq!(
            std::fs::read(shipped.join(name)).unwrap(),
            painted,
            "web/icons/{name} is not what `oaq icons` paints: run it again"
        );
    }
    // The manifest names the icons that are there.
    let manifest = std::fs::read_to_string(shipped.join("../manifest.webmanifest")).unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest).unwrap();
    for icon in manifest["icons"].as_array().unwrap() {
        let src = icon["src"].as_str().unwrap();
        assert!(shipped.join("..").join(src).exists(), "{src}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn match_reports_the_paired_margin_of_each_opening() {
    // Level 7 (a ten-move search) against level 1 (one move ahead, noisy): A is ahead on the
    // pairs, and the interval says so.
    let out = oaq(&[
        "match", "--rules", "basic", "--a", "7", "--b", "1", "--games", "8", "--seed", "2",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let text = stdout(&out);
    let line = text
        .lines()
        .find(|l| l.starts_with("paired margin A - B: +"))
        .unwrap_or_else(|| panic!("no positive paired margin in {text}"));
    assert!(line.contains("(95% interval, 4 openings)"), "{line}");
    // Weights from a file play as the shipped ones when they are the same.
    let dir = std::env::temp_dir().join(format!("oaq-weights-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let same = dir.join("same.ron");
    std::fs::write(&same, include_str!("../assets/ai/weights.ron")).unwrap();
    let mirror = oaq(&[
        "match",
        "--rules",
        "basic",
        "--a",
        "7",
        "--b",
        "7",
        "--games",
        "4",
        "--a-weights",
        same.to_str().unwrap(),
    ]);
    assert!(
        stdout(&mirror).contains("paired margin A - B: +0.00 ± 0.00"),
        "{}",
        stdout(&mirror)
    );
    let broken = dir.join("broken.ron");
    std::fs::write(&broken, "(row_stones: 1)").unwrap();
    match_refuses_a_file("--b-weights", &broken, "not evaluation weights");
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn fit_writes_weights_that_match_reads() {
    let dir = std::env::temp_dir().join(format!("oaq-fit-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out_path = dir.join("fitted.ron");
    let out = oaq(&[
        "fit",
        "--rules",
        "basic",
        "--games",
        "6",
        "--depth",
        "2",
        "--rounds",
        "1",
        "--out",
        out_path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("mean squared error"),
        "{}",
        stderr(&out)
    );
    let fitted = std::fs::read_to_string(&out_path).unwrap();
    assert!(fitted.contains("capture_now:"), "{fitted}");
    let played = oaq(&[
        "match",
        "--rules",
        "basic",
        "--a",
        "2",
        "--b",
        "2",
        "--games",
        "2",
        "--a-weights",
        out_path.to_str().unwrap(),
    ]);
    assert!(played.status.success(), "{}", stderr(&played));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn book_build_resumes_and_keeps_what_it_searched() {
    let dir = std::env::temp_dir().join(format!("oaq-book-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("basic.ron");
    let args = [
        "book",
        "build",
        "--rules",
        "basic",
        "--seconds",
        "0.02",
        "--out",
        path.to_str().unwrap(),
    ];
    let first = oaq(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let book = std::fs::read_to_string(&path).unwrap();
    // The start and the ten positions after one move, each with every move valued.
    assert_eq!(book.matches("moves:").count(), 11, "{book}");
    let again = oaq(&args);
    assert!(
        stderr(&again).contains("11 kept") && stderr(&again).contains("0 to search"),
        "{}",
        stderr(&again)
    );
    assert_eq!(std::fs::read_to_string(&path).unwrap(), book);
    // A longer search asked for redoes them; a book of another preset is refused.
    std::fs::write(
        &path,
        book.replace("preset: \"basic\"", "preset: \"standard\""),
    )
    .unwrap();
    let wrong = oaq(&args);
    assert_eq!(wrong.status.code(), Some(2));
    assert!(
        stderr(&wrong).contains("not of basic"),
        "{}",
        stderr(&wrong)
    );
    std::fs::write(&path, "(preset: \"basic\", entries: [(moves: \"9-\"").unwrap();
    let broken = oaq(&args);
    assert_eq!(broken.status.code(), Some(2));
    assert!(stderr(&broken).contains("afresh"), "{}", stderr(&broken));
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_analysis_commands_report() {
    let stability = oaq(&[
        "stability",
        "--rules",
        "basic",
        "--depth",
        "2",
        "--positions",
        "5",
    ]);
    assert!(stability.status.success(), "{}", stderr(&stability));
    let text = stdout(&stability);
    assert!(
        text.starts_with("5 positions on basic, depth 2 against depth 4"),
        "{text}"
    );
    assert!(text.contains("with capture search"), "{text}");
    let endgame = oaq(&[
        "endgame",
        "--rules",
        "basic",
        "--stones",
        "8",
        "--down-to",
        "6",
        "--positions",
        "3",
        "--seconds",
        "0.5",
    ]);
    assert!(endgame.status.success(), "{}", stderr(&endgame));
    let text = stdout(&endgame);
    // A row per count, each with its positions and the share proved.
    let rows: Vec<Vec<&str>> = text
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().collect())
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for (row, stones) in rows.iter().zip(["8", "6"]) {
        assert_eq!(row[0], stones, "{text}");
        assert!(row[2].ends_with('%'), "{text}");
    }
    let rate = oaq(&[
        "rate",
        "--rules",
        "basic",
        "--games",
        "2",
        "--span",
        "1",
        "--time-scale",
        "0.01",
    ]);
    assert!(rate.status.success(), "{}", stderr(&rate));
    let text = stdout(&rate);
    assert!(
        text.contains("level  2 vs  1:") && text.contains("level 10:"),
        "{text}"
    );
    assert!(text.contains("level  1: 1000"), "{text}");
}

#[test]
fn review_prints_a_judged_line_per_move() {
    let out = oaq(&[
        "review", "--rules", "basic", "--moves", "2- 8- 3+", "--depth", "6",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let lines: Vec<serde_json::Value> = stdout(&out)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 3);
    for (i, (line, mv)) in lines.iter().zip(["2-", "8-", "3+"]).enumerate() {
        assert_eq!(line["move"], mv);
        assert_eq!(line["ply"], i);
        assert_eq!(line["player"], i % 2);
        assert_eq!(line["depth"], 6);
        let (value, best) = (
            line["value"].as_f64().unwrap(),
            line["best_value"].as_f64().unwrap(),
        );
        let loss = line["loss"].as_f64().unwrap();
        assert!((best - value - loss).abs() < 1e-9, "{line}");
        // The graph's line is the first player's view.
        let sign = if i % 2 == 0 { 1.0 } else { -1.0 };
        assert_eq!(line["margin"].as_f64().unwrap(), sign * value);
        let quality = line["quality"].as_str().unwrap();
        assert!(["best", "good", "inaccuracy", "mistake", "blunder"].contains(&quality));
        assert_eq!(quality == "best", loss == 0.0, "{line}");
        let mistake = quality == "mistake" || quality == "blunder";
        assert_eq!(line.get("why").is_some(), mistake, "{line}");
    }
    // A blunder says why: the reply it lets the opponent play, and what that takes.
    let out = oaq(&[
        "review", "--rules", "basic", "--moves", "5+", "--depth", "6",
    ]);
    assert!(out.status.success(), "{}", stderr(&out));
    let first = stdout(&out)
        .lines()
        .next()
        .map(serde_json::from_str::<serde_json::Value>);
    let line = first.expect("a line").unwrap();
    assert_eq!(line["quality"], "blunder", "{line}");
    let why = line["why"].as_array().expect("why, for a blunder");
    assert!(
        why.iter()
            .filter_map(|w| w.as_str())
            .any(|w| w.starts_with("Then player 2 plays ")
                && w.contains(" and takes ")
                && w.contains(" points from ")),
        "{line}"
    );
    let bad = oaq(&["review", "--rules", "basic", "--moves", "2- 7+"]);
    assert_eq!(bad.status.code(), Some(2));
    let text = stderr(&bad);
    assert!(
        text.contains("move 2") && text.contains("7+") && text.contains("legal moves"),
        "{text}"
    );
    assert!(
        stdout(&bad).is_empty(),
        "nothing judged from a game that cannot be played"
    );
}

#[test]
fn puzzles_generate_reproducibly_and_check_against_the_engine() {
    let args = [
        "puzzles", "generate", "--seed", "9", "--count", "4", "--depth", "6",
    ];
    let first = oaq(&args);
    assert!(first.status.success(), "{}", stderr(&first));
    let second = oaq(&[&args[..], &["--jobs", "1"]].concat());
    assert_eq!(stdout(&first), stdout(&second), "same seed, same set");
    let (file, lines) = o_an_quan::ai::puzzle::PuzzleFile::parse(&stdout(&first)).unwrap();
    assert_eq!((file.puzzles.len(), file.depth), (4, 6));
    for (puzzle, line) in file.puzzles.iter().zip(&lines) {
        // The answer is best by the gap over every other move's value.
        let step = &line.steps[0];
        assert_eq!(step.loss(step.answer), Some(0.0));
        assert!(
            step.values[1..]
                .iter()
                .all(|&(_, v)| step.values[0].1 - v >= 4.0),
            "{puzzle:?}"
        );
        // Confirmed two plies deeper, themed by what its line does, rated by its depth.
        assert_eq!(puzzle.confirm(8), Ok(()), "{}", puzzle.id);
        assert_eq!(puzzle.themes, line.themes());
        assert!(
            !puzzle.themes.is_empty() && puzzle.first_rating() >= 1000,
            "{puzzle:?}"
        );
    }
    let dir = std::env::temp_dir().join(format!("oaq-puzzles-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("set.ron");
    std::fs::write(&path, stdout(&first)).unwrap();
    let checked = oaq(&["puzzles", "check", "--file", path.to_str().unwrap()]);
    assert!(checked.status.success(), "{}", stderr(&checked));
    // A puzzle whose answer is not the best is caught.
    let (wrong_from, wrong_to) = (
        &lines[0].steps[0].values[0].0,
        &lines[0].steps[0].values[1].0,
    );
    let swapped = stdout(&first).replacen(
        &format!("answer: \"{wrong_from}\""),
        &format!("answer: \"{wrong_to}\""),
        1,
    );
    std::fs::write(&path, swapped).unwrap();
    let refused = oaq(&["puzzles", "check", "--file", path.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(
        stderr(&refused).contains("not the first, best valued move"),
        "{}",
        stderr(&refused)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn puzzles_are_found_in_played_games_as_the_server_writes_them() {
    use o_an_quan::ai::puzzle::{MIN_GAP, PlayedGame, PuzzleFile};
    use o_an_quan::rules::{Position, presets};
    // Games of the basic rules, each move at an index that walks with the ply.
    let rules = presets::get("basic").unwrap().rules;
    let games: Vec<PlayedGame> = (0..8)
        .map(|g| {
            let mut pos = Position::new(rules);
            let mut moves = Vec::new();
            while !pos.is_over() {
                let legal = pos.legal_moves();
                let mv = legal[(pos.ply() as usize * 7 + 3 + g) % legal.len()];
                pos.play(mv).unwrap();
                moves.push(mv.to_string());
            }
            let moves = moves.join(" ");
            PlayedGame {
                preset: "basic".into(),
                rules,
                moves,
            }
        })
        .collect();
    // A game of rules that are no preset's comes first, and is passed over.
    let mut odd = games[0].clone();
    odd.preset = "custom".into();
    let text: String = std::iter::once(&odd)
        .chain(&games)
        .map(|g| serde_json::to_string(g).unwrap() + "\n")
        .collect();
    let dir = std::env::temp_dir().join(format!("oaq-mine-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("games.jsonl");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    let args = [
        "puzzles", "mine", "--games", path, "--count", "3", "--depth", "6",
    ];
    let out = oaq(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    assert_eq!(
        stdout(&out),
        stdout(&oaq(&args)),
        "the same games, the same puzzles"
    );
    assert!(stderr(&out).contains("(1 of rules that are no preset's passed over)"));
    let (file, _) = PuzzleFile::parse(&stdout(&out)).unwrap();
    assert_eq!(file.puzzles.len(), 3, "{}", stderr(&out));
    for (n, puzzle) in file.puzzles.iter().enumerate() {
        assert_eq!(puzzle.id, format!("games-{:04}", n + 1));
        assert!(
            games.iter().any(|g| g.moves.starts_with(&puzzle.moves)),
            "{puzzle:?} is a position of a game"
        );
        assert_eq!(puzzle.verify(6, MIN_GAP), Ok(()), "{}", puzzle.id);
        assert!(!puzzle.themes.is_empty());
    }
    // A line that is not a game is named.
    std::fs::write(dir.join("games.jsonl"), "{\"preset\": 3}\n").unwrap();
    let refused = oaq(&args);
    assert!(!refused.status.success());
    assert!(
        stderr(&refused).contains("line 1: not a played game"),
        "{}",
        stderr(&refused)
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `oaq-think`, the thinking worker's program, answering one request as the browser's worker
/// does (`o_an_quan::ai::remote`): a level's move, and an error that names a bad request.
#[test]
fn think_answers_a_request_and_names_a_bad_one() {
    use o_an_quan::ai::Level;
    use o_an_quan::ai::remote::{Answer, Request};
    use o_an_quan::rules::{Position, presets};
    let think = |input: &str| with_input(env!("CARGO_BIN_EXE_oaq-think"), &[], input);
    let pos = Position::new(presets::get("standard").unwrap().rules);
    let out = think(&Request::level(&pos, &Level::medium(), 3).to_json());
    assert!(out.status.success());
    let decision = Answer::from_json(stdout(&out).trim())
        .unwrap()
        .decision()
        .unwrap();
    assert!(pos.is_legal(decision.mv));
    let out = think("{\"rules\": 4}");
    assert!(!out.status.success());
    let error: serde_json::Value = serde_json::from_str(stdout(&out).trim()).unwrap();
    assert!(error["error"].as_str().unwrap().starts_with("request: "));
    let out = think(&"x".repeat(10_000));
    assert!(!out.status.success());
    assert!(stdout(&out).contains("more than the 4096 a request may have"));
}

/// `oaq-think` looks a hint's search's positions up in its own endgame table, the 8-stone one
/// the browser's worker fetches: the answer is the table's exact value, found as a search in
/// this process with that table finds it, and says which table it had.
#[test]
fn think_searches_with_the_worker_s_endgame_table() {
    use o_an_quan::ai::eval::WIN;
    use o_an_quan::ai::remote::{Answer, Request};
    use o_an_quan::ai::tablebase::{file, index::Indexer};
    use o_an_quan::ai::{Limits, Search, Weights};
    use o_an_quan::rules::{Position, Setup, Store, presets};
    use std::sync::Arc;
    let bytes = std::fs::read(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/assets/ai/endgame-8.tb"
    ))
    .expect("the worker's table is in assets");
    let table = Arc::new(file::read(&bytes).expect("it reads"));
    assert_eq!(table.stones(), 8);
    let basic = presets::get("basic").unwrap().rules;
    let limits = |table| Limits {
        depth: Some(2),
        tablebase: table,
        ..Limits::default()
    };
    // A position of 6 to 8 stones the table knows, which a search 2 moves deep solves with it.
    let indexer = Indexer::new(8);
    let (pos, exact, here) = (0..indexer.len())
        .rev()
        .step_by(997)
        .find_map(|b| {
            let board = indexer.board(b);
            let mut setup = Setup::start(&basic);
            setup.pits = board.pits.to_vec();
            setup.quan = vec![board.pieces & 1 != 0, board.pieces & 2 != 0];
            let room = 70 - board.points() as i16;
            let store = |stones| Store {
                stones,
                ..Store::default()
            };
            setup.stores = vec![store(room / 2), store(room - room / 2)];
            let pos = Position::from_setup(basic, &setup).ok()?;
            let (outcome, margin) = table.probe(&pos)?;
            let report = Search::new(pos, Weights::shipped(), limits(Some(table.clone()))).run();
            // Without the table the same search cannot know it: the table makes the difference.
            let unknown = !Search::new(pos, Weights::shipped(), limits(None))
                .run()
                .solved;
            (report.solved && unknown && board.pits.iter().sum::<u8>() >= 6).then_some((
                pos,
                WIN * outcome + 100 * margin,
                report,
            ))
        })
        .expect("the table knows such a position");
    assert_eq!(here.score, exact);
    let request = Request::search(&pos, &limits(None)).to_json();
    let out = with_input(env!("CARGO_BIN_EXE_oaq-think"), &[], &request);
    assert!(out.status.success(), "{}", stdout(&out));
    let answer = Answer::from_json(stdout(&out).trim()).unwrap();
    assert_eq!(answer.endgame_table, 8);
    assert!(answer.solved);
    assert_eq!(answer.score, exact);
    assert_eq!(answer.best, here.best.to_string());
    assert_eq!(answer.nodes, here.nodes);
    // Rules the table does not serve: no table, said so.
    let standard = Position::new(presets::get("standard").unwrap().rules);
    let out = with_input(
        env!("CARGO_BIN_EXE_oaq-think"),
        &[],
        &Request::search(&standard, &limits(None)).to_json(),
    );
    assert_eq!(
        Answer::from_json(stdout(&out).trim())
            .unwrap()
            .endgame_table,
        0
    );
}

#[test]
fn tablebase_build_resumes_from_its_saved_round_and_writes_a_table_match_reads() {
    let dir = std::env::temp_dir().join(format!("oaq-tablebase-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t2.tb");
    let out = path.to_str().unwrap();
    // Stopped after 3 rounds: refused with where the round is kept, which the next run uses.
    let stopped = oaq(&[
        "tablebase",
        "build",
        "--stones",
        "2",
        "--out",
        out,
        "--rounds",
        "3",
    ]);
    assert_eq!(stopped.status.code(), Some(2));
    assert!(
        stderr(&stopped).contains("t2.tb.partial"),
        "{}",
        stderr(&stopped)
    );
    let resumed = oaq(&["tablebase", "build", "--stones", "2", "--out", out]);
    assert!(resumed.status.success(), "{}", stderr(&resumed));
    assert!(stdout(&resumed).contains("resumed at round 3"));
    assert!(
        stdout(&resumed).contains("positions exact"),
        "{}",
        stdout(&resumed)
    );
    assert!(!dir.join("t2.tb.partial").exists());
    let whole = std::fs::read(&path).unwrap();
    let again = oaq(&["tablebase", "build", "--stones", "2", "--out", out]);
    assert!(again.status.success());
    assert_eq!(
        std::fs::read(&path).unwrap(),
        whole,
        "the same table resumed or not"
    );
    // A table match cannot read is refused by name before any game.
    let junk = dir.join("junk.tb");
    std::fs::write(
        &junk,
        b"not a table at all, but long enough to have a header",
    )
    .unwrap();
    match_refuses_a_file("--a-tablebase", &junk, "not an endgame table");
    let too_many = oaq(&["tablebase", "build", "--stones", "21", "--out", out]);
    assert_eq!(too_many.status.code(), Some(2));
    assert!(
        stderr(&too_many).contains("1..=20"),
        "{}",
        stderr(&too_many)
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn train_writes_the_same_network_for_the_same_seed_and_match_and_bench_read_it() {
    let dir = std::env::temp_dir().join(format!("oaq-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let train = |name: &str, seed: &str| {
        let path = dir.join(name);
        let run = oaq(&[
            "train",
            "--rules",
            "basic",
            "--games",
            "40",
            "--depth",
            "3",
            "--epochs",
            "2",
            "--seed",
            seed,
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(run.status.success(), "{}", stderr(&run));
        assert!(stderr(&run).contains("held out"), "{}", stderr(&run));
        std::fs::read(path).unwrap()
    };
    let a = train("a.nn", "5");
    assert_eq!(train("b.nn", "5"), a, "the same seed, the same network");
    assert_ne!(train("c.nn", "6"), a, "another seed, other games");
    let network = dir.join("a.nn");
    let bench = oaq(&[
        "bench",
        "--rules",
        "basic",
        "--depth",
        "4",
        "--network",
        network.to_str().unwrap(),
    ]);
    assert!(bench.status.success(), "{}", stderr(&bench));
    assert!(stdout(&bench).contains("M nodes/s"));
    // Trained for basic: refused for other rules, by name, before any search.
    let other = oaq(&[
        "bench",
        "--rules",
        "standard",
        "--depth",
        "4",
        "--network",
        network.to_str().unwrap(),
    ]);
    assert_eq!(other.status.code(), Some(2));
    assert!(stderr(&other).contains("other rules"), "{}", stderr(&other));
    let junk = dir.join("junk.nn");
    std::fs::write(&junk, b"OAQ-NN\0\x01 cut short").unwrap();
    match_refuses_a_file("--b-network", &junk, "not a network");
    // Three players: refused with the reason.
    let three = oaq(&[
        "train",
        "--rules",
        "mature-quan-3p",
        "--out",
        dir.join("d.nn").to_str().unwrap(),
    ]);
    assert_eq!(three.status.code(), Some(2));
    assert!(stderr(&three).contains("2-player"), "{}", stderr(&three));
    std::fs::remove_dir_all(&dir).ok();
}

//! The fuzz suite: what strangers can hand the engine, generated across every value its types
//! allow. Rule sets and positions from `Position::from_setup`, state JSON from bytes and from
//! edited lines, saved games and settings cut, flipped and edited, and lines fed to `oaq ai`.
//! Whatever is refused must be refused with the field named; whatever is accepted must play by
//! every rule to its end.
//!
//! `cargo test` runs a short part of it (overflow checks on, as in every test build). Before a
//! release run the long part: `cargo fuzz-long` (the `fuzz` profile: optimised, overflow checks
//! and debug assertions kept), with `OAQ_FUZZ_CASES` to choose how many cases each part tries.

use crate::checks;
use crate::support;

use std::io::Write;
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};

use o_an_quan::rules::limits::MAX_PLIES;
use o_an_quan::rules::{MandarinStart, Position, Protection, Refill, RuleSet, Setup, Store};
use o_an_quan::session::{History, Record, Seat, Settings};
use o_an_quan::state_json;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

/// Cases each part tries in `cargo test`, and in the long run unless `OAQ_FUZZ_CASES` says.
const SHORT: u32 = 2_000;
const LONG: u32 = 200_000;

fn cases(short: bool) -> u32 {
    if short {
        return SHORT;
    }
    std::env::var("OAQ_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(LONG)
}

/// Runs `test` on `cases` values of `strategy`, reporting the smallest failing input.
fn fuzz<S: Strategy>(cases: u32, strategy: S, test: impl Fn(S::Value) -> Result<(), TestCaseError>)
where
    S::Value: std::fmt::Debug,
{
    let config = Config {
        cases,
        failure_persistence: None,
        // Generated inputs are refused often; that is the point, not a failure to generate.
        max_global_rejects: u32::MAX,
        ..Config::default()
    };
    if let Err(e) = TestRunner::new(config).run(&strategy, test) {
        panic!("{e}");
    }
}

/// The fields a position error may name.
const FIELDS: [&str; 9] = [
    "rules", "pits", "quan", "stores", "to_move", "ply", "over", "forfeit", "swapped",
];

fn names_a_field(field: &str) -> bool {
    FIELDS
        .iter()
        .any(|f| field == *f || field.starts_with(&format!("{f}[")))
}

/// Any rule set the types can hold, mostly near the valid ones.
fn any_rules() -> impl Strategy<Value = RuleSet> {
    let bound = || prop_oneof![4 => 1u16..=12, 1 => any::<u16>()];
    let protection = prop::option::of((prop::option::of(bound()), prop::option::of(bound())))
        .prop_map(|p| p.map(|(plies, min_stones)| Protection { plies, min_stones }));
    (
        prop_oneof![16 => 2u8..=3, 1 => any::<u8>()],
        prop_oneof![Just(MandarinStart::Piece), Just(MandarinStart::TenStones)],
        protection,
        prop_oneof![
            Just(Refill::Borrow),
            Just(Refill::Forfeit),
            Just(Refill::Deduct)
        ],
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop_oneof![3 => Just(false), 1 => Just(true)],
        prop::option::of(prop_oneof![6 => 1u16..=300, 1 => any::<u16>()]),
        prop_oneof![7 => Just(true), 1 => Just(false)],
        // A winning score, in range (36..=70, 53..=105) or not.
        prop::option::of(prop_oneof![4 => 36u16..=105, 1 => any::<u16>()]),
    )
        .prop_map(
            |(
                players,
                mandarin_start,
                protection,
                refill,
                repetition,
                table_flip,
                move_limit,
                fit,
                win_at,
            )| {
                // Mostly only the 2-player board has the 2-player rules.
                let two = players == 2 || !fit;
                RuleSet {
                    players,
                    mandarin_start,
                    protection,
                    refill,
                    repetition: repetition && two,
                    table_flip: table_flip && two,
                    move_limit,
                    win_at,
                }
            },
        )
}

/// Any setup the types can hold for a board of `players`, biased toward the edges the engine
/// must survive (big pits, deep debts, negative stores, late plies) and toward the shapes a
/// board of that size takes, so that many get past the shape checks.
fn any_setup(players: usize) -> impl Strategy<Value = Setup> {
    let stones = || prop_oneof![8 => 0u8..=12, 1 => any::<u8>()];
    let store = (
        prop_oneof![4 => -40i16..=80, 1 => any::<i16>()],
        prop_oneof![6 => Just(0u8), 2 => 0u8..=2, 1 => any::<u8>()],
        prop::array::uniform3(prop_oneof![6 => Just(0u16), 2 => 0u16..=40, 1 => any::<u16>()]),
    )
        .prop_map(|(stones, mandarins, owes)| Store {
            stones,
            mandarins,
            owes,
        });
    let length = move |n: usize| prop_oneof![12 => Just(n), 1 => 0usize..=24];
    (
        prop_oneof![3 => 0u32..=60, 1 => 0u32..=MAX_PLIES + 2, 1 => any::<u32>()],
        prop_oneof![12 => 0..players as u8, 1 => any::<u8>()],
        length(6 * players).prop_flat_map(move |n| prop::collection::vec(stones(), n)),
        length(players).prop_flat_map(|n| prop::collection::vec(any::<bool>(), n)),
        length(players).prop_flat_map(move |n| prop::collection::vec(store.clone(), n)),
        prop_oneof![8 => Just(false), 1 => Just(true)],
        prop::option::of(any::<u8>()),
        prop_oneof![8 => Just(false), 1 => Just(true)],
    )
        .prop_map(
            |(ply, to_move, pits, quan, stores, over, forfeit, swapped)| Setup {
                ply,
                to_move,
                pits,
                quan,
                stores,
                over,
                forfeit: forfeit.filter(|_| over),
                swapped,
            },
        )
}

/// Where a game from the start under `rules` stands after the moves `choices` pick (each an
/// index into the legal moves), or where it ended.
fn random_game(rules: RuleSet, choices: &[u16]) -> Position {
    let mut pos = Position::new(rules);
    for &c in choices {
        if pos.is_over() {
            break;
        }
        let legal = pos.legal_moves();
        pos.play_unchecked(legal[usize::from(c) % legal.len()]);
    }
    pos
}

/// A setup from a random game under `rules`, then one or two of its fields set to any value.
fn edited_setup(rules: RuleSet) -> impl Strategy<Value = Setup> {
    let players = rules.player_count().clamp(2, 3);
    (
        prop::collection::vec(any::<u16>(), 0..60),
        any_setup(players),
        prop::collection::vec(0usize..8, 1..=2),
    )
        .prop_map(move |(choices, other, fields)| {
            let board = RuleSet {
                players: players as u8,
                ..rules
            };
            let mut setup = match board.validate() {
                Ok(()) => random_game(board, &choices).setup(),
                Err(_) => other.clone(),
            };
            for field in fields {
                match field {
                    0 => setup.ply = other.ply,
                    1 => setup.to_move = other.to_move,
                    2 => setup.pits = other.pits.clone(),
                    3 => setup.quan = other.quan.clone(),
                    4 => setup.stores = other.stores.clone(),
                    5 => setup.over = other.over,
                    6 => setup.forfeit = other.forfeit,
                    _ => setup.swapped = other.swapped,
                }
            }
            setup
        })
}

/// Either kind of setup for `rules`, mostly fitted to the rule set's kind of stores and
/// mandarins, with a choice of pit or store for the balance.
fn setup_for(rules: RuleSet) -> impl Strategy<Value = (Setup, bool, usize)> {
    let players = rules.player_count().clamp(2, 3);
    (
        prop_oneof![any_setup(players), edited_setup(rules)],
        prop_oneof![3 => Just(true), 1 => Just(false)],
        any::<bool>(),
        any::<usize>(),
    )
        .prop_map(move |(mut setup, fit, balance, slot)| {
            if fit {
                fitted(&mut setup, &rules);
            }
            (setup, balance, slot)
        })
}

/// Leaves out what the rule set has no place for: mandarin pieces where the pits start with
/// ten stones, stores below zero without the deduct refill, debts without borrowing, debts to
/// oneself.
fn fitted(setup: &mut Setup, rules: &RuleSet) {
    if rules.mandarin_start == MandarinStart::TenStones {
        setup.quan.iter_mut().for_each(|q| *q = false);
        setup.stores.iter_mut().for_each(|s| s.mandarins = 0);
    }
    for (p, store) in setup.stores.iter_mut().enumerate() {
        if rules.refill != Refill::Deduct {
            store.stones = store.stones.max(0);
        }
        if rules.refill != Refill::Borrow {
            store.owes = [0; 3];
        }
        if let Some(own) = store.owes.get_mut(p) {
            *own = 0;
        }
    }
}

/// Moves the difference between what the setup holds and what the rules expect into one pit
/// or one store, when it fits.
fn balanced(mut setup: Setup, rules: &RuleSet, slot: usize) -> Setup {
    let board: i64 = setup.pits.iter().map(|&n| i64::from(n)).sum::<i64>()
        + 10 * setup.quan.iter().filter(|&&q| q).count() as i64;
    let stores: i64 = setup
        .stores
        .iter()
        .map(|s| i64::from(s.stones) + 10 * i64::from(s.mandarins))
        .sum();
    let missing = i64::from(rules.total_value()) - board - stores;
    let pits = setup.pits.len();
    if slot.is_multiple_of(2) && pits > 0 {
        let pit = &mut setup.pits[slot / 2 % pits];
        if let Ok(n) = u8::try_from(i64::from(*pit) + missing) {
            *pit = n;
            return setup;
        }
    }
    if !setup.stores.is_empty() {
        let count = setup.stores.len();
        let store = &mut setup.stores[slot / 2 % count];
        let deduct = rules.refill == Refill::Deduct;
        if let Ok(n) = i16::try_from(i64::from(store.stones) + missing)
            && (n >= 0 || deduct)
        {
            store.stones = n;
        }
    }
    setup
}

static ACCEPTED: AtomicU32 = AtomicU32::new(0);

/// `from_setup` refuses with a field named, or gives a position that plays by every rule to
/// the end of the game.
fn check_setup(rules: RuleSet, setup: &Setup, choices: &[u16]) -> Result<(), TestCaseError> {
    match Position::from_setup(rules, setup) {
        Err(e) => {
            prop_assert!(names_a_field(&e.field), "unnamed field in: {e}");
            prop_assert!(e.to_string().len() < 400, "a long error: {e}");
        }
        Ok(pos) => {
            ACCEPTED.fetch_add(1, Ordering::Relaxed);
            prop_assert_eq!(&pos.setup(), setup);
            checks::check_game(pos, choices, true);
        }
    }
    Ok(())
}

fn setups(short: bool) {
    ACCEPTED.store(0, Ordering::Relaxed);
    let n = cases(short);
    fuzz(
        n,
        (
            any_rules().prop_flat_map(|rules| (Just(rules), setup_for(rules))),
            prop::collection::vec(any::<u16>(), 1..64),
        ),
        |((rules, (setup, balance, slot)), choices)| {
            let setup = if balance {
                balanced(setup, &rules, slot)
            } else {
                setup
            };
            check_setup(rules, &setup, &choices)
        },
    );
    // Refusing everything would pass the checks above and test nothing.
    let accepted = ACCEPTED.load(Ordering::Relaxed);
    println!("{accepted} of {n} setups were positions, each played to its end");
    assert!(
        accepted >= n / 20,
        "only {accepted} of {n} setups were positions: the generator misses the engine"
    );
}

#[test]
fn arbitrary_setups_are_refused_by_name_or_play_to_the_end() {
    setups(true);
}

#[test]
#[ignore = "long: cargo fuzz-long"]
fn arbitrary_setups_long() {
    setups(false);
}

/// A position from a random game under one of the presets, as the state JSON line.
fn played_line() -> impl Strategy<Value = (RuleSet, String)> {
    (
        0..o_an_quan::rules::presets::all().len(),
        prop::collection::vec(any::<u16>(), 0..80),
    )
        .prop_map(|(i, choices)| {
            let rules = o_an_quan::rules::presets::all()[i].rules;
            (rules, state_json::to_line(&random_game(rules, &choices)))
        })
}

/// Values that break parsers: out of every range, of the wrong kind, or barely in range.
const ODD_VALUES: [&str; 16] = [
    "-1",
    "256",
    "255",
    "65536",
    "4294967296",
    "18446744073709551616",
    "-32769",
    "32767",
    "1e400",
    "0.5",
    "-0",
    "null",
    "true",
    "\"5\"",
    "[]",
    "{}",
];

/// One edit of a text: a number replaced, a span cut, bytes inserted, or the text cut short.
#[derive(Clone, Debug)]
enum Edit {
    Number { nth: usize, value: usize },
    Cut { at: usize, len: usize },
    Insert { at: usize, text: String },
    Truncate { at: usize },
    Flip { at: usize, bit: u8 },
}

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    let edit = prop_oneof![
        4 => (any::<usize>(), 0..ODD_VALUES.len()).prop_map(|(nth, value)| Edit::Number { nth, value }),
        2 => (any::<usize>(), 1usize..8).prop_map(|(at, len)| Edit::Cut { at, len }),
        2 => (any::<usize>(), "[\\[\\]{}:,\"0-9a-z\\-\\\\ ]{1,6}").prop_map(|(at, text)| Edit::Insert { at, text }),
        1 => any::<usize>().prop_map(|at| Edit::Truncate { at }),
        1 => (any::<usize>(), 0u8..8).prop_map(|(at, bit)| Edit::Flip { at, bit }),
    ];
    prop::collection::vec(edit, 1..4)
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut bytes = text.as_bytes().to_vec();
    for edit in edits {
        let len = bytes.len().max(1);
        match edit {
            Edit::Number { nth, value } => {
                let numbers: Vec<(usize, usize)> = number_spans(&bytes);
                if !numbers.is_empty() {
                    let (start, end) = numbers[nth % numbers.len()];
                    bytes.splice(start..end, ODD_VALUES[*value].bytes());
                }
            }
            Edit::Cut { at, len: cut } => {
                let at = at % len;
                let end = (at + cut).min(bytes.len());
                bytes.drain(at.min(end)..end);
            }
            Edit::Insert { at, text } => {
                let at = at % (bytes.len() + 1);
                bytes.splice(at..at, text.bytes());
            }
            Edit::Truncate { at } => bytes.truncate(at % len),
            Edit::Flip { at, bit } => {
                if !bytes.is_empty() {
                    let at = at % bytes.len();
                    bytes[at] ^= 1 << bit;
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Where the runs of digits (with a leading minus) are.
fn number_spans(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut spans = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i].is_ascii_digit()
            || (bytes[i] == b'-' && bytes.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            i += 1;
            while i < bytes.len() && bytes[i].is_ascii_digit() {
                i += 1;
            }
            spans.push((start, i));
        } else {
            i += 1;
        }
    }
    spans
}

/// A state JSON text is refused with a message, or is a position that plays by every rule.
fn check_state(rules: RuleSet, text: &str, choices: &[u16]) -> Result<(), TestCaseError> {
    match state_json::parse(rules, text) {
        Err(e) => {
            let message = e.to_string();
            prop_assert!(message.starts_with("position: "), "{message}");
            prop_assert!(message.len() < 600, "a long error: {message}");
        }
        Ok(pos) => {
            checks::check_game(pos, choices, false);
        }
    }
    Ok(())
}

fn state_json_edits(short: bool) {
    fuzz(
        cases(short),
        (
            played_line(),
            edits(),
            prop::collection::vec(any::<u16>(), 1..24),
        ),
        |((rules, line), edits, choices)| check_state(rules, &apply(&line, &edits), &choices),
    );
}

fn state_json_bytes(short: bool) {
    fuzz(
        cases(short),
        (
            any_rules().prop_filter("a rule set the engine takes", |r| r.validate().is_ok()),
            prop::collection::vec(any::<u8>(), 0..200),
        ),
        |(rules, bytes)| check_state(rules, &String::from_utf8_lossy(&bytes), &[0]),
    );
}

#[test]
fn state_json_from_edited_lines_and_bytes() {
    state_json_edits(true);
    state_json_bytes(true);
}

#[test]
#[ignore = "long: cargo fuzz-long"]
fn state_json_long() {
    state_json_edits(false);
    state_json_bytes(false);
}

/// A saved game of a random match under one of the presets.
fn saved_game() -> impl Strategy<Value = String> {
    (
        0..o_an_quan::rules::presets::all().len(),
        prop::collection::vec(any::<u16>(), 0..60),
    )
        .prop_map(|(i, choices)| {
            let preset = &o_an_quan::rules::presets::all()[i];
            let seats = vec![Seat::Human; preset.rules.player_count()];
            let mut history = History::new(&preset.id, preset.rules, seats);
            for c in choices {
                if history.position().is_over() {
                    break;
                }
                let legal = history.position().legal_moves();
                history
                    .play(legal[usize::from(c) % legal.len()])
                    .expect("a legal move");
            }
            Record::of(&history).to_ron()
        })
}

fn saved_games(short: bool) {
    fuzz(
        cases(short),
        (
            saved_game(),
            edits(),
            prop::collection::vec(any::<u16>(), 1..24),
        ),
        |(text, edits, choices)| {
            match Record::parse(&apply(&text, &edits)) {
                Err(e) => prop_assert!(!e.to_string().is_empty()),
                Ok(history) => {
                    checks::check_game(*history.position(), &choices, false);
                }
            }
            Ok(())
        },
    );
}

fn settings_files(short: bool) {
    let text = Settings::first_start().to_ron();
    fuzz(cases(short), edits(), |edits| {
        if let Ok(settings) = Settings::from_ron(&apply(&text, &edits)) {
            // Accepted settings start a game the engine takes.
            prop_assert!(settings.rules().validate().is_ok());
            prop_assert_eq!(settings.seats().len(), settings.rules().player_count());
            prop_assert!(Settings::from_ron(&settings.to_ron()).is_ok());
        }
        Ok(())
    });
}

#[test]
fn saved_games_and_settings_cut_flipped_and_edited() {
    saved_games(true);
    settings_files(true);
}

#[test]
#[ignore = "long: cargo fuzz-long"]
fn saved_games_and_settings_long() {
    saved_games(false);
    settings_files(false);
}

/// A line for `oaq ai`: arbitrary bytes, an edited state, or a state as it is.
fn ai_line() -> impl Strategy<Value = Vec<u8>> {
    prop_oneof![
        prop::collection::vec(any::<u8>().prop_filter("one line", |&b| b != b'\n'), 0..120),
        (played_line(), edits())
            .prop_map(|((_, line), edits)| apply(&line, &edits).replace('\n', " ").into_bytes()),
        played_line().prop_map(|(_, line)| line.into_bytes()),
    ]
}

/// Feeds `lines` to one `oaq ai` under the classic rules and checks one JSON answer per line:
/// an error, or a legal move of the position the line gives.
fn check_ai(lines: &[Vec<u8>]) -> Result<(), TestCaseError> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_oaq"))
        .args(["ai", "--rules", "standard", "--level", "easy"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("oaq starts");
    let mut input = Vec::new();
    for line in lines {
        input.extend_from_slice(line);
        input.push(b'\n');
    }
    let mut stdin = child.stdin.take().expect("a pipe");
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let output = child.wait_with_output().expect("oaq runs");
    writer
        .join()
        .expect("the writer ends")
        .expect("oaq reads its input");
    prop_assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let answers: Vec<&str> = std::str::from_utf8(&output.stdout)
        .expect("answers are UTF-8")
        .lines()
        .collect();
    let rules = support::rules("standard");
    let asked: Vec<&Vec<u8>> = lines
        .iter()
        .filter(|l| !std::str::from_utf8(l).is_ok_and(|t| t.trim().is_empty()))
        .collect();
    prop_assert_eq!(answers.len(), asked.len(), "one answer per line");
    for (line, answer) in asked.iter().zip(answers) {
        let answer: serde_json::Value = serde_json::from_str(answer).expect("answers are JSON");
        let text = std::str::from_utf8(line).ok();
        let text = text.map(|t| t.strip_suffix('\r').unwrap_or(t));
        match text.map(|t| state_json::parse(rules, t)) {
            Some(Ok(pos)) if !pos.is_over() => {
                let mv = answer["move"].as_str().expect("a move");
                prop_assert!(pos.is_legal(mv.parse().expect("a move")), "{mv}");
            }
            _ => prop_assert!(answer["error"].is_string(), "{answer}"),
        }
    }
    Ok(())
}

fn ai_lines(short: bool) {
    // One process answers a batch of lines, as a program driving the engine would send them.
    fuzz(
        cases(short) / 20,
        prop::collection::vec(ai_line(), 1..40),
        |lines| check_ai(&lines),
    );
}

#[test]
fn oaq_ai_answers_every_line() {
    ai_lines(true);
}

#[test]
#[ignore = "long: cargo fuzz-long"]
fn oaq_ai_long() {
    ai_lines(false);
}

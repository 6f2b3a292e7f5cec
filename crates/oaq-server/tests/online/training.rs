//! A player's practice and puzzle progress kept on the server: a second device linked by a
//! code gets them, they survive the server starting again, nobody else reads them, writes
//! of one record from several connections at once keep the highest rank, and the cap, the
//! rate and the bounds hold.

use futures_util::future::join_all;
use oaq_ai::puzzle::{Difficulty, Puzzle, Step};
use oaq_ai::theme::Theme;
use oaq_net::protocol::{ClientMessage, ErrorCode, MAX_TRAINING_PUT, Notice, ServerMessage};
use oaq_session::training::{self, MAX_RECORDS};
use oaq_session::{Practice, PuzzleProgress, TrainingRecord};
use oaq_testkit::*;

const DAY_MS: i64 = 24 * 3600 * 1000;
/// 2026-12-07, noon UTC.
const NOW: i64 = 1_796_644_800_000;

fn puzzle(id: &str, theme: Theme) -> Puzzle {
    Puzzle {
        id: id.to_owned(),
        preset: "basic".to_owned(),
        moves: "3+ 7-".to_owned(),
        difficulty: Difficulty::Medium,
        seen_at: 4,
        line: vec![Step {
            answer: "2-".to_owned(),
            reply: Some("8+".to_owned()),
            values: vec![("2-".to_owned(), 6.0), ("4+".to_owned(), -2.0)],
        }],
        themes: vec![theme],
    }
}

/// A phone's training after two days: its own mistakes practised (one missed), puzzles rated.
fn phone() -> (Practice, PuzzleProgress) {
    let mut practice = Practice::default();
    let mut progress = PuzzleProgress::default();
    let own: Vec<Puzzle> = (0..6)
        .map(|n| puzzle(&format!("mine-{n}"), Theme::Mandarin))
        .collect();
    practice.add(own, NOW);
    for n in 0..40 {
        let at = NOW + n * DAY_MS / 20;
        let p = puzzle(&format!("basic-{n:04}"), Theme::ALL[n as usize % 8]);
        let solved = n % 4 != 0;
        progress.rating.record(&p, solved, at);
        if solved {
            progress.solved_one(&p.id, true);
        }
    }
    practice.answer("mine-0", true, NOW + DAY_MS);
    practice.answer("mine-1", false, NOW + DAY_MS);
    progress.solved_daily(NOW / DAY_MS);
    progress.storm_ended(17);
    progress.streak_run_ended(9);
    (practice, progress)
}

/// What a device holds, as the server compares it: every key and rank.
fn ledger(practice: &Practice, progress: &PuzzleProgress) -> Vec<(String, i64)> {
    let mut all: Vec<_> = training::records(practice, progress)
        .iter()
        .map(|r| (r.key(), r.rank()))
        .collect();
    all.sort();
    all
}

/// A new device's training, from the records it was sent.
fn device_of(records: Vec<TrainingRecord>) -> (Practice, PuzzleProgress) {
    let (mut practice, mut progress) = Default::default();
    for record in records {
        training::apply(&mut practice, &mut progress, record);
    }
    (practice, progress)
}

/// Keep `records`, `MAX_TRAINING_PUT` at a time; how many the server kept.
async fn keep(client: &mut Client, records: Vec<TrainingRecord>) -> u32 {
    let mut kept = 0;
    for chunk in records.chunks(MAX_TRAINING_PUT) {
        client
            .send(&ClientMessage::KeepTraining {
                records: chunk.to_vec(),
            })
            .await;
        kept += client
            .until(|m| match m {
                ServerMessage::Notice(Notice::TrainingKept { kept, .. }) => Some(*kept),
                ServerMessage::Notice(Notice::Error { message, .. }) => panic!("keep: {message}"),
                _ => None,
            })
            .await;
    }
    kept
}

/// Every record kept after `since`, page by page; and the number they go up to.
async fn pull(client: &mut Client, since: u64) -> (Vec<TrainingRecord>, u64, usize) {
    let (mut all, mut since, mut pages) = (Vec::new(), since, 0);
    loop {
        client.send(&ClientMessage::Training { since }).await;
        let (records, upto, more) = client
            .until(|m| match m {
                ServerMessage::Notice(Notice::Training {
                    records,
                    upto,
                    more,
                }) => Some((records.clone(), *upto, *more)),
                ServerMessage::Notice(Notice::Error { message, .. }) => panic!("pull: {message}"),
                _ => None,
            })
            .await;
        all.extend(records);
        since = upto;
        pages += 1;
        if !more {
            return (all, since, pages);
        }
    }
}

async fn link_code(client: &mut Client) -> String {
    client.send(&ClientMessage::LinkCode).await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::LinkCode { code, .. }) => Some(code.clone()),
            _ => None,
        })
        .await
}

#[tokio::test]
async fn a_players_training_reaches_a_linked_device_and_survives_a_restart() {
    let dir = TempDir::new("training");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let (practice, progress) = phone();
    let mut an = Client::connect(&url, "An").await;
    let records = training::records(&practice, &progress);
    let count = records.len();
    // 6 to practise, 40 tried, the rating, 2 earlier days, 8 themes, a daily puzzle, 3 bests.
    assert_eq!(count, 61);
    assert_eq!(keep(&mut an, records.clone()).await as usize, count);
    // The same again changes nothing.
    assert_eq!(keep(&mut an, records).await, 0);

    // A tablet linked by a code gets everything, and ends with what the phone has.
    let code = link_code(&mut an).await;
    let mut tablet = Client::connect(&url, "An's tablet").await;
    tablet.send(&ClientMessage::Link { code }).await;
    let (id, tablet_token, _) = tablet.welcome().await;
    assert_eq!(id, an.player.id);
    let (got, upto, pages) = pull(&mut tablet, 0).await;
    assert_eq!(got.len(), count);
    assert!(pages >= 1);
    let (mut tablet_practice, tablet_progress) = device_of(got);
    assert_eq!(
        ledger(&tablet_practice, &tablet_progress),
        ledger(&practice, &progress)
    );
    assert_eq!(
        tablet_practice.due(NOW + DAY_MS).len(),
        4,
        "the two practised that day are not due at once"
    );
    assert_eq!(tablet_progress.best_storm, 17);

    // The tablet practises the missed one a day later: the phone hears of it and takes it.
    let later = NOW + 2 * DAY_MS;
    tablet_practice.answer("mine-1", true, later);
    let card = tablet_practice
        .cards
        .iter()
        .find(|c| c.puzzle.id == "mine-1")
        .cloned()
        .unwrap();
    let changed = TrainingRecord::Card {
        card: Box::new(card.clone()),
    };
    assert_eq!(keep(&mut tablet, vec![changed]).await, 1);
    let told = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::TrainingChanged { upto }) => Some(*upto),
            _ => None,
        })
        .await;
    assert_eq!(told, upto + 1);
    let (news, _, _) = pull(&mut an, upto).await;
    assert_eq!(news.len(), 1, "only what changed comes down");
    let (mut phone_practice, mut phone_progress) = (practice.clone(), progress.clone());
    assert!(training::apply(
        &mut phone_practice,
        &mut phone_progress,
        news[0].clone()
    ));
    assert!(phone_practice.cards.contains(&card));
    // An older version of it from the phone is not kept over the newer.
    let older = training::records(&practice, &progress)
        .into_iter()
        .find(|r| r.key() == "card:mine-1")
        .unwrap();
    assert_eq!(keep(&mut an, vec![older]).await, 0);

    // A stranger reads none of it.
    let mut stranger = Client::connect(&url, "Bình").await;
    let (theirs, _, _) = pull(&mut stranger, 0).await;
    assert!(theirs.is_empty());

    // The server starts again: the tablet, by its token, finds everything, the newer card too.
    an.close().await;
    tablet.close().await;
    stranger.close().await;
    let mut server = server;
    server.terminate();
    let again = server.restart();
    let mut tablet = Client::connect_as(&again.url(), "An's tablet", Some(&tablet_token)).await;
    assert_eq!(tablet.player.id, id);
    let (back, _, _) = pull(&mut tablet, 0).await;
    assert_eq!(back.len(), count);
    let (fresh_practice, fresh_progress) = device_of(back);
    assert_eq!(
        ledger(&fresh_practice, &fresh_progress),
        ledger(&phone_practice, &phone_progress)
    );
    // A number past anything written (a device that knew another server) gets everything.
    let (all, _, _) = pull(&mut tablet, 1 << 40).await;
    assert_eq!(all.len(), count);
}

/// A puzzle record whose rank is `at * 2 + 1`.
fn tried(id: &str, at: i64) -> TrainingRecord {
    TrainingRecord::Puzzle {
        id: id.to_owned(),
        solved: true,
        rated: Some((oaq_session::Rated::default(), at)),
    }
}

/// Limits that let one player fill the cap within the test.
const FAST: [&str; 4] = [
    "--training-per-minute",
    "1000",
    "--messages-per-second",
    "500",
];

#[tokio::test]
async fn writes_at_once_keep_the_highest_rank_and_never_pass_the_cap() {
    let dir = TempDir::new("training-cap");
    writes_at_once(&ServerProcess::sqlite(&dir, &FAST).url()).await;
}

#[tokio::test]
async fn on_postgres_writes_at_once_keep_the_highest_rank_and_never_pass_the_cap() {
    let pg = Postgres::start();
    let url = pg.url();
    let mut args = vec!["--database", url.as_str()];
    args.extend(FAST);
    writes_at_once(&ServerProcess::start(&args).url()).await;
}

async fn writes_at_once(url: &str) {
    let url = url.to_owned();
    let first = Client::connect(&url, "An").await;
    let token = first.token.clone();
    let mut devices = vec![first];
    for n in 1..6 {
        devices.push(Client::connect_as(&url, &format!("An {n}"), Some(&token)).await);
    }
    // Six devices write one record at once, each a later version: the latest is kept.
    join_all(
        devices
            .iter_mut()
            .enumerate()
            .map(|(n, device)| async move {
                keep(device, vec![tried("basic-0001", NOW + n as i64)]).await
            }),
    )
    .await;
    let (kept, _, _) = pull(&mut devices[0], 0).await;
    assert_eq!(kept, vec![tried("basic-0001", NOW + 5)]);

    // Filled to ten short of the cap, then six devices each send five new records at once:
    // two fit, four are refused whole.
    let filler: Vec<TrainingRecord> = (1..MAX_RECORDS - 10)
        .map(|n| TrainingRecord::Daily { day: n as i64 })
        .collect();
    assert_eq!(
        keep(&mut devices[0], filler).await as usize,
        MAX_RECORDS - 11
    );
    let answers = join_all(
        devices
            .iter_mut()
            .enumerate()
            .map(|(d, device)| async move {
                let records = (0..5).map(|n| tried(&format!("d{d}-{n}"), NOW)).collect();
                device.send(&ClientMessage::KeepTraining { records }).await;
                device
                    .until(|m| match m {
                        ServerMessage::Notice(Notice::TrainingKept { kept, .. }) => Some(Ok(*kept)),
                        ServerMessage::Notice(Notice::Error { code, message, .. }) => {
                            Some(Err((*code, message.clone())))
                        }
                        _ => None,
                    })
                    .await
            }),
    )
    .await;
    let fitted = answers.iter().filter(|a| a == &&Ok(5)).count();
    let refused: Vec<_> = answers.iter().filter_map(|a| a.clone().err()).collect();
    assert_eq!((fitted, refused.len()), (2, 4), "{answers:?}");
    for (code, message) in refused {
        assert_eq!(code, ErrorCode::NotAllowed);
        assert!(message.contains("at most 10000"), "{message}");
    }
    let (all, _, pages) = pull(&mut devices[0], 0).await;
    assert_eq!(all.len(), MAX_RECORDS);
    assert!(pages >= MAX_RECORDS / 200, "{pages} pages");
    // A newer version of one kept still goes in at the cap.
    assert_eq!(
        keep(&mut devices[1], vec![tried("basic-0001", NOW + 9)]).await,
        1
    );
}

#[tokio::test]
async fn training_is_bounded_where_it_is_read_and_counted_per_player() {
    let dir = TempDir::new("training-bounds");
    let server = ServerProcess::sqlite(&dir, &["--training-per-minute", "4"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let too_many = (0..=MAX_TRAINING_PUT as i64)
        .map(|day| TrainingRecord::Daily { day })
        .collect();
    let message = an
        .refused(
            ClientMessage::KeepTraining { records: too_many },
            ErrorCode::BadMessage,
        )
        .await;
    assert!(message.contains("at most 64"), "{message}");
    let message = an
        .refused(
            ClientMessage::KeepTraining {
                records: vec![tried("x", -3)],
            },
            ErrorCode::BadMessage,
        )
        .await;
    assert!(message.contains("records[0]"), "{message}");
    // Nothing of either was kept; four reads and writes a minute, the fifth refused.
    let (none, _, _) = pull(&mut an, 0).await;
    assert!(none.is_empty());
    assert_eq!(keep(&mut an, vec![tried("basic-0002", NOW)]).await, 1);
    pull(&mut an, 0).await;
    pull(&mut an, 0).await;
    let message = an
        .refused(ClientMessage::Training { since: 0 }, ErrorCode::RateLimited)
        .await;
    assert!(message.contains("a minute"), "{message}");
    // Another player is counted apart.
    let mut binh = Client::connect(&url, "Bình").await;
    assert_eq!(keep(&mut binh, vec![tried("basic-0002", NOW)]).await, 1);
}

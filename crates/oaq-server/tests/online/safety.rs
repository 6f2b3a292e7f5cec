//! The people features against a hostile stranger, one test per attack of the threat model
//! (`docs/security.md`), each against a real `oaq-server` on SQLite with clients on distinct
//! loopback addresses: private rooms and children's games kept out of public pages, room codes
//! not guessable over HTTP, sign-in limits that hold when tries come all at once and do not
//! lock the owner out, sign-in names not listable, password hashing bounded, vacations that
//! cost a day, e-mail only to confirmed addresses with a one-click stop, blocks that keep two
//! players apart wherever they could meet, caps that hold whatever opens a room, and a link's
//! code named to the player before it is used.

use std::time::Duration;

use futures_util::future::join_all;
use oaq_net::correspondence::Vacation;
use oaq_net::notify::NotifySettings;
use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, RoomEvent, ServerMessage,
};
use oaq_net::social::CodeKind;
use oaq_testkit::*;

/// An HTTP/1.1 request from the loopback address `from`: (status, headers, body).
async fn http_from(addr: &str, from: &str, method: &str, path: &str) -> (u16, String, String) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().unwrap();
    socket.bind(format!("{from}:0").parse().unwrap()).unwrap();
    let mut stream = socket.connect(addr.parse().unwrap()).await.unwrap();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response))
        .await
        .expect("an answer")
        .unwrap();
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text[9..12].parse().unwrap();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_ascii_lowercase(), body.to_owned())
}

/// Send `msg` and wait for the refusal it must get; its message.
async fn refused(client: &mut Client, msg: ClientMessage, code: ErrorCode) -> String {
    client.send(&msg).await;
    let (got, message, _) = client.error().await;
    assert_eq!(got, code, "{msg:?}: {message}");
    message
}

/// The answer to `msg`: `Ok` when `done` recognises it, else the refusal's code.
async fn answer(
    client: &mut Client,
    msg: &ClientMessage,
    done: impl Fn(&ServerMessage) -> bool,
) -> Result<(), ErrorCode> {
    client.send(msg).await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Error { code, .. }) => Some(Err(*code)),
            m if done(m) => Some(Ok(())),
            _ => None,
        })
        .await
}

fn welcomed(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::Notice(Notice::Welcome { .. }))
}

fn profiled(m: &ServerMessage) -> bool {
    matches!(m, ServerMessage::Notice(Notice::Profile { .. }))
}

fn set_login(login: &str, password: &str) -> ClientMessage {
    ClientMessage::SetLogin {
        login: login.into(),
        password: password.into(),
        current: None,
    }
}

fn sign_in(login: &str, password: &str) -> ClientMessage {
    ClientMessage::SignIn {
        login: login.into(),
        password: password.into(),
    }
}

/// A new player in child mode.
async fn child(url: &str, name: &str) -> Client {
    let hello = ClientMessage::Hello {
        protocol: PROTOCOL,
        name: name.into(),
        token: None,
        device: None,
        child: true,
        batches: false,
        then: 0,
    };
    let mut kid = Client::greet_with(Client::raw(url).await, &hello).await;
    kid.until(|m| match m {
        ServerMessage::Notice(Notice::Welcome { player, token, .. }) => {
            Some((player.clone(), token.clone()))
        }
        _ => None,
    })
    .await;
    kid
}

/// `a` opens a public untimed room, `b` sits, `a` resigns: a finished game between them.
async fn finished_game(a: &mut Client, b: &mut Client) -> String {
    let code = a.create("basic", ClockSpec::UNTIMED, First::Me, true).await;
    b.join(&code).await.expect("a seat");
    a.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    a.send(&ClientMessage::Resign).await;
    for c in [&mut *a, &mut *b] {
        c.event(|e| matches!(e, RoomEvent::Ended { .. }).then_some(()))
            .await;
    }
    code
}

/// Finding 1: a player's public page listed every room they sat in, a child's private room
/// waiting for a friend included; anyone read its code there and took the seat.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_players_page_shows_finished_public_games_only_and_nothing_of_a_child() {
    let dir = TempDir::new("safety-players");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut kid = child(&url, "Bé Na").await;
    kid.send(&ClientMessage::Profile { player: None }).await;
    let kid_id = kid
        .until(|m| match m {
            ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.player.id.clone()),
            _ => None,
        })
        .await;
    let private = kid
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    // A child is nobody on a page anyone may read: not there at all.
    let (status, page) = server.http(&format!("/players/{kid_id}"));
    assert_eq!(status, 404);
    assert!(!page.contains(&private), "a child's waiting room: {page}");

    let mut an = Client::connect(&url, "An").await;
    let mut bao = Client::connect(&url, "Bảo").await;
    let public = finished_game(&mut an, &mut bao).await;
    an.send(&ClientMessage::Leave).await;
    let waiting = an
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    let (_, page) = server.http(&format!("/players/{}", an.player.id));
    let listed: serde_json::Value = serde_json::from_str(&page).unwrap();
    let codes: Vec<&str> = listed["recent"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, [public.as_str()], "the finished public game only");
    assert!(!page.contains(&waiting));
    // A child never sits in a room open to everyone (the lobby would show them there).
    an.send(&ClientMessage::Leave).await;
    let open = an
        .create("basic", ClockSpec::UNTIMED, First::Me, true)
        .await;
    an.send(&ClientMessage::Leave).await;
    let why = refused(
        &mut kid,
        ClientMessage::Join {
            code: open.clone(),
            since: None,
        },
        ErrorCode::NotAllowed,
    )
    .await;
    assert!(why.starts_with("child mode"), "{why}");
    // A stranger who guessed nothing has nothing to join.
    let mut stranger = Client::connect_from(&url, "127.0.3.1", "Lạ", None).await;
    stranger.send(&ClientMessage::Lobby).await;
    let lobby = stranger
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => Some(rooms.clone()),
            _ => None,
        })
        .await;
    assert!(lobby.iter().all(|r| r.code != private && r.code != waiting));
}

/// Finding 2: `/games/CODE` told a waiting room (409) from none (404), without limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn room_codes_cannot_be_guessed_over_http_and_every_route_is_limited() {
    let dir = TempDir::new("safety-http");
    let server = ServerProcess::sqlite(
        &dir,
        &["--misses-per-minute", "5", "--requests-per-minute", "40"],
    );
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let waiting = an
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    let (status, _, _) = http_from(
        &server.addr,
        "127.0.4.1",
        "GET",
        &format!("/games/{waiting}"),
    )
    .await;
    assert_eq!(status, 404, "a waiting room reads as no room");
    let mut statuses = Vec::new();
    for code in [
        "ABCDEF", "BCDEFG", "CDEFGH", "DEFGHJ", "EFGHJK", "FGHJKM", "GHJKMN",
    ] {
        statuses.push(
            http_from(&server.addr, "127.0.4.1", "GET", &format!("/games/{code}"))
                .await
                .0,
        );
    }
    assert_eq!(
        statuses,
        [404, 404, 404, 404, 429, 429, 429],
        "five misses a minute"
    );
    let (status, _, _) = http_from(&server.addr, "127.0.4.2", "GET", "/games/ABCDEF").await;
    assert_eq!(status, 404, "another address is not held back");
    // A started game is there for its replay.
    let mut bao = Client::connect(&url, "Bảo").await;
    bao.join(&waiting).await.expect("a seat");
    bao.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    let (status, _, body) = http_from(
        &server.addr,
        "127.0.4.3",
        "GET",
        &format!("/games/{waiting}"),
    )
    .await;
    assert_eq!(status, 200);
    assert!(body.contains("preset"), "{body}");
    // Every route counts against the address.
    let mut last = (0, String::new());
    let mut refused = 0;
    for _ in 0..45 {
        let (status, head, _) = http_from(&server.addr, "127.0.4.4", "GET", "/health").await;
        if status == 429 {
            refused += 1;
            last = (status, head);
        }
    }
    assert!(refused >= 5, "{refused} of 45 refused at 40 a minute");
    assert!(last.1.contains("retry-after: 60"), "{}", last.1);
    let (status, _, _) = http_from(&server.addr, "127.0.4.5", "GET", "/health").await;
    assert_eq!(status, 200, "another address is served");
}

/// Findings 3 and 4: 30 wrong passwords for one name at once from 30 addresses were all
/// checked (the limit's check came before an await, its charge after), and then the owner,
/// at home with the right password, was refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn wrong_passwords_at_once_are_all_counted_and_the_owner_still_signs_in() {
    let dir = TempDir::new("safety-sign-in");
    let server = ServerProcess::sqlite(&dir, &["--hashes-per-minute", "100"]);
    let url = server.url();
    let mut owner = Client::connect_from(&url, "127.0.5.1", "Chủ", None).await;
    let login = format!("chu{}", &owner.player.id[..6]);
    answer(&mut owner, &set_login(&login, "mật khẩu đúng"), profiled)
        .await
        .unwrap();
    let strangers = join_all((1..=30).map(|i| {
        let url = url.clone();
        async move { Client::connect_from(&url, &format!("127.0.6.{i}"), "Lạ", None).await }
    }))
    .await;
    let answers = join_all(strangers.into_iter().map(|mut s| {
        let login = login.clone();
        async move {
            answer(&mut s, &sign_in(&login, "đoán sai mãi"), welcomed)
                .await
                .unwrap_err()
        }
    }))
    .await;
    let checked = answers
        .iter()
        .filter(|&&c| c == ErrorCode::BadCredentials)
        .count();
    let held = answers
        .iter()
        .filter(|&&c| c == ErrorCode::RateLimited)
        .count();
    assert_eq!(checked + held, 30, "{answers:?}");
    assert!(
        checked <= 5,
        "{checked} passwords checked at 5 a minute for one name"
    );
    // A stranger holding the right password is held back too...
    let mut thief = Client::connect_from(&url, "127.0.6.31", "Lạ", None).await;
    assert_eq!(
        answer(&mut thief, &sign_in(&login, "mật khẩu đúng"), welcomed).await,
        Err(ErrorCode::RateLimited)
    );
    // ...but the owner, on a new device at home, signs in.
    let mut phone = Client::connect_from(&url, "127.0.5.1", "Chủ", None).await;
    phone.send(&sign_in(&login, "mật khẩu đúng")).await;
    let id = phone
        .until(|m| match m {
            ServerMessage::Notice(Notice::Welcome { player, .. }) => Some(player.id.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("owner: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(id, owner.player.id);
}

/// Findings 5 and 6: `set_login` said "taken" to anyone, as often as asked, and each try
/// hashed a password with nothing to bound it.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn sign_in_names_cannot_be_listed_and_password_hashes_are_counted() {
    let dir = TempDir::new("safety-names");
    let server = ServerProcess::sqlite(&dir, &["--hashes-per-minute", "6"]);
    let url = server.url();
    let mut owner = Client::connect_from(&url, "127.0.7.1", "Chủ", None).await;
    let login = format!("chu{}", &owner.player.id[..6]);
    answer(&mut owner, &set_login(&login, "mật khẩu đúng"), profiled)
        .await
        .unwrap();
    // One prober: five names a minute, then held back.
    let mut prober = Client::connect_from(&url, "127.0.7.2", "Dò", None).await;
    let mut got = Vec::new();
    for _ in 0..7 {
        got.push(answer(&mut prober, &set_login(&login, "thử xem sao"), profiled).await);
    }
    let taken = Err(ErrorCode::NotAllowed);
    let held = Err(ErrorCode::RateLimited);
    assert_eq!(got, [taken, taken, taken, taken, taken, held, held]);
    // Many new players from one address, each setting a password at once: six hashes a
    // minute for the address, the rest refused before any work.
    let many = join_all((0..10).map(|_| {
        let url = url.clone();
        async move { Client::connect_from(&url, "127.0.7.3", "Nhiều", None).await }
    }))
    .await;
    let answers = join_all(many.into_iter().map(|mut c| async move {
        let name = format!("n{}", &c.player.id[..8]);
        answer(&mut c, &set_login(&name, "một mật khẩu"), profiled).await
    }))
    .await;
    let hashed = answers.iter().filter(|a| a.is_ok()).count();
    assert!(
        answers.iter().all(|a| a.is_ok() || *a == held),
        "{answers:?}"
    );
    assert!(
        hashed <= 6,
        "{hashed} hashes from one address at 6 a minute"
    );
    // The owner's own change needs the current password, and signs her other device out.
    let mut tablet = Client::connect_from(&url, "127.0.7.1", "Chủ", None).await;
    answer(&mut tablet, &sign_in(&login, "mật khẩu đúng"), welcomed)
        .await
        .unwrap();
    assert_eq!(
        answer(&mut owner, &set_login(&login, "mật khẩu mới"), profiled).await,
        Err(ErrorCode::NotAllowed),
        "no current password"
    );
    let change = ClientMessage::SetLogin {
        login: login.clone(),
        password: "mật khẩu mới".into(),
        current: Some("mật khẩu đúng".into()),
    };
    answer(&mut owner, &change, profiled).await.unwrap();
    let (code, _, _) = tablet.error().await;
    assert_eq!(code, ErrorCode::BadCredentials, "the tablet is signed out");
}

fn vacation_of(m: &ServerMessage) -> Option<Vacation> {
    match m {
        ServerMessage::Notice(Notice::MyGames { vacation, .. }) => Some(*vacation),
        _ => None,
    }
}

/// Finding 7: vacations switched on and off cost nothing and wrote two events each into the
/// opponent's game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vacation_costs_a_day_and_cannot_flood_the_opponents_game() {
    let dir = TempDir::new("safety-vacation");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--day-secs",
            "1",
            "--pauses-per-game",
            "2",
            "--vacation-days",
            "30",
        ],
    );
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let mut bao = Client::connect(&url, "Bảo").await;
    let code = an
        .create(
            "basic",
            ClockSpec::Correspondence { days: 14 },
            First::Me,
            false,
        )
        .await;
    bao.join(&code).await.expect("a seat");
    bao.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    let vacation = |days| ClientMessage::Vacation { days };
    an.send(&vacation(1)).await;
    an.until(vacation_of).await;
    an.send(&vacation(0)).await;
    let left = an.until(vacation_of).await.left_ms;
    assert_eq!(
        left,
        29 * 1_000,
        "a vacation ended at once still costs its day"
    );
    assert_eq!(
        refused(&mut an, vacation(1), ErrorCode::RateLimited).await,
        "one vacation a day: your last one began less than a day ago"
    );
    for _ in 0..3 {
        tokio::time::sleep(Duration::from_millis(1_100)).await;
        an.send(&vacation(1)).await;
        an.until(vacation_of).await;
        an.send(&vacation(0)).await;
        an.until(vacation_of).await;
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    bao.send(&ClientMessage::Watch {
        code: code.clone(),
        since: None,
    })
    .await;
    bao.seen = None;
    bao.until(|m| matches!(m, ServerMessage::Notice(Notice::Snapshot { .. })).then_some(()))
        .await;
    let pauses = bao
        .events
        .iter()
        .filter(|e| matches!(e.event, RoomEvent::Paused { .. }))
        .count();
    assert!(
        (1..=2).contains(&pauses),
        "{pauses} pauses: at most 2 a game"
    );
}

fn settings_of(m: &ServerMessage) -> Option<NotifySettings> {
    match m {
        ServerMessage::Notice(Notice::Notifications { settings, .. }) => Some(settings.clone()),
        _ => None,
    }
}

/// Finding 8: a guest set a stranger's address for the daily e-mail, and it went there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_daily_email_goes_only_to_a_confirmed_address_and_one_click_stops_all_mail() {
    let dir = TempDir::new("safety-mail");
    let smtp = MailServer::start(&dir);
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--day-secs",
            "1",
            "--smtp-url",
            &smtp.url,
            "--public-url",
            "https://play.example/",
            "--mails-per-address",
            "2",
        ],
    );
    let url = server.url();
    // A guest with a game waiting for its move names a stranger's address.
    let mut guest = Client::connect(&url, "Khách").await;
    let mut other = Client::connect(&url, "Bạn").await;
    let code = other
        .create(
            "basic",
            ClockSpec::Correspondence { days: 14 },
            First::Them,
            false,
        )
        .await;
    guest.join(&code).await.expect("a seat");
    let wants = NotifySettings {
        email: "victim@example.org".into(),
        digest: true,
        ..NotifySettings::default()
    };
    guest
        .send(&ClientMessage::SetNotifications {
            settings: wants.clone(),
        })
        .await;
    assert!(!guest.until(settings_of).await.confirmed);
    // Three days go by: only the confirmation came, with its one-click stop.
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    let got = smtp.received();
    assert_eq!(got.len(), 1, "the confirmation only: {got:?}");
    let Mail {
        subject,
        unsubscribe: headers,
        body,
    } = &got[0];
    assert!(subject.starts_with("Confirm your address"), "{subject}");
    assert!(
        !body.contains(&code),
        "no game is named before confirmation"
    );
    assert!(
        headers.contains("<https://play.example/mail/stop?a=")
            && headers.ends_with("| List-Unsubscribe=One-Click"),
        "{headers}"
    );
    // The address's owner, who never played, stops all mail with one click (RFC 8058's POST;
    // a GET only shows the button).
    let stop = link_in(body, "/mail/stop?").expect("a stop link");
    let (status, _, page) = http_from(&server.addr, "127.0.8.1", "GET", &stop).await;
    assert_eq!(status, 200);
    assert!(page.contains("method=post"), "{page}");
    let (status, _, _) = http_from(&server.addr, "127.0.8.1", "POST", &stop).await;
    assert_eq!(status, 200);
    let forged = stop.replace("&s=", "&s=0");
    let (status, _, _) = http_from(&server.addr, "127.0.8.1", "POST", &forged).await;
    assert_eq!(status, 404, "an address not signed by the server");
    // The guest's confirmation link no longer works, and the address cannot be named again.
    let (status, _, _) = http_from(
        &server.addr,
        "127.0.8.2",
        "GET",
        &link_in(body, "/mail/confirm?").expect("a confirmation link"),
    )
    .await;
    assert_eq!(status, 404);
    guest.send(&ClientMessage::Notifications).await;
    let now = guest.until(settings_of).await;
    assert!(!now.digest && !now.confirmed, "{now:?}");
    let again = ClientMessage::SetNotifications {
        settings: NotifySettings {
            email: "Victim@Example.org".into(),
            ..wants.clone()
        },
    };
    refused(&mut guest, again, ErrorCode::NotAllowed).await;
    tokio::time::sleep(Duration::from_millis(1_500)).await;
    assert_eq!(smtp.received().len(), 1, "nothing more to that address");
    // Confirmations to one address are counted a day, whoever asks.
    for (i, expected) in [Ok(()), Ok(()), Err(ErrorCode::RateLimited)]
        .into_iter()
        .enumerate()
    {
        let mut c = Client::connect(&url, &format!("P{i}")).await;
        let msg = ClientMessage::SetNotifications {
            settings: NotifySettings {
                email: "busy@example.org".into(),
                ..NotifySettings::default()
            },
        };
        let got = answer(&mut c, &msg, |m| settings_of(m).is_some()).await;
        assert_eq!(got, expected, "confirmation {}", i + 1);
    }
}

fn lobby_of(m: &ServerMessage) -> Option<Vec<String>> {
    match m {
        ServerMessage::Notice(Notice::Lobby { rooms, .. }) => {
            Some(rooms.iter().map(|r| r.code.clone()).collect())
        }
        _ => None,
    }
}

/// Finding 9: after A blocked B, B still saw A's room in the lobby, sat in it, and opened a
/// new game with A by a rematch; the pool paired them too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_block_keeps_two_players_apart_wherever_they_could_meet() {
    let dir = TempDir::new("safety-blocks");
    let server = ServerProcess::sqlite(&dir, &["--pool-wave-secs", "0.2"]);
    let url = server.url();
    let mut a = Client::connect(&url, "A").await;
    let mut b = Client::connect(&url, "B").await;
    let mut c = Client::connect(&url, "C").await;
    let old = finished_game(&mut a, &mut b).await;
    a.send(&ClientMessage::Block {
        player: b.player.id.clone(),
    })
    .await;
    a.until(|m| matches!(m, ServerMessage::Notice(Notice::Relations { .. })).then_some(()))
        .await;
    // No rematch, asked by either.
    refused(&mut b, ClientMessage::Rematch, ErrorCode::NotAllowed).await;
    refused(&mut a, ClientMessage::Rematch, ErrorCode::NotAllowed).await;
    assert!(
        !b.events
            .iter()
            .any(|e| e.code == old && matches!(e.event, RoomEvent::RematchOffered { .. }))
    );
    // A's public room: not in B's lobby, no seat for B; C sees it.
    a.send(&ClientMessage::Leave).await;
    b.send(&ClientMessage::Leave).await;
    let public = a.create("basic", ClockSpec::UNTIMED, First::Me, true).await;
    b.send(&ClientMessage::Lobby).await;
    assert!(!b.until(lobby_of).await.contains(&public));
    c.send(&ClientMessage::Lobby).await;
    assert!(c.until(lobby_of).await.contains(&public));
    b.send(&ClientMessage::Join {
        code: public.clone(),
        since: None,
    })
    .await;
    assert_eq!(b.error().await.0, ErrorCode::NoSuchRoom);
    // A private room of A's cannot be watched by B either.
    a.send(&ClientMessage::Leave).await;
    let private = a
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    b.send(&ClientMessage::Watch {
        code: private.clone(),
        since: None,
    })
    .await;
    assert_eq!(b.error().await.0, ErrorCode::NoSuchRoom);
    // The pool: A and B wait side by side for several waves and are not paired; C pairs.
    a.send(&ClientMessage::Leave).await;
    let pool = ClientMessage::Pool {
        rules: "basic".into(),
        clock: oaq_net::pool::POOLS[1],
    };
    for p in [&mut a, &mut b] {
        p.send(&pool).await;
        p.until(|m| matches!(m, ServerMessage::Notice(Notice::Pooled { .. })).then_some(()))
            .await;
    }
    let paired = |m: &ServerMessage| match m {
        ServerMessage::Notice(Notice::Paired { room }) => Some(room.clone()),
        _ => None,
    };
    let deadline = tokio::time::Instant::now() + Duration::from_millis(1_500);
    let left = || deadline.saturating_duration_since(tokio::time::Instant::now());
    while let Some(m) = a.try_next(left()).await {
        assert!(paired(&m).is_none(), "A and B paired: {m:?}");
    }
    c.send(&pool).await;
    let room = c.until(paired).await;
    let mut with = Vec::new();
    for p in [&mut a, &mut b] {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(3);
        let left = || deadline.saturating_duration_since(tokio::time::Instant::now());
        while let Some(m) = p.try_next(left()).await {
            if paired(&m) == Some(room.clone()) {
                with.push(p.player.id.clone());
            }
        }
    }
    assert_eq!(with.len(), 1, "C was paired with A or B");
}

/// Create a room of `clock`: its code, or the refusal's code.
async fn try_create(client: &mut Client, clock: ClockSpec) -> Result<String, ErrorCode> {
    client
        .send(&ClientMessage::Create {
            rules: oaq_net::protocol::RulesChoice::Preset("basic".into()),
            clock,
            first: First::Me,
            public: false,
        })
        .await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Created { code }) => Some(Ok(code.clone())),
            ServerMessage::Notice(Notice::Error { code, .. }) => Some(Err(*code)),
            _ => None,
        })
        .await
}

/// Finding 10: with two games by days a player at most, the pool and a rematch opened a third;
/// two rooms opened at once could both pass the cap.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn caps_hold_whatever_opens_the_room_and_when_two_open_at_once() {
    let dir = TempDir::new("safety-caps");
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--correspondence-per-player",
            "2",
            "--pool-wave-secs",
            "0.2",
        ],
    );
    let url = server.url();
    let mut a = Client::connect(&url, "A").await;
    let mut b = Client::connect(&url, "B").await;
    let days = ClockSpec::Correspondence { days: 14 };
    // One game by days between them, resigned: finished, with a rematch to ask for.
    let first = a.create("basic", days, First::Me, false).await;
    b.join(&first).await.expect("a seat");
    a.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    a.send(&ClientMessage::Resign).await;
    b.event(|e| matches!(e, RoomEvent::Ended { .. }).then_some(()))
        .await;
    // A opens one by days (one of two), then two more at once from two connections: one
    // passes the cap, the other is refused, whichever comes first.
    a.send(&ClientMessage::Leave).await;
    let second = try_create(&mut a, days).await.expect("one of two");
    let mut a2 = Client::connect_as(&url, "A", Some(&a.token)).await;
    let (x, y) = tokio::join!(try_create(&mut a, days), try_create(&mut a2, days));
    let refusals = [&x, &y].iter().filter(|r| r.is_err()).count();
    assert_eq!(refusals, 1, "{x:?} {y:?}");
    assert!(
        [&x, &y].contains(&&Err(ErrorCode::NotAllowed)),
        "{x:?} {y:?}"
    );
    // B takes a seat in A's first; C opens one and B takes its seat: both A and B at two.
    b.send(&ClientMessage::Leave).await;
    b.seen = None;
    b.join(&second).await.expect("a seat");
    let mut c = Client::connect(&url, "C").await;
    let third = c.create("basic", days, First::Me, false).await;
    b.seen = None;
    b.join(&third).await.expect("a seat");
    // The rematch of the finished game, asked by both: refused by the cap.
    let mut watcher_a = Client::connect_as(&url, "A", Some(&a.token)).await;
    watcher_a.join(&first).await;
    let mut watcher_b = Client::connect_as(&url, "B", Some(&b.token)).await;
    watcher_b.join(&first).await;
    watcher_a.send(&ClientMessage::Rematch).await;
    watcher_b
        .event(|e| matches!(e, RoomEvent::RematchOffered { .. }).then_some(()))
        .await;
    let why = refused(
        &mut watcher_b,
        ClientMessage::Rematch,
        ErrorCode::NotAllowed,
    )
    .await;
    assert!(why.contains("correspondence games"), "{why}");
    // The pool of games by days does not pair them into a third: each hears why.
    let pool = ClientMessage::Pool {
        rules: "basic".into(),
        clock: ClockSpec::Correspondence { days: 1 },
    };
    for p in [&mut watcher_a, &mut watcher_b] {
        p.send(&pool).await;
        let why = p
            .until(|m| match m {
                ServerMessage::Notice(Notice::Paired { room }) => panic!("paired into {room}"),
                ServerMessage::Notice(Notice::Error { message, .. }) => Some(message.clone()),
                _ => None,
            })
            .await;
        assert!(why.contains("correspondence games"), "{why}");
    }
}

/// Child mode switched on holds on every connection of the player at once (each read it once,
/// at `hello`, and a second device kept chatting until it reconnected).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn child_mode_holds_on_every_connection_at_once() {
    let dir = TempDir::new("safety-child");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut phone = Client::connect(&url, "Minh").await;
    let mut tablet = Client::connect_as(&url, "Minh", Some(&phone.token)).await;
    let mut friend = Client::connect(&url, "Bạn").await;
    let code = friend
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    tablet.join(&code).await.expect("a seat");
    let on = ClientMessage::SetChild {
        child: true,
        current: None,
    };
    answer(&mut phone, &on, profiled).await.unwrap();
    refused(
        &mut tablet,
        ClientMessage::Chat {
            phrase: oaq_net::social::Phrase::Hello,
        },
        ErrorCode::NotAllowed,
    )
    .await;
    refused(&mut tablet, ClientMessage::Lobby, ErrorCode::NotAllowed).await;
}

/// Rows a player makes cannot grow without end: blocks are capped and so are push
/// subscriptions, each counted in the statement that inserts (20 inserts at once keep the
/// cap), expired challenges are deleted as new ones come, and confirmation e-mails are
/// counted per address and day in one statement.
async fn rows_are_capped(url: &str) {
    use oaq_net::notify::PushSubscription;
    use oaq_server::store::Store;
    let store = Store::open(url).await.unwrap();
    for other in ["b", "c", "d"] {
        let kept = store.block_capped("a", other, 2, 1).await.unwrap();
        assert_eq!(kept, other != "d", "{other}");
    }
    assert!(
        store.block_capped("a", "b", 2, 2).await.unwrap(),
        "already blocked"
    );
    let subscribe = |i: usize| {
        let store = store.clone();
        async move {
            let sub = PushSubscription {
                endpoint: format!("https://push.example/{i}"),
                p256dh: "k".into(),
                auth: "a".into(),
                lang: oaq_session::Lang::En,
            };
            store.subscribe("a", "dev", &sub, 1, 10).await.unwrap()
        }
    };
    let kept = join_all((0..20).map(subscribe)).await;
    assert_eq!(kept.iter().filter(|&&k| k).count(), 10, "{kept:?}");
    assert_eq!(store.subscriptions("a").await.unwrap().len(), 10);
    // Challenges: one expired long ago is gone once another is made.
    let rules = oaq_rules::presets::get("basic").unwrap().rules;
    let player = |id: &str| oaq_net::protocol::PlayerInfo {
        id: id.into(),
        name: id.into(),
        rating: 1500.0,
        deviation: 350.0,
        games: 0,
        bot: false,
    };
    let challenge = |id: &str, expires_ms| oaq_net::social::Challenge {
        id: id.into(),
        from: player("a"),
        to: player("b"),
        preset: "basic".into(),
        rules,
        clock: ClockSpec::UNTIMED,
        expires_ms,
    };
    store.add_challenge(&challenge("old", 10), 5).await.unwrap();
    store
        .add_challenge(&challenge("new", 1_000), 500)
        .await
        .unwrap();
    assert!(!store.take_challenge("old").await.unwrap(), "deleted");
    assert!(store.take_challenge("new").await.unwrap());
    // Confirmation e-mails: three a day for one address, counted at once.
    let counted = join_all((0..8).map(|_| store.count_mail("h", 7, 3))).await;
    let sent = counted.into_iter().filter(|c| *c.as_ref().unwrap()).count();
    assert_eq!(sent, 3);
    assert!(store.count_mail("h", 8, 3).await.unwrap(), "a new day");
    assert!(!store.mail_refused("h").await.unwrap());
    store.refuse_mail("x@example.org", "h", 1).await.unwrap();
    assert!(store.mail_refused("h").await.unwrap());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rows_a_player_makes_are_capped_in_the_statement_and_expired_challenges_go() {
    let dir = TempDir::new("safety-rows");
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("rows.sqlite3").display()
    );
    rows_are_capped(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_rows_a_player_makes_are_capped_in_the_statement() {
    let pg = Postgres::start();
    rows_are_capped(&pg.url()).await;
}

/// Whose code this is, as the server answers `whose_code`: the owner's id, or the refusal.
async fn whose(
    client: &mut Client,
    kind: CodeKind,
    code: &str,
) -> Result<(String, String), ErrorCode> {
    client
        .send(&ClientMessage::WhoseCode {
            kind,
            code: code.into(),
        })
        .await;
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::CodeOwner { player, .. }) => {
                Some(Ok((player.id.clone(), player.name.clone())))
            }
            ServerMessage::Notice(Notice::Error { code, .. }) => Some(Err(*code)),
            _ => None,
        })
        .await
}

/// Read in the code: `?link=` and `?friend=` ran without asking, so a crafted link made a
/// device another player, or sent a child's friend request to a stranger. The game now asks
/// the server whose a code is first (and the player); the look-up names the owner without
/// using the code, hides a player who blocks the asker, and counts wrong codes per address,
/// taken before the look-up so that many at once cannot all pass (as `add_friend` now does).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn a_links_code_names_its_owner_first_and_wrong_codes_at_once_are_all_counted() {
    let dir = TempDir::new("safety-whose-code");
    let server = ServerProcess::sqlite(&dir, &[]);
    let url = server.url();
    let mut an = Client::connect_from(&url, "127.0.9.1", "An", None).await;
    an.send(&ClientMessage::LinkCode).await;
    let link = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::LinkCode { code, .. }) => Some(code.clone()),
            _ => None,
        })
        .await;
    an.send(&ClientMessage::Profile { player: None }).await;
    let friend_code = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Profile { profile }) => profile.friend_code.clone(),
            _ => None,
        })
        .await;
    // Asked twice, the link code names An and is still there to use.
    let mut phone = Client::connect_from(&url, "127.0.9.2", "Máy mới", None).await;
    let an_is = (an.player.id.clone(), "An".to_owned());
    for _ in 0..2 {
        assert_eq!(
            whose(&mut phone, CodeKind::Link, &link).await,
            Ok(an_is.clone())
        );
    }
    phone
        .send(&ClientMessage::Link { code: link.clone() })
        .await;
    let linked = phone
        .until(|m| match m {
            ServerMessage::Notice(Notice::Welcome { player, .. }) => Some(player.id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(linked, an.player.id, "the code still works once looked up");
    assert_eq!(
        whose(&mut phone, CodeKind::Link, &link).await,
        Err(ErrorCode::BadCredentials),
        "used: gone"
    );
    // A friend code names An, unless An blocks the asker: then it reads as no code at all.
    let mut binh = Client::connect_from(&url, "127.0.9.3", "Bình", None).await;
    assert_eq!(
        whose(&mut binh, CodeKind::Friend, &friend_code).await,
        Ok(an_is)
    );
    an.send(&ClientMessage::Block {
        player: binh.player.id.clone(),
    })
    .await;
    an.until(|m| matches!(m, ServerMessage::Notice(Notice::Relations { .. })).then_some(()))
        .await;
    assert_eq!(
        whose(&mut binh, CodeKind::Friend, &friend_code).await,
        Err(ErrorCode::NoSuchPlayer)
    );
    // Wrong codes sent at once from one address, each on its own connection: the link codes
    // are held to the sign-in failures' 10 a minute, the friend codes to the misses' 20.
    let at_once = |from: &'static str, kind: CodeKind| {
        let url = url.clone();
        async move {
            // One player (a new guest counts against the address too), thirty connections.
            let first = Client::connect_from(&url, from, "Lạ", None).await;
            let token = first.token.clone();
            let guessers =
                join_all((0..30).map(|_| Client::connect_from(&url, from, "Lạ", Some(&token))))
                    .await;
            join_all(
                guessers
                    .into_iter()
                    .enumerate()
                    .map(|(i, mut g)| async move {
                        let code =
                            format!("{:A>8}", format!("{i}").replace('0', "Z").replace('1', "Y"));
                        whose(&mut g, kind, &code).await.unwrap_err()
                    }),
            )
            .await
        }
    };
    for (from, kind, wrong, allowed) in [
        ("127.0.9.4", CodeKind::Link, ErrorCode::BadCredentials, 10),
        ("127.0.9.5", CodeKind::Friend, ErrorCode::NoSuchPlayer, 20),
    ] {
        let answers = at_once(from, kind).await;
        let checked = answers.iter().filter(|&&c| c == wrong).count();
        let held = answers
            .iter()
            .filter(|&&c| c == ErrorCode::RateLimited)
            .count();
        assert_eq!(checked + held, 30, "{kind:?}: {answers:?}");
        // A token refills every few seconds while the thirty connect.
        assert!(
            checked <= allowed + 1,
            "{kind:?}: {checked} wrong codes checked at {allowed} a minute"
        );
    }
}

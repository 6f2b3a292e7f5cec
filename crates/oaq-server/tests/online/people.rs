//! Players who know each other, against a real `oaq-server` on SQLite and on PostgreSQL, and
//! on two nodes: linking a device, recovery codes, sign-in names and passwords, devices
//! signed out, friends by code and from a game, presence, challenges that wait, chat phrases,
//! blocks, child mode, reports, and what operators do with `oaq-server admin`. Every refusal
//! is checked to change nothing.

use std::time::Duration;

use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, RoomEvent, RulesChoice, ServerMessage,
};
use oaq_net::social::{Challenge, Outcome, Phrase, ReportReason, grouped};
use oaq_rules::{Move, Position, presets};
use oaq_testkit::*;

fn walking(pos: &Position) -> Move {
    let legal = pos.legal_moves();
    legal[(pos.ply() as usize * 3 + 2) % legal.len()]
}

/// Connected as the player whose token this is (and the welcome read).
async fn again(url: &str, name: &str, token: &str) -> Client {
    Client::connect_as(url, name, Some(token)).await
}

async fn challenge(from: &mut Client, to: &str) -> Challenge {
    from.send(&ClientMessage::Challenge {
        player: to.to_owned(),
        rules: RulesChoice::Preset("basic".into()),
        clock: ClockSpec::UNTIMED,
    })
    .await;
    let (_, outgoing) = from
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenges { incoming, outgoing }) => {
                Some((incoming.clone(), outgoing.clone()))
            }
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("challenge: {message}"),
            _ => None,
        })
        .await;
    outgoing
        .into_iter()
        .find(|c| c.to.id == to)
        .expect("the challenge waits")
}

async fn challenged(client: &mut Client) -> Challenge {
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenged { challenge }) => Some(challenge.clone()),
            _ => None,
        })
        .await
}

async fn accepted(client: &mut Client, id: &str) -> String {
    client
        .until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeAccepted { id: i, room }) if i == id => {
                Some(room.clone())
            }
            _ => None,
        })
        .await
}

/// Befriend `a` and `b` by `b`'s friend code; both see it.
pub(super) async fn befriend(a: &mut Client, b: &mut Client) {
    let code = b.friend_code().await;
    a.send(&ClientMessage::AddFriend { code }).await;
    let mine = a.wait_relations().await;
    assert!(
        mine.outgoing.iter().any(|p| p.id == b.player.id),
        "{mine:?}"
    );
    let from = b
        .until(|m| match m {
            ServerMessage::Notice(Notice::FriendRequest { from }) => Some(from.id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(from, a.player.id);
    b.send(&ClientMessage::AnswerFriend {
        player: a.player.id.clone(),
        accept: true,
    })
    .await;
    let theirs = b.wait_relations().await;
    assert!(theirs.friends.iter().any(|f| f.player.id == a.player.id));
    let accepted = a
        .until(|m| match m {
            ServerMessage::Notice(Notice::FriendAccepted { player }) => Some(player.id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(accepted, b.player.id);
}

/// Everything a player does with their identity: a second device by a link code, a recovery
/// code, a password, the list of devices and signing one out.
async fn identity_survives(url: &str) {
    let mut an = Client::connect(url, "An").await;
    let id = an.player.id.clone();
    let own = an.profile(None).await;
    assert_eq!(own.player.id, id);
    assert_eq!(own.child, Some(false));
    let code = own.friend_code.clone().unwrap();
    assert_eq!(code.len(), 8);
    assert_eq!(
        an.profile(None).await.friend_code.unwrap(),
        code,
        "the code stays"
    );

    // A link code, typed on another device in lower case with a dash, makes it An.
    an.send(&ClientMessage::LinkCode).await;
    let link = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::LinkCode { code, expires_ms }) => {
                Some((code.clone(), *expires_ms))
            }
            _ => None,
        })
        .await;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    assert!(link.1 > now, "the code lasts a few minutes");
    let mut phone = Client::connect(url, "An's phone").await;
    assert_ne!(phone.player.id, id);
    phone
        .send(&ClientMessage::Link {
            code: grouped(&link.0).to_lowercase(),
        })
        .await;
    let (phone_id, phone_token, _) = phone.welcome().await;
    assert_eq!(phone_id, id, "the phone is An now");
    assert_ne!(phone_token, an.token, "with a token of its own");
    assert_eq!(phone.profile(None).await.player.id, id);
    // Used once: a third device gets nothing, and stays who it was.
    let mut third = Client::connect(url, "Someone").await;
    let third_id = third.player.id.clone();
    third
        .refused(
            ClientMessage::Link {
                code: link.0.clone(),
            },
            ErrorCode::BadCredentials,
        )
        .await;
    assert_eq!(third.profile(None).await.player.id, third_id);

    // The devices, each named; the phone signed out from the first device.
    an.send(&ClientMessage::Devices).await;
    let devices = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Devices { devices }) => Some(devices.clone()),
            _ => None,
        })
        .await;
    assert_eq!(devices.len(), 2, "{devices:?}");
    assert_eq!(devices.iter().filter(|d| d.this).count(), 1);
    let phone_device = devices.iter().find(|d| !d.this).unwrap().id.clone();
    an.refused(
        ClientMessage::RevokeDevice { id: "nope".into() },
        ErrorCode::NotAllowed,
    )
    .await;
    an.send(&ClientMessage::RevokeDevice { id: phone_device })
        .await;
    let left = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Devices { devices }) => Some(devices.len()),
            _ => None,
        })
        .await;
    assert_eq!(left, 1);
    let (code_, _, _) = phone.error().await;
    assert_eq!(code_, ErrorCode::BadCredentials);
    assert!(
        phone.try_next(Duration::from_secs(5)).await.is_none(),
        "the phone is closed"
    );
    let back = again(url, "An's phone", &phone_token).await;
    assert_ne!(back.player.id, id, "its token no longer signs in as An");

    // A recovery code restores An anywhere; a wrong one changes nothing.
    an.send(&ClientMessage::RecoveryCode { current: None })
        .await;
    let recovery = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::RecoveryCode { code }) => Some(code.clone()),
            _ => None,
        })
        .await;
    assert_eq!(recovery.len(), 16);
    assert!(an.profile(None).await.recovery);
    let mut lost = Client::connect(url, "An").await;
    let lost_id = lost.player.id.clone();
    lost.refused(
        ClientMessage::Recover {
            code: "ABCD-EFGH-JKMN-PQRS".into(),
        },
        ErrorCode::BadCredentials,
    )
    .await;
    assert_eq!(lost.profile(None).await.player.id, lost_id);
    lost.send(&ClientMessage::Recover {
        code: grouped(&recovery),
    })
    .await;
    assert_eq!(lost.welcome().await.0, id);

    // A sign-in name and password.
    an.refused(
        ClientMessage::SetLogin {
            login: "an".into(),
            password: "short".into(),
            current: None,
        },
        ErrorCode::BadMessage,
    )
    .await;
    an.refused(
        ClientMessage::SetLogin {
            login: "bà".into(),
            password: "long enough".into(),
            current: None,
        },
        ErrorCode::BadMessage,
    )
    .await;
    assert_eq!(
        an.profile(None).await.login,
        None,
        "refusals change nothing"
    );
    let login = format!("an{}", &id[..6]);
    an.send(&ClientMessage::SetLogin {
        login: login.to_uppercase(),
        password: "mật khẩu 1942".into(),
        current: None,
    })
    .await;
    let set = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.login.clone()),
            _ => None,
        })
        .await;
    assert_eq!(set.as_deref(), Some(login.as_str()));
    let mut other = Client::connect(url, "Other").await;
    other
        .refused(
            ClientMessage::SetLogin {
                login: login.clone(),
                password: "another one".into(),
                current: None,
            },
            ErrorCode::NotAllowed,
        )
        .await;
    other
        .refused(
            ClientMessage::SignIn {
                login: login.clone(),
                password: "mật khẩu 1943".into(),
            },
            ErrorCode::BadCredentials,
        )
        .await;
    other
        .refused(
            ClientMessage::SignIn {
                login: "nobody-here".into(),
                password: "mật khẩu 1942".into(),
            },
            ErrorCode::BadCredentials,
        )
        .await;
    other
        .send(&ClientMessage::SignIn {
            login,
            password: "mật khẩu 1942".into(),
        })
        .await;
    assert_eq!(other.welcome().await.0, id);
}

/// Friends, presence, challenges (live and waiting), a rated game between friends with chat,
/// the profiles after it, blocks and reports.
async fn friends_play(url: &str) {
    let mut an = Client::connect(url, "An").await;
    let mut binh = Client::connect(url, "Bình").await;
    an.refused(
        ClientMessage::AddFriend {
            code: "ZZZZZZZZ".into(),
        },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    let own = an.friend_code().await;
    an.refused(
        ClientMessage::AddFriend { code: own },
        ErrorCode::NotAllowed,
    )
    .await;
    assert!(
        an.relations().await.outgoing.is_empty(),
        "refusals change nothing"
    );
    befriend(&mut an, &mut binh).await;
    let friends = an.relations().await.friends;
    assert_eq!(friends.len(), 1);
    assert!(friends[0].online, "Bình is connected");

    // A challenge, seen at once; a second to the same friend is refused; accepted, the room
    // opens with both seated.
    let sent = challenge(&mut an, &binh.player.id.clone()).await;
    let got = challenged(&mut binh).await;
    assert_eq!(got.id, sent.id);
    assert_eq!(got.from.id, an.player.id);
    an.refused(
        ClientMessage::Challenge {
            player: binh.player.id.clone(),
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
        },
        ErrorCode::NotAllowed,
    )
    .await;
    binh.send(&ClientMessage::AnswerChallenge {
        id: got.id.clone(),
        accept: true,
    })
    .await;
    let room = accepted(&mut binh, &got.id).await;
    assert_eq!(accepted(&mut an, &got.id).await, room);
    binh.refused(
        ClientMessage::AnswerChallenge {
            id: got.id.clone(),
            accept: true,
        },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    an.join(&room).await.expect("a seat");
    binh.join(&room).await.expect("a seat");

    // Chat: a phrase id, heard by the other player; a flood is refused.
    an.send(&ClientMessage::Chat {
        phrase: Phrase::GoodLuck,
    })
    .await;
    let heard = binh
        .until(|m| match m {
            ServerMessage::Notice(Notice::Chat { code, phrase, .. }) => {
                Some((code.clone(), *phrase))
            }
            _ => None,
        })
        .await;
    assert_eq!(heard, (room.clone(), Phrase::GoodLuck));
    for _ in 0..3 {
        binh.send(&ClientMessage::Chat {
            phrase: Phrase::Wow,
        })
        .await;
    }
    binh.refused(
        ClientMessage::Chat {
            phrase: Phrase::Wow,
        },
        ErrorCode::RateLimited,
    )
    .await;

    // The game played out: a rated game in both profiles.
    let rules = presets::get("basic").unwrap().rules;
    let seat_an = an.seat_in(&room);
    let mut clients: Vec<&mut Client> = if seat_an == 0 {
        vec![&mut an, &mut binh]
    } else {
        vec![&mut binh, &mut an]
    };
    play_out(&mut clients, rules, walking).await;
    let result = ended(&mut an).await;
    let profile = an.profile(None).await;
    assert_eq!(profile.won + profile.lost + profile.drawn, 1);
    assert_eq!(profile.games.len(), 1);
    assert_eq!(profile.games[0].code, room);
    assert_eq!(profile.games[0].opponents, vec!["Bình".to_owned()]);
    let mine = Outcome::of_places(&result.places)[seat_an];
    assert_eq!(profile.games[0].outcome, mine);
    let seen_by_binh = binh.profile(Some(&an.player.id.clone())).await;
    assert_eq!(seen_by_binh.games.len(), 1);
    assert!(seen_by_binh.friend);
    assert_eq!(
        seen_by_binh.friend_code, None,
        "only one's own profile has the code"
    );

    // Friends no more, then again from the game's end (they sat in a room together).
    an.send(&ClientMessage::RemoveFriend {
        player: binh.player.id.clone(),
    })
    .await;
    assert!(an.wait_relations().await.friends.is_empty());
    an.send(&ClientMessage::AddOpponent {
        player: binh.player.id.clone(),
    })
    .await;
    let asked = an.wait_relations().await;
    assert_eq!(asked.outgoing.len(), 1, "{asked:?}");
    binh.send(&ClientMessage::AnswerFriend {
        player: an.player.id.clone(),
        accept: true,
    })
    .await;
    assert_eq!(binh.wait_relations().await.friends.len(), 1);
    // A challenge taken back: Bình hears it is closed.
    let taken_back = challenge(&mut an, &binh.player.id.clone()).await;
    an.send(&ClientMessage::CancelChallenge {
        id: taken_back.id.clone(),
    })
    .await;
    let (_, outgoing) = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenges { incoming, outgoing }) => {
                Some((incoming.clone(), outgoing.clone()))
            }
            _ => None,
        })
        .await;
    assert!(outgoing.is_empty());
    let closed = binh
        .until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeClosed { id }) => Some(id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(closed, taken_back.id);

    // A challenge to a friend who is away waits for them.
    let mut cuc = Client::connect(url, "Cúc").await;
    befriend(&mut an, &mut cuc).await;
    let cuc_token = cuc.token.clone();
    let cuc_id = cuc.player.id.clone();
    cuc.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    let friends = an.relations().await.friends;
    assert!(
        !friends
            .iter()
            .find(|f| f.player.id == cuc_id)
            .unwrap()
            .online
    );
    let waiting = challenge(&mut an, &cuc_id).await;
    let mut cuc = again(url, "Cúc", &cuc_token).await;
    let incoming = cuc
        .until(|m| match m {
            ServerMessage::Notice(Notice::Challenges { incoming, .. }) => Some(incoming.clone()),
            _ => None,
        })
        .await;
    assert_eq!(incoming.len(), 1);
    assert_eq!(incoming[0].id, waiting.id);
    cuc.send(&ClientMessage::AnswerChallenge {
        id: waiting.id.clone(),
        accept: false,
    })
    .await;
    let closed = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::ChallengeClosed { id }) => Some(id.clone()),
            _ => None,
        })
        .await;
    assert_eq!(closed, waiting.id);
    assert!(an.challenges().await.1.is_empty());

    // Reports: once a day per player.
    an.send(&ClientMessage::Report {
        player: binh.player.id.clone(),
        reason: ReportReason::OffensiveName,
        room: Some(room.clone()),
    })
    .await;
    an.until(|m| matches!(m, ServerMessage::Notice(Notice::Reported { .. })).then_some(()))
        .await;
    an.refused(
        ClientMessage::Report {
            player: binh.player.id.clone(),
            reason: ReportReason::Other,
            room: None,
        },
        ErrorCode::NotAllowed,
    )
    .await;

    // Bình blocks An: no friendship, no challenge, no chat, and An cannot find Bình by code.
    let binh_code = binh.friend_code().await;
    binh.send(&ClientMessage::Block {
        player: an.player.id.clone(),
    })
    .await;
    let theirs = binh.wait_relations().await;
    assert!(theirs.friends.is_empty());
    assert_eq!(theirs.blocked.len(), 1);
    assert!(
        an.relations()
            .await
            .friends
            .iter()
            .all(|f| f.player.id != binh.player.id)
    );
    an.refused(
        ClientMessage::Challenge {
            player: binh.player.id.clone(),
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
        },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    an.refused(
        ClientMessage::AddFriend { code: binh_code },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    an.refused(
        ClientMessage::AddOpponent {
            player: binh.player.id.clone(),
        },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    an.refused(
        ClientMessage::Profile {
            player: Some(binh.player.id.clone()),
        },
        ErrorCode::NoSuchPlayer,
    )
    .await;
    an.send(&ClientMessage::Chat {
        phrase: Phrase::GoodGame,
    })
    .await;
    binh.hears_nothing(Duration::from_secs(1)).await;
    // Unblocked: An may ask again by code.
    binh.send(&ClientMessage::Unblock {
        player: an.player.id.clone(),
    })
    .await;
    assert!(binh.wait_relations().await.blocked.is_empty());
    let binh_code = binh.friend_code().await;
    an.send(&ClientMessage::AddFriend { code: binh_code }).await;
    assert_eq!(an.wait_relations().await.outgoing.len(), 1);
}

/// A new player asking for child mode in their first `hello`.
pub(super) async fn connect_child(url: &str, name: &str) -> Client {
    let hello = ClientMessage::Hello {
        protocol: oaq_net::protocol::PROTOCOL,
        name: name.into(),
        token: None,
        device: Some("Tablet".into()),
        child: true,
        batches: false,
        then: 0,
    };
    let mut kid = Client::greet_with(Client::raw(url).await, &hello).await;
    let (id, token, child) = kid.welcome().await;
    assert!(child, "made in child mode");
    kid.player.id = id;
    kid.token = token;
    kid
}

/// Child mode: no lobby, no public rooms, no chat, friends by code only; switched off and on.
async fn child_mode(url: &str) {
    let mut kid = connect_child(url, "Bé Na").await;
    let profile = kid.profile(None).await;
    assert_eq!(profile.child, Some(true));
    kid.refused(ClientMessage::Lobby, ErrorCode::NotAllowed)
        .await;
    kid.refused(
        ClientMessage::Create {
            rules: RulesChoice::Preset("basic".into()),
            clock: ClockSpec::UNTIMED,
            first: First::Me,
            public: true,
        },
        ErrorCode::NotAllowed,
    )
    .await;
    kid.refused(
        ClientMessage::Chat {
            phrase: Phrase::Hello,
        },
        ErrorCode::NotAllowed,
    )
    .await;

    // A grown-up who played the child cannot befriend them from the game, and is not heard.
    let mut mum = Client::connect(url, "Mẹ").await;
    let code = kid
        .create("basic", ClockSpec::UNTIMED, First::Me, false)
        .await;
    mum.join(&code).await.expect("a seat");
    kid.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    mum.event(|e| matches!(e, RoomEvent::Started { .. }).then_some(()))
        .await;
    mum.refused(
        ClientMessage::AddOpponent {
            player: kid.player.id.clone(),
        },
        ErrorCode::NotAllowed,
    )
    .await;
    mum.send(&ClientMessage::Chat {
        phrase: Phrase::Hello,
    })
    .await;
    kid.hears_nothing(Duration::from_secs(1)).await;
    // By the child's friend code, yes.
    befriend(&mut mum, &mut kid).await;

    // Child mode off, asked without a password on an account that has none: it ends only
    // after a day, and every device of the player is told (here, a second one).
    let mut tablet = again(url, "Bé Na", &kid.token).await;
    kid.send(&ClientMessage::SetChild {
        child: false,
        current: None,
    })
    .await;
    for device in [&mut kid, &mut tablet] {
        let profile = device
            .until(|m| match m {
                ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.clone()),
                _ => None,
            })
            .await;
        assert_eq!(profile.child, Some(true), "still a child for a day");
        assert!(profile.child_off_ms.is_some(), "and told when it ends");
    }
    kid.refused(ClientMessage::Lobby, ErrorCode::NotAllowed)
        .await;
    tablet.close().await;
    // With a recovery code taken, that code switches it off at once (the game asked the
    // parent's question); a wrong one changes nothing.
    kid.send(&ClientMessage::RecoveryCode { current: None })
        .await;
    let recovery = kid
        .until(|m| match m {
            ServerMessage::Notice(Notice::RecoveryCode { code }) => Some(code.clone()),
            _ => None,
        })
        .await;
    kid.refused(
        ClientMessage::SetChild {
            child: false,
            current: Some("ABCD-EFGH-JKMN-PQRS".into()),
        },
        ErrorCode::BadCredentials,
    )
    .await;
    kid.send(&ClientMessage::SetChild {
        child: false,
        current: Some(recovery),
    })
    .await;
    let profile = kid
        .until(|m| match m {
            ServerMessage::Notice(Notice::Profile { profile }) => Some(profile.clone()),
            ServerMessage::Notice(Notice::Error { message, .. }) => panic!("child off: {message}"),
            _ => None,
        })
        .await;
    assert_eq!(profile.child, Some(false));
    kid.send(&ClientMessage::Lobby).await;
    kid.until(|m| matches!(m, ServerMessage::Notice(Notice::Lobby { .. })).then_some(()))
        .await;
    kid.send(&ClientMessage::SetChild {
        child: true,
        current: None,
    })
    .await;
    kid.until(|m| matches!(m, ServerMessage::Notice(Notice::Profile { .. })).then_some(()))
        .await;
    kid.refused(ClientMessage::Lobby, ErrorCode::NotAllowed)
        .await;
    let token = kid.token.clone();
    kid.close().await;
    let mut kid = again(url, "Bé Na", &token).await;
    kid.refused(ClientMessage::Lobby, ErrorCode::NotAllowed)
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_sqlite_identity_friends_challenges_chat_and_child_mode() {
    let dir = TempDir::new("people");
    let server =
        ServerProcess::sqlite(&dir, &["--chat-burst", "3", "--messages-per-second", "200"]);
    let url = server.url();
    identity_survives(&url).await;
    friends_play(&url).await;
    child_mode(&url).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_postgres_identity_friends_challenges_chat_and_child_mode() {
    let pg = Postgres::start();
    let server = ServerProcess::start(&[
        "--database",
        &pg.url(),
        "--chat-burst",
        "3",
        "--messages-per-second",
        "200",
    ]);
    let url = server.url();
    identity_survives(&url).await;
    friends_play(&url).await;
    child_mode(&url).await;
}

/// `oaq-server admin` on the server's database: what it prints.
fn admin(database: &str, args: &[&str]) -> String {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_oaq-server"))
        .args(["admin", "--database", database])
        .args(args)
        .output()
        .expect("oaq-server admin runs");
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success() || args.contains(&"nobody"),
        "{args:?}: {text}"
    );
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operators_list_reports_rename_ban_and_unban_while_the_server_runs() {
    let dir = TempDir::new("moderation");
    let server = ServerProcess::sqlite(&dir, &[]);
    let db = dir.path().join("oaq.sqlite3");
    let db = db.to_str().unwrap();
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let mut rude = Client::connect(&url, "Rude name").await;
    let rude_id = rude.player.id.clone();
    let code = rude
        .create("basic", ClockSpec::UNTIMED, First::Me, true)
        .await;
    an.send(&ClientMessage::Report {
        player: rude_id.clone(),
        reason: ReportReason::OffensiveName,
        room: Some(code.clone()),
    })
    .await;
    an.until(|m| matches!(m, ServerMessage::Notice(Notice::Reported { .. })).then_some(()))
        .await;
    let listed = admin(db, &["reports"]);
    assert!(listed.starts_with("1 reports"), "{listed}");
    assert!(
        listed.contains(&rude_id) && listed.contains("offensive_name"),
        "{listed}"
    );
    assert!(listed.contains(&code), "{listed}");

    // Renamed: the player's own game cannot set the name back.
    admin(db, &["rename", &rude_id, "Player 7"]);
    assert!(admin(db, &["reports"]).starts_with("0 reports"), "handled");
    let token = rude.token.clone();
    rude.close().await;
    let mut rude = again(&url, "Rude name", &token).await;
    assert_eq!(rude.player.name, "Player 7");

    // Banned: the connection is told and closed within seconds, the token stops working, the
    // room waiting for an opponent leaves the lobby.
    rude.send(&ClientMessage::Join {
        code: code.clone(),
        since: None,
    })
    .await;
    rude.seat(&code).await;
    admin(db, &["ban", &rude_id, "--reason", "names"]);
    let (got, _, _) = rude.error().await;
    assert_eq!(got, ErrorCode::Banned);
    // Closed within seconds (a notice already on its way may come first).
    let deadline = tokio::time::Instant::now() + Duration::from_secs(5);
    let mut last = None;
    while let Some(msg) = rude.try_next(Duration::from_millis(500)).await {
        assert!(
            tokio::time::Instant::now() < deadline,
            "not closed; last {msg:?}"
        );
        last = Some(msg);
    }
    assert!(
        tokio::time::Instant::now() < deadline,
        "closed late, after {last:?}"
    );
    let ws = Client::raw(&url).await;
    let mut refused = Client::greet(ws, "Rude name", Some(&token)).await;
    let (got, _, _) = refused.error().await;
    assert_eq!(got, ErrorCode::Banned);
    an.send(&ClientMessage::Lobby).await;
    let rooms = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => Some(rooms.clone()),
            _ => None,
        })
        .await;
    assert!(rooms.iter().all(|r| r.code != code), "{rooms:?}");
    let unknown = admin(db, &["ban", "nobody"]);
    assert!(unknown.contains("no player nobody"), "{unknown}");

    // Unbanned: the same token signs in again.
    admin(db, &["unban", &rude_id]);
    let back = again(&url, "Rude name", &token).await;
    assert_eq!(back.player.id, rude_id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_codes_and_passwords_are_limited_per_address() {
    let dir = TempDir::new("guessing");
    let server = ServerProcess::sqlite(&dir, &["--sign-in-failures-per-minute", "3"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    an.send(&ClientMessage::RecoveryCode { current: None })
        .await;
    let recovery = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::RecoveryCode { code }) => Some(code.clone()),
            _ => None,
        })
        .await;
    let mut guesser = Client::connect_from(&url, "127.0.0.31", "Guesser", None).await;
    for _ in 0..3 {
        guesser
            .refused(
                ClientMessage::Recover {
                    code: "ABCDEFGHJKMNPQRS".into(),
                },
                ErrorCode::BadCredentials,
            )
            .await;
    }
    // Past the limit even the right code is refused, so the limit tells a guesser nothing.
    guesser
        .refused(
            ClientMessage::Recover {
                code: recovery.clone(),
            },
            ErrorCode::RateLimited,
        )
        .await;
    // Another address is not held back.
    let mut owner = Client::connect_from(&url, "127.0.0.32", "An", None).await;
    owner.send(&ClientMessage::Recover { code: recovery }).await;
    assert_eq!(owner.welcome().await.0, an.player.id);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn friends_on_two_nodes_see_each_other_online_and_challenge_and_chat_across() {
    let pg = Postgres::start();
    let redis = Redis::start();
    let (db, rd) = (pg.url(), redis.url());
    let node =
        |name: &str| ServerProcess::start(&["--database", &db, "--redis", &rd, "--node", name]);
    let one = node("one");
    let two = node("two");
    let mut an = Client::connect(&one.url(), "An").await;
    let mut binh = Client::connect(&two.url(), "Bình").await;
    // The request and its acceptance cross the nodes as they happen.
    befriend(&mut an, &mut binh).await;
    let friends = an.relations().await.friends;
    assert!(
        friends[0].online,
        "Bình, on node two, is online to An on node one"
    );
    let sent = challenge(&mut binh, &an.player.id.clone()).await;
    assert_eq!(challenged(&mut an).await.id, sent.id);
    an.send(&ClientMessage::AnswerChallenge {
        id: sent.id.clone(),
        accept: true,
    })
    .await;
    let room = accepted(&mut an, &sent.id).await;
    assert_eq!(accepted(&mut binh, &sent.id).await, room);
    an.join(&room).await.expect("a seat");
    binh.join(&room).await.expect("a seat");
    binh.send(&ClientMessage::Chat {
        phrase: Phrase::Hello,
    })
    .await;
    let heard = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Chat { phrase, .. }) => Some(*phrase),
            _ => None,
        })
        .await;
    assert_eq!(heard, Phrase::Hello);
    // Bình leaves: within the presence's life An sees him offline.
    binh.close().await;
    let mut offline = false;
    for _ in 0..20 {
        tokio::time::sleep(Duration::from_millis(250)).await;
        if !an.relations().await.friends[0].online {
            offline = true;
            break;
        }
    }
    assert!(offline, "Bình's presence went with his last connection");
}

//! Notifications against a real `oaq-server`: its Web Push requests reach a push endpoint on
//! loopback written here, which checks them as a push service would (the VAPID signature with
//! the server's key, the headers) and decrypts each message with the device's keys (RFC 8291);
//! a device the service says is gone is forgotten; a player's choices are followed; bad
//! subscriptions and addresses are refused and change nothing; and the daily e-mail reaches a
//! real SMTP server (Python's aiosmtpd) in the player's language.

use std::collections::HashSet;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use oaq_net::notify::{NotifySettings, PushMessage, PushSubscription};
use oaq_net::protocol::{
    ClientMessage, ClockSpec, EndCause, ErrorCode, First, Notice, ServerMessage,
};
use oaq_rules::{Position, presets};
use oaq_session::Lang;
use oaq_testkit::*;
use tokio::sync::mpsc;
use web_push_native::jwt_simple::prelude::*;
use web_push_native::{Auth, p256};

/// A request the push endpoint received: its path, headers and body.
struct Pushed {
    path: String,
    headers: axum::http::HeaderMap,
    body: Vec<u8>,
}

/// The test's push service: every POST is kept; `/push/gone` answers 410 as for an expired
/// subscription, the rest 201.
async fn push_service() -> (String, mpsc::UnboundedReceiver<Pushed>) {
    let (tx, rx) = mpsc::unbounded_channel();
    let app = axum::Router::new().route(
        "/push/{device}",
        axum::routing::post(
            move |axum::extract::Path(device): axum::extract::Path<String>,
                  headers: axum::http::HeaderMap,
                  body: axum::body::Bytes| {
                let tx = tx.clone();
                async move {
                    let _ = tx.send(Pushed {
                        path: device.clone(),
                        headers,
                        body: body.to_vec(),
                    });
                    if device == "gone" {
                        axum::http::StatusCode::GONE
                    } else {
                        axum::http::StatusCode::CREATED
                    }
                }
            },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{addr}/push"), rx)
}

/// A device: its private key and secret, and the subscription the browser would give.
struct Device {
    secret: p256::SecretKey,
    auth: Auth,
    subscription: PushSubscription,
}

fn device(endpoint: String, seed: u8, lang: Lang) -> Device {
    let secret = p256::SecretKey::from_slice(&[seed; 32]).unwrap();
    let public = secret.public_key().to_sec1_bytes();
    let auth = Auth::from([seed ^ 0x5a; 16]);
    Device {
        subscription: PushSubscription {
            endpoint,
            p256dh: URL_SAFE_NO_PAD.encode(public),
            auth: URL_SAFE_NO_PAD.encode(auth),
            lang,
        },
        secret,
        auth,
    }
}

/// Check `pushed` as a push service would (VAPID signed by `key`, encrypted content) and
/// decrypt it for `device`.
fn open(pushed: &Pushed, device: &Device, key: &str) -> PushMessage {
    let h = |name: &str| {
        pushed
            .headers
            .get(name)
            .map(|v| v.to_str().unwrap().to_owned())
            .unwrap_or_default()
    };
    assert_eq!(h("content-encoding"), "aes128gcm");
    assert!(h("ttl").parse::<u64>().unwrap() > 0);
    let authorization = h("authorization");
    let rest = authorization
        .strip_prefix("vapid t=")
        .expect("a VAPID header");
    let (token, k) = rest.split_once(", k=").unwrap();
    assert_eq!(k, key, "signed with the key the server gives its players");
    let public = ES256PublicKey::from_bytes(&URL_SAFE_NO_PAD.decode(k).unwrap()).unwrap();
    let options = VerificationOptions {
        allowed_audiences: Some(HashSet::from_strings(&["http://127.0.0.1"])),
        ..Default::default()
    };
    let claims = public
        .verify_token::<NoCustomClaims>(token, Some(options))
        .expect("a valid VAPID signature for this push service");
    assert_eq!(claims.subject.as_deref(), Some("mailto:operator@localhost"));
    let plain = web_push_native::decrypt(pushed.body.clone(), &device.secret, &device.auth)
        .expect("decrypts with the device's keys");
    serde_json::from_slice(&plain).unwrap()
}

async fn next_push(rx: &mut mpsc::UnboundedReceiver<Pushed>, path: &str) -> Pushed {
    loop {
        let pushed = tokio::time::timeout(Duration::from_secs(15), rx.recv())
            .await
            .expect("a push within 15 s")
            .unwrap();
        if pushed.path == path {
            return pushed;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn pushes_and_the_daily_email_reach_players_away_in_their_language() {
    let (endpoint, mut pushes) = push_service().await;
    let dir = TempDir::new("notify");
    let smtp = MailServer::start(&dir);
    let server = ServerProcess::sqlite(
        &dir,
        &[
            "--push-loopback",
            "--day-secs",
            "2",
            "--smtp-url",
            &smtp.url,
            "--public-url",
            "https://play.example/",
        ],
    );
    let url = server.url();
    let mut ba = Client::connect(&url, "Bà").await;
    let mut minh = Client::connect(&url, "Minh").await;
    let mut chi = Client::connect(&url, "Chi").await;
    let ba_phone = device(format!("{endpoint}/ba"), 7, Lang::Vi);
    let ba_old = device(format!("{endpoint}/gone"), 9, Lang::Vi);
    let minh_phone = device(format!("{endpoint}/minh"), 11, Lang::En);

    // Subscriptions a stranger could abuse are refused, and change nothing.
    let (_, key, devices) = ba.notifications_after(ClientMessage::Notifications).await;
    assert_eq!(
        (devices, URL_SAFE_NO_PAD.decode(&key).unwrap().len()),
        (0, 65)
    );
    let mut evil = ba_phone.subscription.clone();
    evil.endpoint = "https://push.evil.example/x".into();
    let why = ba
        .refused_with(
            ClientMessage::PushSubscribe { subscription: evil },
            ErrorCode::BadMessage,
        )
        .await;
    assert!(why.contains("not a push service"), "{why}");
    let mut bad_key = ba_phone.subscription.clone();
    bad_key.p256dh = URL_SAFE_NO_PAD.encode([4u8; 65]);
    let why = ba
        .refused_with(
            ClientMessage::PushSubscribe {
                subscription: bad_key,
            },
            ErrorCode::BadMessage,
        )
        .await;
    assert!(why.starts_with("p256dh"), "{why}");
    let why = ba
        .refused_with(
            ClientMessage::SetNotifications {
                settings: NotifySettings {
                    email: "bà at home".into(),
                    ..NotifySettings::default()
                },
            },
            ErrorCode::BadMessage,
        )
        .await;
    assert!(why.contains("not an address"), "{why}");
    let (settings, _, devices) = ba.notifications_after(ClientMessage::Notifications).await;
    assert_eq!((settings, devices), (NotifySettings::default(), 0));

    // Bà: two devices (one long gone), no challenges, the daily e-mail in Vietnamese.
    for d in [&ba_phone, &ba_old] {
        ba.notifications_after(ClientMessage::PushSubscribe {
            subscription: d.subscription.clone(),
        })
        .await;
    }
    let ba_wants = NotifySettings {
        challenges: false,
        email: "ba@example.org".into(),
        digest: true,
        lang: Lang::Vi,
        ..NotifySettings::default()
    };
    let (settings, _, devices) = ba
        .notifications_after(ClientMessage::SetNotifications {
            settings: ba_wants.clone(),
        })
        .await;
    assert_eq!((settings, devices), (ba_wants, 2));
    // Nothing goes to the address before its owner follows the link sent to it.
    let confirm = smtp.link("/mail/confirm?").await;
    assert_eq!(server.http(&confirm).0, 200, "{confirm}");
    let (settings, _, _) = ba.notifications_after(ClientMessage::Notifications).await;
    assert!(settings.confirmed);
    minh.notifications_after(ClientMessage::PushSubscribe {
        subscription: minh_phone.subscription.clone(),
    })
    .await;

    // A game by days between Minh and Bà, past its first moves; one between Chi and Bà that
    // waits for Bà's move all along.
    let rules = presets::get("basic").unwrap().rules;
    let code = minh
        .create(
            "basic",
            ClockSpec::Correspondence { days: 1 },
            First::Me,
            false,
        )
        .await;
    ba.join(&code).await;
    let mut pos = Position::new(rules);
    minh.move_in(&mut pos, 1).await;
    ba.move_in(&mut pos, 1).await;
    let long = chi
        .create(
            "basic",
            ClockSpec::Correspondence { days: 14 },
            First::Me,
            false,
        )
        .await;
    ba.seen = None;
    ba.join(&long).await;
    chi.move_in(&mut Position::new(rules), 1).await;

    // Bà goes; Minh moves: her phone hears it, in Vietnamese, signed and encrypted.
    let (ba_token, ba_id) = (ba.token.clone(), ba.player.id.clone());
    ba.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    minh.move_in(&mut pos, 1).await;
    let message = open(&next_push(&mut pushes, "ba").await, &ba_phone, &key);
    assert_eq!(message.title, "Đến lượt bạn");
    assert!(
        message.body.contains("Minh") && message.body.contains(&code),
        "{message:?}"
    );
    assert_eq!(
        (message.tag.as_str(), message.url.as_str()),
        (code.as_str(), &*format!("/?room={code}"))
    );
    let gone = next_push(&mut pushes, "gone").await;
    assert_eq!(open(&gone, &ba_old, &key).tag, code);

    // A challenge to Bà: she switched those off.
    minh.send(&ClientMessage::Challenge {
        player: ba_id.clone(),
        rules: oaq_net::protocol::RulesChoice::Preset("basic".into()),
        clock: ClockSpec::UNTIMED,
    })
    .await;

    // Her day runs out: she hears she lost on time; Minh, connected, hears it in the game.
    let result = ended(&mut minh).await;
    assert_eq!(result.cause, EndCause::Time);
    let message = open(&next_push(&mut pushes, "ba").await, &ba_phone, &key);
    assert_eq!(
        message.title, "Bạn thua vì hết giờ",
        "not the challenge: {message:?}"
    );

    // The daily e-mail: the game Chi waits on, in Vietnamese, with its link; one a day.
    let mut got = Vec::new();
    for _ in 0..100 {
        got = smtp.received();
        if got.iter().any(|m| m.body.contains(&long)) {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let Mail { subject, body, .. } = got
        .iter()
        .find(|m| m.body.contains(&long))
        .unwrap_or_else(|| panic!("no digest listing {long}: {got:?}"));
    assert!(
        subject.ends_with("đang chờ bạn đi"),
        "in Vietnamese: {subject}"
    );
    assert!(
        body.contains("Chi") && body.contains(&format!("https://play.example/?room={long}")),
        "{body}"
    );
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(smtp.received().len(), got.len(), "not again within the day");

    // Back: the device the push service called gone is forgotten.
    let mut ba = Client::connect_as(&url, "Bà", Some(&ba_token)).await;
    let (_, _, devices) = ba.notifications_after(ClientMessage::Notifications).await;
    assert_eq!(devices, 1);
    // Minh was connected all along: nothing was pushed to his phone.
    while let Ok(p) = pushes.try_recv() {
        assert_ne!(p.path, "minh", "Minh was connected");
    }
}

/// A device signed out takes its push subscription with it: a lost phone is not told of the
/// player's games any more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_device_signed_out_takes_its_push_subscription_with_it() {
    let (endpoint, _pushes) = push_service().await;
    let dir = TempDir::new("notify-revoke");
    let server = ServerProcess::sqlite(&dir, &["--push-loopback"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    an.send(&ClientMessage::LinkCode).await;
    let code = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::LinkCode { code, .. }) => Some(code.clone()),
            _ => None,
        })
        .await;
    let mut phone = Client::connect(&url, "An's phone").await;
    phone.send(&ClientMessage::Link { code }).await;
    phone
        .until(|m| matches!(m, ServerMessage::Notice(Notice::Welcome { .. })).then_some(()))
        .await;
    let home = device(format!("{endpoint}/home"), 21, Lang::En);
    let lost = device(format!("{endpoint}/lost"), 23, Lang::En);
    an.notifications_after(ClientMessage::PushSubscribe {
        subscription: home.subscription.clone(),
    })
    .await;
    let (_, _, devices) = phone
        .notifications_after(ClientMessage::PushSubscribe {
            subscription: lost.subscription.clone(),
        })
        .await;
    assert_eq!(devices, 2);
    an.send(&ClientMessage::Devices).await;
    let phone_device = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Devices { devices }) => {
                devices.iter().find(|d| !d.this).map(|d| d.id.clone())
            }
            _ => None,
        })
        .await;
    an.send(&ClientMessage::RevokeDevice { id: phone_device })
        .await;
    an.until(|m| matches!(m, ServerMessage::Notice(Notice::Devices { .. })).then_some(()))
        .await;
    let (_, _, devices) = an.notifications_after(ClientMessage::Notifications).await;
    assert_eq!(devices, 1, "the lost phone's subscription went with it");
}

/// A tournament's game by days begins while a player is away: her phone hears it, in her
/// language, with the way to the game; the player who is connected is told in the game only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tournament_game_reaches_a_player_away_by_push() {
    let (endpoint, mut pushes) = push_service().await;
    let dir = TempDir::new("notify-tournament");
    let server = ServerProcess::sqlite(&dir, &["--push-loopback", "--tournament-tick-secs", "0.1"]);
    let url = server.url();
    let mut an = Client::connect(&url, "An").await;
    let mut binh = Client::connect(&url, "Bình").await;
    let mut chi = Client::connect(&url, "Chi").await;
    let (_, key, _) = chi.notifications_after(ClientMessage::Notifications).await;
    let chi_phone = device(format!("{endpoint}/chi"), 13, Lang::Vi);
    chi.notifications_after(ClientMessage::PushSubscribe {
        subscription: chi_phone.subscription.clone(),
    })
    .await;
    let binh_phone = device(format!("{endpoint}/binh"), 17, Lang::En);
    binh.notifications_after(ClientMessage::PushSubscribe {
        subscription: binh_phone.subscription.clone(),
    })
    .await;
    an.send(&ClientMessage::CreateTournament {
        name: "Nhà mình".into(),
        rules: oaq_net::protocol::RulesChoice::Preset("standard".into()),
        clock: ClockSpec::Correspondence { days: 3 },
        format: oaq_net::tournament::Format::RoundRobin { twice: false },
        public: false,
        starts_ms: None,
        start_when: None,
        password: None,
        unrated: false,
        no_chat: false,
        bots: false,
    })
    .await;
    let id = an
        .until(|m| match m {
            ServerMessage::Notice(Notice::Tournament { view }) => Some(view.line.id.clone()),
            _ => None,
        })
        .await;
    for c in [&mut binh, &mut chi] {
        c.send(&ClientMessage::JoinTournament {
            id: id.clone(),
            password: None,
        })
        .await;
        c.until(|m| matches!(m, ServerMessage::Notice(Notice::Tournament { .. })).then_some(()))
            .await;
    }
    // Chi goes; the round robin starts: its first round is Bình against Chi (An rests).
    chi.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    an.send(&ClientMessage::StartTournament { id }).await;
    let room = binh
        .until(|m| match m {
            ServerMessage::Notice(Notice::Paired { room }) => Some(room.clone()),
            _ => None,
        })
        .await;
    let message = open(&next_push(&mut pushes, "chi").await, &chi_phone, &key);
    assert_eq!(message.title, "Ván đấu giải của bạn");
    assert!(
        message.body.contains("Nhà mình") && message.body.contains("Bình"),
        "{message:?}"
    );
    assert_eq!(
        (message.tag.as_str(), message.url.as_str()),
        (room.as_str(), &*format!("/?room={room}"))
    );
    // Bình was connected: nothing was pushed to his phone.
    tokio::time::sleep(Duration::from_millis(300)).await;
    while let Ok(p) = pushes.try_recv() {
        assert_ne!(p.path, "binh", "Bình was connected");
    }
}

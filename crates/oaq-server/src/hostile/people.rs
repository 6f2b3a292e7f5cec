//! The attacks of a hostile stranger on the people features (`docs/security.md`), each run
//! against a live server in a parallel burst from addresses of its own, each reporting whether
//! the server's promise held: a private room's code read from a public page, room codes
//! guessed over HTTP, wrong passwords sent at once, the owner locked out, sign-in names
//! listed, password hashing flooded, vacations flooding a game's log, mail to anyone's
//! address, a block walked around, a rematch forced.

use std::net::{Ipv4Addr, SocketAddr};
use std::time::Duration;

use futures_util::future::join_all;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use super::{Ws, connect};
use oaq_net::protocol::{
    ClientMessage, ClockSpec, ErrorCode, First, Notice, PROTOCOL, RoomEvent, RulesChoice,
    ServerMessage, parse_server,
};

/// How one attack went.
#[derive(Clone, Debug)]
pub struct Attack {
    pub name: &'static str,
    /// Whether the server's promise held.
    pub held: bool,
    pub detail: String,
}

/// How long any one answer is waited for.
const PATIENCE: Duration = Duration::from_secs(10);

/// A connection speaking the protocol, for the attacks.
struct Peer {
    ws: Ws,
    id: String,
}

/// Why an attack could not be run (the server answered outside the script).
type Failed = String;

impl Peer {
    /// A new player from loopback address `from` (`child`: in child mode).
    async fn new(url: &str, from: Ipv4Addr, child: bool) -> Result<Peer, Failed> {
        let ws = connect(url, Some(from)).await?;
        let mut peer = Peer {
            ws,
            id: String::new(),
        };
        let hello = ClientMessage::Hello {
            protocol: PROTOCOL,
            name: "Lạ".into(),
            token: None,
            device: None,
            child,
            batches: false,
            then: 0,
        };
        peer.id = peer
            .ask(&hello, |m| match m {
                ServerMessage::Notice(Notice::Welcome { player, .. }) => Some(player.id.clone()),
                _ => None,
            })
            .await?
            .map_err(|code| format!("hello refused: {code}"))?;
        Ok(peer)
    }

    async fn send(&mut self, msg: &ClientMessage) -> Result<(), Failed> {
        let text = serde_json::to_string(msg).map_err(|e| e.to_string())?;
        self.ws
            .send(Message::text(text))
            .await
            .map_err(|e| e.to_string())
    }

    /// Messages until `want` picks one, or an error comes (its code).
    async fn until<T>(
        &mut self,
        mut want: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<Result<T, ErrorCode>, Failed> {
        loop {
            let frame = tokio::time::timeout(PATIENCE, self.ws.next())
                .await
                .map_err(|_| "no answer".to_owned())?
                .ok_or("closed")?
                .map_err(|e| e.to_string())?;
            let Message::Text(text) = frame else { continue };
            let msg = parse_server(&text).map_err(|e| format!("outside the protocol: {e}"))?;
            if let ServerMessage::Notice(Notice::Error { code, .. }) = msg {
                return Ok(Err(code));
            }
            if let Some(t) = want(&msg) {
                return Ok(Ok(t));
            }
        }
    }

    /// Send `msg`; what `want` picks of the answers, or the refusal's code.
    async fn ask<T>(
        &mut self,
        msg: &ClientMessage,
        want: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> Result<Result<T, ErrorCode>, Failed> {
        self.send(msg).await?;
        self.until(want).await
    }

    async fn create(&mut self, public: bool, clock: ClockSpec) -> Result<String, Failed> {
        let msg = ClientMessage::Create {
            rules: RulesChoice::Preset("basic".into()),
            clock,
            first: First::Me,
            public,
        };
        let code = self
            .ask(&msg, |m| match m {
                ServerMessage::Notice(Notice::Created { code }) => Some(code.clone()),
                _ => None,
            })
            .await?
            .map_err(|code| format!("create refused: {code}"))?;
        self.until(|m| matches!(m, ServerMessage::Notice(Notice::Seat { .. })).then_some(()))
            .await?
            .map_err(|code| format!("seat refused: {code}"))?;
        Ok(code)
    }

    async fn join(&mut self, code: &str) -> Result<Result<(), ErrorCode>, Failed> {
        let msg = ClientMessage::Join {
            code: code.into(),
            since: None,
        };
        self.ask(&msg, |m| match m {
            ServerMessage::Notice(Notice::Seat { seat: Some(_), .. }) => Some(()),
            _ => None,
        })
        .await
    }
}

/// A new player from `from` who sets a sign-in name and password: the player and the name.
async fn owner(url: &str, from: Ipv4Addr, password: &str) -> Result<(Peer, String), Failed> {
    let mut owner = Peer::new(url, from, false).await?;
    let login = format!("o{}", &owner.id[..8]);
    let set = ClientMessage::SetLogin {
        login: login.clone(),
        password: password.into(),
        current: None,
    };
    owner
        .ask(&set, |m| {
            matches!(m, ServerMessage::Notice(Notice::Profile { .. })).then_some(())
        })
        .await?
        .map_err(|code| format!("set_login refused: {code}"))?;
    Ok((owner, login))
}

/// A plain HTTP request from loopback address `from`: its status and body.
async fn http(
    server: SocketAddr,
    from: Ipv4Addr,
    method: &str,
    path: &str,
) -> Result<(u16, String), Failed> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let socket = tokio::net::TcpSocket::new_v4().map_err(|e| e.to_string())?;
    socket.bind((from, 0).into()).map_err(|e| e.to_string())?;
    let mut stream = socket.connect(server).await.map_err(|e| e.to_string())?;
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {server}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream
        .write_all(request.as_bytes())
        .await
        .map_err(|e| e.to_string())?;
    let mut response = Vec::new();
    tokio::time::timeout(PATIENCE, stream.read_to_end(&mut response))
        .await
        .map_err(|_| "no answer".to_owned())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&response).into_owned();
    let status = text
        .get(9..12)
        .and_then(|s| s.parse().ok())
        .ok_or("not HTTP")?;
    let body = text
        .split_once("\r\n\r\n")
        .map_or("", |(_, b)| b)
        .to_owned();
    Ok((status, body))
}

/// Addresses for the attacks: 127.0.200+n.x, apart from the frame run's.
fn address(attack: u8, i: u8) -> Ipv4Addr {
    Ipv4Addr::new(127, 0, 200 + attack, 1 + i)
}

fn outcome(name: &'static str, result: Result<(bool, String), Failed>) -> Attack {
    match result {
        Ok((held, detail)) => Attack { name, held, detail },
        Err(why) => Attack {
            name,
            held: false,
            detail: format!("the attack could not run: {why}"),
        },
    }
}

/// A child's private room, looked for on their public page and joined.
async fn private_room(url: &str, server: SocketAddr) -> Result<(bool, String), Failed> {
    let mut kid = Peer::new(url, address(0, 0), true).await?;
    let code = kid.create(false, ClockSpec::UNTIMED).await?;
    let (_, page) = http(
        server,
        address(0, 1),
        "GET",
        &format!("/players/{}", kid.id),
    )
    .await?;
    let mut stranger = Peer::new(url, address(0, 2), false).await?;
    let found = page.contains(&code);
    let joined = found && stranger.join(&code).await?.is_ok();
    Ok((!found && !joined, format!("code on the page: {found}")))
}

/// Unknown room codes over HTTP from one address.
async fn guess_codes(server: SocketAddr) -> Result<(bool, String), Failed> {
    let mut statuses = Vec::new();
    for i in 0..60u32 {
        let code: String = (0..6)
            .map(|k| oaq_net::protocol::CODE_ALPHABET[((i * 7 + k * 13) % 31) as usize] as char)
            .collect();
        statuses.push(
            http(server, address(1, 0), "GET", &format!("/games/{code}"))
                .await?
                .0,
        );
    }
    let refused = statuses.iter().filter(|&&s| s == 429).count();
    let found = statuses.iter().filter(|&&s| s == 200 || s == 409).count();
    Ok((
        refused > 0 && found == 0,
        format!("{refused} of 60 refused, {found} told apart"),
    ))
}

/// Wrong passwords for one name at once from 30 addresses, then the owner at home.
async fn password_race(url: &str) -> Result<(bool, String), Failed> {
    let (_owner, login) = owner(url, address(2, 0), "the owner's password").await?;
    let guesses = (1..=30).map(|i| {
        let login = login.clone();
        async move {
            let mut p = Peer::new(url, address(3, i), false).await?;
            let msg = ClientMessage::SignIn {
                login,
                password: "a wrong guess".into(),
            };
            p.ask(&msg, |_| None::<()>).await
        }
    });
    let answers = join_all(guesses).await;
    let checked = answers
        .iter()
        .filter(|a| matches!(a, Ok(Err(ErrorCode::BadCredentials))))
        .count();
    let mut home = Peer::new(url, address(2, 0), false).await?;
    let msg = ClientMessage::SignIn {
        login,
        password: "the owner's password".into(),
    };
    let owner_in = home
        .ask(&msg, |m| {
            matches!(m, ServerMessage::Notice(Notice::Welcome { .. })).then_some(())
        })
        .await?
        .is_ok();
    Ok((
        checked <= 10 && owner_in,
        format!("{checked} of 30 checked at once; the owner signed in: {owner_in}"),
    ))
}

/// One connection asking whether names are taken, again and again.
async fn list_names(url: &str) -> Result<(bool, String), Failed> {
    let (_owner, login) = owner(url, address(4, 0), "a password here").await?;
    let mut prober = Peer::new(url, address(4, 1), false).await?;
    let mut told = 0;
    for _ in 0..20 {
        let msg = ClientMessage::SetLogin {
            login: login.clone(),
            password: "probing names".into(),
            current: None,
        };
        if prober.ask(&msg, |_| None::<()>).await? == Err(ErrorCode::NotAllowed) {
            told += 1;
        }
    }
    Ok((told < 20, format!("told 'taken' {told} times of 20")))
}

/// Players from one address setting a password again and again at once (a taken name: each
/// try costs a hash before it is told).
async fn hash_flood(url: &str) -> Result<(bool, String), Failed> {
    let (_owner, login) = owner(url, address(5, 1), "a password here").await?;
    let tries = (0..10u8).map(|_| {
        let login = login.clone();
        async move {
            let mut p = Peer::new(url, address(5, 0), false).await?;
            let mut answers = Vec::new();
            for _ in 0..4 {
                let msg = ClientMessage::SetLogin {
                    login: login.clone(),
                    password: "hashing costs".into(),
                    current: None,
                };
                answers.push(p.ask(&msg, |_| None::<()>).await?);
            }
            Ok::<_, Failed>(answers)
        }
    });
    let answers: Vec<_> = join_all(tries)
        .await
        .into_iter()
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    let held = answers
        .iter()
        .filter(|a| **a == Err(ErrorCode::RateLimited))
        .count();
    Ok((
        held > 0,
        format!("{} tries, {held} held back", answers.len()),
    ))
}

/// Vacations on and off, fast, in a game by days.
async fn vacation_flood(url: &str) -> Result<(bool, String), Failed> {
    let mut a = Peer::new(url, address(6, 0), false).await?;
    let mut b = Peer::new(url, address(6, 1), false).await?;
    let code = a
        .create(false, ClockSpec::Correspondence { days: 14 })
        .await?;
    b.join(&code)
        .await?
        .map_err(|code| format!("join refused: {code}"))?;
    let mut paused = 0;
    let mut refused = 0;
    for days in [1u8, 0].repeat(25) {
        match a
            .ask(&ClientMessage::Vacation { days }, |m| {
                matches!(m, ServerMessage::Notice(Notice::MyGames { .. })).then_some(())
            })
            .await?
        {
            Ok(()) if days > 0 => paused += 1,
            Ok(()) => {}
            Err(_) => refused += 1,
        }
    }
    Ok((
        paused <= 1,
        format!("{paused} vacations began of 25 asked, {refused} refusals"),
    ))
}

/// A stranger's address for the daily e-mail.
async fn mail_anyone(url: &str) -> Result<(bool, String), Failed> {
    let mut p = Peer::new(url, address(7, 0), false).await?;
    let msg = ClientMessage::SetNotifications {
        settings: oaq_net::notify::NotifySettings {
            email: "victim@example.org".into(),
            digest: true,
            ..Default::default()
        },
    };
    let confirmed = p
        .ask(&msg, |m| match m {
            ServerMessage::Notice(Notice::Notifications { settings, .. }) => {
                Some(settings.confirmed)
            }
            _ => None,
        })
        .await?;
    Ok((
        confirmed != Ok(true),
        format!("answered {confirmed:?}: confirmed before its owner said so would be a fault"),
    ))
}

/// A blocked player looks for the blocker's room, takes a seat, forces a rematch.
async fn walk_around_a_block(url: &str) -> Result<(bool, String), Failed> {
    let mut a = Peer::new(url, address(8, 0), false).await?;
    let mut b = Peer::new(url, address(8, 1), false).await?;
    let old = a.create(false, ClockSpec::UNTIMED).await?;
    b.join(&old)
        .await?
        .map_err(|c| format!("join refused: {c}"))?;
    a.ask(&ClientMessage::Resign, |m| match m {
        ServerMessage::Room(e) => matches!(e.event, RoomEvent::Ended { .. }).then_some(()),
        _ => None,
    })
    .await?
    .map_err(|c| format!("resign refused: {c}"))?;
    // One alone asks for a rematch: no room opens without the other's yes.
    let forced = b
        .ask(&ClientMessage::Rematch, |m| match m {
            ServerMessage::Room(e) => match &e.event {
                RoomEvent::Rematch { .. } => Some(true),
                RoomEvent::RematchOffered { .. } => Some(false),
                _ => None,
            },
            _ => None,
        })
        .await?
        == Ok(true);
    let block = ClientMessage::Block {
        player: b.id.clone(),
    };
    a.ask(&block, |m| {
        matches!(m, ServerMessage::Notice(Notice::Relations { .. })).then_some(())
    })
    .await?
    .map_err(|c| format!("block refused: {c}"))?;
    let rematch = a.ask(&ClientMessage::Rematch, |_| None::<()>).await?;
    let public = a.create(true, ClockSpec::UNTIMED).await?;
    let seen = b
        .ask(&ClientMessage::Lobby, |m| match m {
            ServerMessage::Notice(Notice::Lobby { rooms, .. }) => {
                Some(rooms.iter().any(|r| r.code == public))
            }
            _ => None,
        })
        .await?
        == Ok(true);
    let sat = b.join(&public).await?.is_ok();
    Ok((
        !forced && rematch.is_err() && !seen && !sat,
        format!(
            "rematch forced: {forced}; after the block: rematch {rematch:?}, room seen {seen}, seat taken {sat}"
        ),
    ))
}

/// Every attack at once, each from addresses of its own.
pub async fn run(url: &str) -> Vec<Attack> {
    let server: Option<SocketAddr> = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .and_then(|h| h.parse().ok());
    let Some(server) = server else {
        return vec![outcome(
            "connect",
            Err(format!("{url}: give ws://IP:PORT/ws")),
        )];
    };
    let (a, b, c, d, e, f, g, h) = tokio::join!(
        private_room(url, server),
        guess_codes(server),
        password_race(url),
        list_names(url),
        hash_flood(url),
        vacation_flood(url),
        mail_anyone(url),
        walk_around_a_block(url),
    );
    vec![
        outcome("a private room's code from a public page", a),
        outcome("room codes guessed over HTTP", b),
        outcome("wrong passwords at once, then the owner at home", c),
        outcome("sign-in names listed", d),
        outcome("password hashing flooded from one address", e),
        outcome("vacations flooding a game's log", f),
        outcome("the daily e-mail to anyone's address", g),
        outcome("a block walked around, a rematch forced", h),
    ]
}

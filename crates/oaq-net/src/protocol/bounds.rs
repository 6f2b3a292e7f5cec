//! Every number and text a client sends, checked against its bounds where it is read, naming
//! the field that is out of them.

use super::{
    ClientMessage, MAX_SEQ, MAX_THEN, MAX_THINK_MS, MAX_TOKEN, MAX_TRAINING_PUT, MAX_TRAINING_SEQ,
};

/// A password's length, in bytes, outside its bounds.
fn password_bounds(password: &str) -> Option<String> {
    let (least, most) = crate::social::PASSWORD_LEN;
    (!(least..=most).contains(&password.len())).then(|| {
        format!(
            "password: {} bytes, it takes {least} to {most}",
            password.len()
        )
    })
}

/// Training records sent to keep: at most [`MAX_TRAINING_PUT`], each one a device of the
/// game could have made, none longer than its bound.
fn training_bounds(records: &[oaq_session::TrainingRecord]) -> Option<String> {
    use oaq_session::training::MAX_RECORD_BYTES;
    if records.len() > MAX_TRAINING_PUT {
        return Some(format!(
            "records: {}, at most {MAX_TRAINING_PUT} at once",
            records.len()
        ));
    }
    records.iter().enumerate().find_map(|(n, record)| {
        let bytes = serde_json::to_string(record).map_or(usize::MAX, |json| json.len());
        if bytes > MAX_RECORD_BYTES {
            return Some(format!(
                "records[{n}]: {bytes} bytes, at most {MAX_RECORD_BYTES}"
            ));
        }
        record.check().err().map(|e| format!("records[{n}]: {e}"))
    })
}

impl ClientMessage {
    /// Refuses a number or text outside its bounds, naming the field: every number from the
    /// network is bounded here, where it is read, before anything does arithmetic with it.
    pub fn check_bounds(&self) -> Result<(), String> {
        let too_long = |field: &str, text: &str| {
            (text.len() > MAX_TOKEN)
                .then(|| format!("{field}: {} bytes, at most {MAX_TOKEN}", text.len()))
        };
        let problem = match self {
            ClientMessage::Hello {
                token,
                device,
                then,
                ..
            } => token
                .as_deref()
                .and_then(|t| too_long("token", t))
                .or_else(|| device.as_deref().and_then(|d| too_long("device", d)))
                .or_else(|| {
                    (*then > MAX_THEN).then(|| format!("then: {then}, at most {MAX_THEN}"))
                }),
            ClientMessage::Link { code } | ClientMessage::Recover { code } => {
                too_long("code", code)
            }
            ClientMessage::AddFriend { code } | ClientMessage::WhoseCode { code, .. } => {
                too_long("code", code)
            }
            ClientMessage::RecoveryCode {
                current: Some(current),
            }
            | ClientMessage::SetChild {
                current: Some(current),
                ..
            } => too_long("current", current),
            ClientMessage::SetLogin {
                login,
                password,
                current,
            } => too_long("login", login)
                .or_else(|| current.as_deref().and_then(|c| too_long("current", c)))
                .or_else(|| password_bounds(password)),
            ClientMessage::SignIn { login, password } => {
                too_long("login", login).or_else(|| password_bounds(password))
            }
            ClientMessage::RevokeDevice { id }
            | ClientMessage::AnswerChallenge { id, .. }
            | ClientMessage::CancelChallenge { id } => too_long("id", id),
            ClientMessage::Profile { player } => {
                player.as_deref().and_then(|p| too_long("player", p))
            }
            ClientMessage::AddOpponent { player }
            | ClientMessage::AnswerFriend { player, .. }
            | ClientMessage::RemoveFriend { player }
            | ClientMessage::Block { player }
            | ClientMessage::Unblock { player } => too_long("player", player),
            ClientMessage::Challenge { player, clock, .. } => {
                too_long("player", player).or_else(|| clock.validate().err())
            }
            ClientMessage::Report { player, room, .. } => too_long("player", player)
                .or_else(|| room.as_deref().and_then(|r| too_long("room", r))),
            ClientMessage::Join { code, since } | ClientMessage::Watch { code, since } => {
                too_long("code", code).or_else(|| {
                    since
                        .filter(|&s| s > MAX_SEQ)
                        .map(|s| format!("since: {s} is beyond any room's log (at most {MAX_SEQ})"))
                })
            }
            ClientMessage::Move { mv, think_ms, .. } => too_long("move", mv).or_else(|| {
                think_ms
                    .filter(|&t| t > MAX_THINK_MS)
                    .map(|t| format!("think_ms: {t} is outside 0..={MAX_THINK_MS}"))
            }),
            ClientMessage::Create { clock, .. } | ClientMessage::PlayBot { clock, .. } => {
                clock.validate().err()
            }
            ClientMessage::SetNotifications { settings } => {
                (settings.email.len() > crate::notify::MAX_EMAIL).then(|| {
                    format!(
                        "email: {} bytes, at most {}",
                        settings.email.len(),
                        crate::notify::MAX_EMAIL
                    )
                })
            }
            ClientMessage::PushSubscribe { subscription: s } => {
                let max = crate::notify::MAX_ENDPOINT;
                if s.endpoint.len() > max {
                    Some(format!(
                        "endpoint: {} bytes, at most {max}",
                        s.endpoint.len()
                    ))
                } else {
                    too_long("p256dh", &s.p256dh).or_else(|| too_long("auth", &s.auth))
                }
            }
            ClientMessage::PushUnsubscribe { endpoint } => (endpoint.len()
                > crate::notify::MAX_ENDPOINT)
                .then(|| format!("endpoint: {} bytes, too long", endpoint.len())),
            ClientMessage::Pool { rules, clock } => {
                if !crate::pool::POOL_RULES.contains(&rules.as_str()) {
                    Some(format!(
                        "rules: {} has no pool; pools: {:?}",
                        oaq_rules::excerpt::quoted(rules),
                        crate::pool::POOL_RULES
                    ))
                } else if !crate::pool::POOLS.contains(clock) {
                    Some(format!("clock: {} has no pool", clock.label()))
                } else {
                    None
                }
            }
            ClientMessage::Vacation { days } => (*days > crate::correspondence::MAX_VACATION_DAYS)
                .then(|| {
                    format!(
                        "days: {days} is outside 0..={}",
                        crate::correspondence::MAX_VACATION_DAYS
                    )
                }),
            ClientMessage::KeepTraining { records } => training_bounds(records),
            ClientMessage::Training { since } => (*since > MAX_TRAINING_SEQ)
                .then(|| format!("since: {since}, at most {MAX_TRAINING_SEQ}")),
            #[cfg(feature = "tournaments")]
            other => tournament_bounds(other),
            #[cfg(not(feature = "tournaments"))]
            _ => None,
        };
        problem.map_or(Ok(()), Err)
    }
}

/// What is wrong with a tournament message's numbers and texts, if anything.
#[cfg(feature = "tournaments")]
fn tournament_bounds(msg: &ClientMessage) -> Option<String> {
    match msg {
        ClientMessage::CreateTournament {
            name,
            clock,
            starts_ms,
            password,
            ..
        } => {
            let chars = name.chars().count();
            let max = crate::tournament::MAX_TOURNAMENT_NAME;
            let secret = password.as_ref().map_or(0, |p| p.chars().count());
            let most = crate::tournament::MAX_TOURNAMENT_PASSWORD;
            if chars > max {
                Some(format!("name: {chars} characters, at most {max}"))
            } else if secret > most {
                Some(format!("password: {secret} characters, at most {most}"))
            } else if starts_ms.is_some_and(|s| !(0..=MAX_STARTS_MS).contains(&s)) {
                Some(format!("starts_ms: outside 0..={MAX_STARTS_MS}"))
            } else {
                clock.validate().err()
            }
        }
        ClientMessage::JoinTournament {
            password: Some(p), ..
        } if p.chars().count() > crate::tournament::MAX_TOURNAMENT_PASSWORD => Some(format!(
            "password: {} characters, at most {}",
            p.chars().count(),
            crate::tournament::MAX_TOURNAMENT_PASSWORD
        )),
        ClientMessage::InviteToTournament { id, player } => [("id", id), ("player", player)]
            .into_iter()
            .find(|(_, text)| text.len() > MAX_TOKEN)
            .map(|(what, text)| format!("{what}: {} bytes, at most {MAX_TOKEN}", text.len())),
        ClientMessage::Tournament { id }
        | ClientMessage::JoinTournament { id, .. }
        | ClientMessage::LeaveTournament { id }
        | ClientMessage::PauseTournament { id, .. }
        | ClientMessage::StartTournament { id } => {
            (id.len() > MAX_TOKEN).then(|| format!("id: {} bytes, at most {MAX_TOKEN}", id.len()))
        }
        ClientMessage::KeepApart { id, players, .. } => {
            let texts = [
                ("id", id),
                ("players", &players[0]),
                ("players", &players[1]),
            ];
            texts
                .into_iter()
                .find(|(_, text)| text.len() > MAX_TOKEN)
                .map(|(what, text)| format!("{what}: {} bytes, at most {MAX_TOKEN}", text.len()))
        }
        _ => None,
    }
}

/// The latest start a tournament may be given: the year 2100, in ms since 1970.
#[cfg(feature = "tournaments")]
pub const MAX_STARTS_MS: i64 = 4_102_444_800_000;

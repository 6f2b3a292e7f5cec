//! The messages of online play: JSON text frames between the game and `oaq-server`. Plain serde
//! types with no runtime in them, so the game (native and in the browser), the server and the
//! tests share one definition.
//!
//! Every frame is one object with a `"type"` (or, to a client whose hello says it reads batches,
//! an array of them). What a room sends also carries `"seq"`, its place in the room's log: a
//! client that comes back sends the last one it saw and gets what it missed.
//!
//! ```
//! use oaq_net::protocol::{ClientMessage, PROTOCOL};
//! let hello: ClientMessage =
//!     serde_json::from_str(r#"{"type":"hello","protocol":1,"name":"Lan"}"#).unwrap();
//! assert_eq!(
//!     hello,
//!     ClientMessage::Hello {
//!         protocol: PROTOCOL,
//!         name: "Lan".into(),
//!         token: None,
//!         device: None,
//!         child: false,
//!         batches: false,
//!         then: 0,
//!     }
//! );
//! ```
//!
#![doc = include_str!("../../../../docs/protocol.md")]

mod bounds;
mod carried;
mod client;
mod server;

pub use carried::{EndCause, GameResult, RatingChange, RoomSummary, RulesChoice};
pub use client::ClientMessage;
pub use server::{ErrorCode, Notice, RoomEvent, Sequenced, ServerMessage};

pub use crate::types::{
    BASE_MS, CODE_ALPHABET, CODE_LEN, CORRESPONDENCE_DAYS, ClockSpec, First, INCREMENT_MS,
    PlayerInfo, Untimed, is_room_code,
};
#[cfg(feature = "tournaments")]
pub use bounds::MAX_STARTS_MS;

/// The protocol's version: `hello` names it and the server refuses one it does not speak.
pub const PROTOCOL: u32 = 1;

/// The largest frame either side accepts, in bytes.
pub const MAX_FRAME: usize = 16 * 1024;

/// The largest frame the server sends and clients accept, in bytes: a snapshot of a long game
/// is the largest message; a batch of several stays within it too.
pub const MAX_SERVER_FRAME: usize = 4 * MAX_FRAME;

/// The longest name a player may take, in characters.
pub use oaq_session::MAX_NAME;

/// The largest `since` a client may send: no room's log is longer than this.
pub const MAX_SEQ: u64 = 1 << 32;

/// The longest think time a client may report (30 days, beyond any clock's base).
pub const MAX_THINK_MS: u64 = 30 * 24 * 60 * 60 * 1000;

/// The most frames a hello may say follow it (`then`), and how long the server holds the
/// welcome for them.
pub const MAX_THEN: u8 = 4;
pub const HELLO_WAITS_MS: u64 = 1000;

/// The longest token or room code a client may send, in bytes.
pub const MAX_TOKEN: usize = 128;
/// Training records one `keep_training` may carry, and the largest `since` a client may ask
/// from (a player's records are numbered one by one as they are written).
pub const MAX_TRAINING_PUT: usize = 64;
pub const MAX_TRAINING_SEQ: u64 = 1 << 53;

/// Read a client frame, or say what is wrong with it.
pub fn parse_client(text: &str) -> Result<ClientMessage, (ErrorCode, String)> {
    if text.len() > MAX_FRAME {
        return Err((
            ErrorCode::TooLarge,
            format!("{} bytes; a frame holds at most {MAX_FRAME}", text.len()),
        ));
    }
    let msg: ClientMessage = serde_json::from_str(text).map_err(|e| {
        let named = match field_of(text, &e.to_string()) {
            Some(field) => format!("{field}: "),
            None => String::new(),
        };
        (
            ErrorCode::BadMessage,
            format!("{named}not a message of the protocol: {e}"),
        )
    })?;
    msg.check_bounds().map_err(|e| (ErrorCode::BadMessage, e))?;
    Ok(msg)
}

/// The field whose value does not fit its type (a number out of its type's range, a word for
/// a number): serde loses the path inside a message tagged by its `type`, and a refusal should
/// say which field is wrong. It is the field whose absence changes the error (serde stops at
/// the first value that does not fit, and says a field is missing only after all the others).
/// A message of more than 16 fields is none of ours: no field is named.
fn field_of(text: &str, said: &str) -> Option<String> {
    if !(said.starts_with("invalid value") || said.starts_with("invalid type")) {
        return None;
    }
    let serde_json::Value::Object(fields) = serde_json::from_str(text).ok()? else {
        return None;
    };
    if fields.len() > 16 {
        return None;
    }
    fields
        .keys()
        .filter(|k| *k != "type")
        .find(|k| {
            let mut without = fields.clone();
            without.remove(*k);
            serde_json::from_value::<ClientMessage>(serde_json::Value::Object(without))
                .map_or_else(|e| e.to_string() != said, |_| true)
        })
        .cloned()
}

/// Read a server frame (for clients).
pub fn parse_server(text: &str) -> Result<ServerMessage, String> {
    serde_json::from_str(text).map_err(|e| format!("not a message of the protocol: {e}"))
}

/// Read a server frame that may be a batch (for clients whose hello said `batches`): its
/// messages in order, one for a frame of one.
///
/// ```
/// use oaq_net::protocol::{Notice, ServerMessage, parse_server_frame};
/// let pong = |id| format!(r#"{{"type":"pong","id":{id},"at_ms":5}}"#);
/// let one = parse_server_frame(&pong(1)).unwrap();
/// let two = parse_server_frame(&format!("[{},{}]", pong(1), pong(2))).unwrap();
/// assert_eq!(one.len(), 1);
/// assert!(matches!(two[..], [_, ServerMessage::Notice(Notice::Pong { id: 2, .. })]));
/// ```
pub fn parse_server_frame(text: &str) -> Result<Vec<ServerMessage>, String> {
    if text.trim_start().starts_with('[') {
        serde_json::from_str(text).map_err(|e| format!("not a batch of the protocol: {e}"))
    } else {
        parse_server(text).map(|msg| vec![msg])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use oaq_rules::{RuleSet, presets};

    #[test]
    fn a_number_that_does_not_fit_names_its_field() {
        let too_big = r#"{"type":"move","ply":1099511627776,"move":"1+"}"#;
        let (code, why) = parse_client(too_big).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(why.starts_with("ply: "), "{why}");
        let negative = r#"{"type":"vacation","days":-1}"#;
        assert!(parse_client(negative).unwrap_err().1.starts_with("days: "));
        let a_word = r#"{"type":"ping","id":"seven"}"#;
        assert!(parse_client(a_word).unwrap_err().1.starts_with("id: "));
        // A message that is not one names no field.
        let unknown = r#"{"type":"fly"}"#;
        assert!(
            parse_client(unknown)
                .unwrap_err()
                .1
                .starts_with("not a message")
        );
    }

    #[test]
    fn messages_round_trip_as_documented() {
        let create = r#"{"type":"create","rules":"basic","clock":{"base_ms":180000,"increment_ms":2000},"first":"me","public":true}"#;
        let msg = parse_client(create).unwrap();
        assert_eq!(
            msg,
            ClientMessage::Create {
                rules: RulesChoice::Preset("basic".into()),
                clock: ClockSpec::Fischer {
                    base_ms: 180_000,
                    increment_ms: 2000
                },
                first: First::Me,
                public: true,
            }
        );
        assert_eq!(serde_json::to_string(&msg).unwrap(), create);
        let untimed = parse_client(r#"{"type":"create","rules":"standard","clock":"untimed"}"#);
        assert!(matches!(
            untimed,
            Ok(ClientMessage::Create {
                clock: ClockSpec::Untimed(_),
                first: First::Random,
                public: false,
                ..
            })
        ));
        let mv = parse_client(r#"{"type":"move","ply":3,"move":"swap"}"#).unwrap();
        assert_eq!(
            mv,
            ClientMessage::Move {
                ply: 3,
                mv: "swap".into(),
                think_ms: None
            }
        );
    }

    #[test]
    fn custom_rules_travel_whole() {
        let rules = presets::get("mature-quan").unwrap().rules;
        let msg = ClientMessage::Create {
            rules: RulesChoice::Custom(rules),
            clock: ClockSpec::UNTIMED,
            first: First::Random,
            public: false,
        };
        let text = serde_json::to_string(&msg).unwrap();
        assert_eq!(parse_client(&text).unwrap(), msg);
        let RulesChoice::Custom(back) = (match parse_client(&text).unwrap() {
            ClientMessage::Create { rules, .. } => rules,
            _ => unreachable!(),
        }) else {
            panic!("custom rules came back as a preset")
        };
        assert_eq!(resolve_players(&back), 2);
    }

    #[test]
    fn a_preset_with_a_winning_score_keeps_the_preset_name() {
        let mut rules = presets::get("mature-quan").unwrap().rules;
        rules.win_at = Some(rules.majority());
        let (preset, back) = RulesChoice::Custom(rules).resolve().unwrap();
        assert_eq!((preset.as_str(), back.win_at), ("mature-quan", Some(36)));
        rules.win_at = Some(20);
        let error = RulesChoice::Custom(rules).resolve().unwrap_err();
        assert!(error.starts_with("rules: win_at"), "{error}");
    }

    fn resolve_players(rules: &RuleSet) -> u8 {
        RulesChoice::Custom(*rules).resolve().unwrap().1.players
    }

    #[test]
    fn room_events_carry_their_sequence_number_beside_their_type() {
        let msg = ServerMessage::Room(Sequenced {
            code: "ABCDEF".into(),
            seq: 7,
            event: RoomEvent::DrawOffered { seat: 1 },
        });
        let text = msg.to_json();
        assert_eq!(
            text,
            r#"{"code":"ABCDEF","seq":7,"type":"draw_offered","seat":1}"#
        );
        assert_eq!(parse_server(&text).unwrap(), msg);
        let err = ServerMessage::error(ErrorCode::StalePly, "ply 3 was played");
        assert_eq!(parse_server(&err.to_json()).unwrap(), err);
        assert!(err.to_json().contains(r#""code":"stale_ply""#));
    }

    #[test]
    fn bad_frames_say_what_is_wrong() {
        let (code, message) = parse_client(r#"{"type":"fly"}"#).unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(message.contains("fly"), "{message}");
        let (code, _) = parse_client(&"x".repeat(MAX_FRAME + 1)).unwrap_err();
        assert_eq!(code, ErrorCode::TooLarge);
        let (code, _) = parse_client("\u{0}\u{1}").unwrap_err();
        assert_eq!(code, ErrorCode::BadMessage);
        assert!(
            RulesChoice::Preset("chess".into())
                .resolve()
                .unwrap_err()
                .contains("chess")
        );
    }

    #[test]
    fn numbers_out_of_bounds_are_refused_where_they_are_read() {
        let refused = |text: &str, field: &str| {
            let (code, message) = parse_client(text).unwrap_err();
            assert_eq!(code, ErrorCode::BadMessage, "{text}");
            assert!(message.starts_with(field), "{text}: {message}");
        };
        refused(
            r#"{"type":"move","ply":3,"move":"2+","think_ms":9223372036854775808}"#,
            "think_ms",
        );
        refused(
            r#"{"type":"join","code":"ABCDEF","since":18446744073709551615}"#,
            "since",
        );
        refused(
            r#"{"type":"watch","code":"ABCDEF","since":4294967297}"#,
            "since",
        );
        refused(
            r#"{"type":"create","rules":"basic","clock":{"base_ms":0,"increment_ms":0}}"#,
            "clock.base_ms",
        );
        let long = format!(
            r#"{{"type":"hello","protocol":1,"name":"a","token":"{}"}}"#,
            "t".repeat(200)
        );
        refused(&long, "token");
        assert!(parse_client(r#"{"type":"join","code":"ABCDEF","since":4294967296}"#).is_ok());
        assert!(
            parse_client(r#"{"type":"move","ply":3,"move":"2+","think_ms":2592000000}"#).is_ok()
        );
    }

    #[cfg(feature = "tournaments")]
    #[test]
    fn tournament_messages_are_read_as_documented_and_bounded() {
        let create = |name: &str, starts: &str| {
            format!(
                r#"{{"type":"create_tournament","name":"{name}","rules":"standard","clock":{{"base_ms":180000,"increment_ms":2000}},"format":{{"format":"arena","minutes":30,"streaks":true}},"public":false{starts}}}"#
            )
        };
        let parsed = parse_client(&create("Lớp 4A", r#","starts_ms":1796400000000"#)).unwrap();
        let ClientMessage::CreateTournament {
            format, starts_ms, ..
        } = parsed
        else {
            panic!("{parsed:?}");
        };
        let arena = crate::tournament::Format::Arena {
            minutes: 30,
            streaks: true,
        };
        assert_eq!((format, starts_ms), (arena, Some(1_796_400_000_000)));
        let refused = |text: &str, field: &str| {
            let (code, message) = parse_client(text).unwrap_err();
            assert_eq!(code, ErrorCode::BadMessage, "{text}");
            assert!(message.starts_with(field), "{text}: {message}");
        };
        refused(&create(&"n".repeat(41), ""), "name");
        refused(&create("A", r#","starts_ms":-5"#), "starts_ms");
        let long_id = format!(r#"{{"type":"join_tournament","id":"{}"}}"#, "x".repeat(129));
        refused(&long_id, "id");
        assert!(parse_client(&create(&"n".repeat(40), "")).is_ok());
    }

    #[test]
    fn time_controls_are_bounded() {
        let spec = |base_ms, increment_ms| ClockSpec::Fischer {
            base_ms,
            increment_ms,
        };
        assert!(spec(180_000, 2000).validate().is_ok());
        assert!(spec(0, 0).validate().unwrap_err().contains("base_ms"));
        assert!(
            spec(60_000, 61_000)
                .validate()
                .unwrap_err()
                .contains("increment_ms")
        );
        assert_eq!(spec(180_000, 2000).label(), "3+2");
        assert_eq!(ClockSpec::UNTIMED.label(), "untimed");
        assert_eq!(spec(30_000, 0).label(), "½+0");
        assert_eq!(spec(90_000, 1000).label(), "1.5+1");
    }

    #[test]
    fn room_codes_avoid_look_alikes() {
        assert!(is_room_code("K7Q2MX"));
        assert!(!is_room_code("K7Q2M0"));
        assert!(!is_room_code("k7q2mx"));
        assert!(!is_room_code("K7Q2M"));
        assert_eq!(ErrorCode::RoomFull.to_string(), "room_full");
    }
}

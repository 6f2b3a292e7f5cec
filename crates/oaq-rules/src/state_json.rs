//! The state JSON of the command-line tools: one object per position, written after every move
//! and read back by `--position` and the engine protocol.
//!
//! ```
//! use oaq_rules::{Position, RuleSet};
//! use oaq_rules::state_json;
//! let start = Position::new(RuleSet::default());
//! let line = state_json::to_line(&start);
//! assert!(line.starts_with(r#"{"ply":0,"to_move":0,"pits":[5,5,5,5,5,0,"#));
//! assert_eq!(state_json::parse(RuleSet::default(), &line).unwrap(), start);
//! ```

use std::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::excerpt;
use crate::{Position, PositionError, RuleSet, Setup, Store};

/// A position as the JSON object the tools print.
#[derive(Serialize)]
struct StateJson<'a> {
    ply: u32,
    to_move: usize,
    pits: &'a [u8],
    quan: Vec<bool>,
    stores: Vec<StoreJson<'a>>,
    scores: Vec<i32>,
    over: bool,
    forfeit: Option<usize>,
    swapped: bool,
}

#[derive(Serialize)]
struct StoreJson<'a> {
    stones: i16,
    mandarins: u8,
    owes: &'a [u16],
}

/// `pos` as one line of JSON.
pub fn to_line(pos: &Position) -> String {
    let players = pos.players();
    let state = StateJson {
        ply: pos.ply(),
        to_move: pos.to_move(),
        pits: pos.pits(),
        quan: (0..players).map(|p| pos.has_mandarin(p)).collect(),
        stores: (0..players)
            .map(|p| {
                let store = pos.store(p);
                StoreJson {
                    stones: store.stones,
                    mandarins: store.mandarins,
                    owes: &store.owes[..players],
                }
            })
            .collect(),
        scores: pos.scores()[..players].to_vec(),
        over: pos.is_over(),
        forfeit: pos.forfeit(),
        swapped: pos.swapped(),
    };
    serde_json::to_string(&state)
        .unwrap_or_else(|e| unreachable!("plain data always serialises: {e}"))
}

/// Why a state JSON text is not a position.
#[derive(Debug)]
pub enum StateError {
    /// Not JSON at all (serde_json's message says where).
    Syntax(String),
    /// A field is missing, of the wrong type, or out of range.
    Field { field: String, reason: String },
    /// The fields are well formed but do not make a position under the rules.
    Position(PositionError),
}

impl fmt::Display for StateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateError::Syntax(message) => write!(f, "position: not JSON: {message}"),
            StateError::Field { field, reason } => write!(f, "position: {field}: {reason}"),
            StateError::Position(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for StateError {}

fn field_error(field: impl Into<String>, reason: impl Into<String>) -> StateError {
    StateError::Field {
        field: field.into(),
        reason: reason.into(),
    }
}

const FIELDS: [&str; 9] = [
    "ply", "to_move", "pits", "quan", "stores", "scores", "over", "forfeit", "swapped",
];

/// Read a position from a state JSON object. Only `pits` is required; `scores`, when given, must
/// agree with the stores.
pub fn parse(rules: RuleSet, text: &str) -> Result<Position, StateError> {
    let value: Value = serde_json::from_str(text).map_err(|e| StateError::Syntax(e.to_string()))?;
    let Value::Object(object) = value else {
        return Err(StateError::Syntax("expected an object {...}".into()));
    };
    if let Some(unknown) = object.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(field_error(
            excerpt::plain(unknown),
            format!("unknown field; the fields are {}", FIELDS.join(", ")),
        ));
    }
    let start = Setup::start(&rules);
    let players = rules.player_count();
    let setup = Setup {
        ply: optional(&object, "ply", |v| uint(v, "ply", u32::MAX.into()))?.unwrap_or(0) as u32,
        to_move: optional(&object, "to_move", |v| uint(v, "to_move", 255))?.unwrap_or(0) as u8,
        pits: match object.get("pits") {
            Some(v) => array(v, "pits", |v, f| uint(v, f, 255).map(|n| n as u8))?,
            None => {
                return Err(field_error(
                    "pits",
                    "missing: give the small stones per ring index",
                ));
            }
        },
        quan: optional(&object, "quan", |v| array(v, "quan", boolean))?.unwrap_or(start.quan),
        stores: optional(&object, "stores", |v| {
            array(v, "stores", |v, f| parse_store(v, f, players))
        })?
        .unwrap_or(start.stores),
        over: optional(&object, "over", |v| boolean(v, "over"))?.unwrap_or(false),
        forfeit: match object.get("forfeit") {
            None | Some(Value::Null) => None,
            Some(v) => Some(uint(v, "forfeit", 255)? as u8),
        },
        swapped: optional(&object, "swapped", |v| boolean(v, "swapped"))?.unwrap_or(false),
    };
    let pos = Position::from_setup(rules, &setup).map_err(StateError::Position)?;
    if let Some(v) = object.get("scores") {
        let given = array(v, "scores", |v, f| {
            v.as_i64()
                .ok_or_else(|| field_error(f, "expected a whole number"))
        })?;
        let actual: Vec<i64> = pos.scores()[..players]
            .iter()
            .map(|&s| i64::from(s))
            .collect();
        if given != actual {
            return Err(field_error(
                "scores",
                format!("given {given:?}, but the stores make {actual:?}"),
            ));
        }
    }
    Ok(pos)
}

fn optional<T>(
    object: &Map<String, Value>,
    field: &str,
    read: impl FnOnce(&Value) -> Result<T, StateError>,
) -> Result<Option<T>, StateError> {
    object.get(field).map(read).transpose()
}

fn uint(v: &Value, field: &str, max: u64) -> Result<u64, StateError> {
    match v.as_u64() {
        Some(n) if n <= max => Ok(n),
        _ => Err(field_error(
            field,
            format!(
                "expected a whole number from 0 to {max}, found {}",
                found(v)
            ),
        )),
    }
}

/// A bad value as an error quotes it.
fn found(v: &Value) -> String {
    excerpt::plain(&v.to_string())
}

fn boolean(v: &Value, field: &str) -> Result<bool, StateError> {
    v.as_bool()
        .ok_or_else(|| field_error(field, format!("expected true or false, found {}", found(v))))
}

fn array<T>(
    v: &Value,
    field: &str,
    item: impl Fn(&Value, &str) -> Result<T, StateError>,
) -> Result<Vec<T>, StateError> {
    let Some(items) = v.as_array() else {
        return Err(field_error(
            field,
            format!("expected an array, found {}", found(v)),
        ));
    };
    items
        .iter()
        .enumerate()
        .map(|(i, v)| item(v, &format!("{field}[{i}]")))
        .collect()
}

fn parse_store(v: &Value, field: &str, players: usize) -> Result<Store, StateError> {
    let Some(object) = v.as_object() else {
        return Err(field_error(
            field,
            format!(
                "expected an object with stones, mandarins and owes, found {}",
                found(v)
            ),
        ));
    };
    if let Some(unknown) = object
        .keys()
        .find(|k| !["stones", "mandarins", "owes"].contains(&k.as_str()))
    {
        return Err(field_error(
            format!("{field}.{}", excerpt::plain(unknown)),
            "unknown field; a store has stones, mandarins and owes",
        ));
    }
    let mut store = Store::default();
    if let Some(v) = object.get("stones") {
        store.stones = v
            .as_i64()
            .and_then(|n| i16::try_from(n).ok())
            .ok_or_else(|| {
                field_error(
                    format!("{field}.stones"),
                    format!(
                        "expected a whole number from {} to {}, found {}",
                        i16::MIN,
                        i16::MAX,
                        found(v)
                    ),
                )
            })?;
    }
    if let Some(v) = object.get("mandarins") {
        store.mandarins = uint(v, &format!("{field}.mandarins"), 3)? as u8;
    }
    if let Some(v) = object.get("owes") {
        let field = format!("{field}.owes");
        let owes = array(v, &field, |v, f| {
            uint(v, f, u16::MAX.into()).map(|n| n as u16)
        })?;
        if owes.len() != players {
            return Err(field_error(
                field,
                format!("{} entries, expected {players}", owes.len()),
            ));
        }
        store.owes[..players].copy_from_slice(&owes);
    }
    Ok(store)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::presets;

    fn error(text: &str) -> String {
        parse(RuleSet::default(), text).unwrap_err().to_string()
    }

    #[test]
    fn every_preset_start_round_trips() {
        for preset in presets::all() {
            let pos = Position::new(preset.rules);
            assert_eq!(
                parse(preset.rules, &to_line(&pos)).unwrap(),
                pos,
                "{}",
                preset.id
            );
        }
    }

    #[test]
    fn errors_name_the_field() {
        let start = r#""pits":[5,5,5,5,5,0,5,5,5,5,5,0]"#;
        assert!(error("{").contains("not JSON"));
        assert!(error("[1]").contains("object"));
        assert!(error("{}").contains("pits: missing"));
        assert!(error(&format!("{{{start},\"colour\":1}}")).contains("colour: unknown"));
        assert!(error(r#"{"pits":[5,5,5,5,5,0,5,5,5,5,5]}"#).contains("pits: 11 entries"));
        assert!(error(r#"{"pits":[5,5,5,-5,5,0,5,5,5,5,5,0]}"#).contains("pits[3]"));
        assert!(error(r#"{"pits":[5,5,5,5,5,0,5,5,5,5,6,0]}"#).contains("71 in all"));
        assert!(error(&format!("{{{start},\"to_move\":2}}")).contains("to_move"));
        assert!(
            error(&format!("{{{start},\"over\":\"no\"}}")).contains("over: expected true or false")
        );
        assert!(error(&format!("{{{start},\"scores\":[0,1]}}")).contains("scores: given [0, 1]"));
        assert!(
            error(&format!("{{{start},\"stores\":[{{\"stones\":1}},{{}}]}}")).contains("71 in all")
        );
        assert!(
            error(&format!("{{{start},\"stores\":[{{\"owes\":[0]}},{{}}]}}"))
                .contains("stores[0].owes: 1 entries")
        );
        assert!(
            error(&format!("{{{start},\"stores\":[{{\"owes\":[3,0]}},{{}}]}}"))
                .contains("stores[0].owes[0]")
        );
    }
}

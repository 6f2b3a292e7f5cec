//! One game played by `oaq-bot`: its stream read line by line, the engine asked on the bot's
//! turn, the move sent. A program that fails (dies, answers nonsense or an illegal move, or
//! takes too long) is started again and asked once more; failing twice on one move, the bot
//! resigns rather than let its opponent wait for the clock. The stream is opened again when it
//! drops, with a growing wait.

use std::time::Duration;

use oaq_net::protocol::ClockSpec;
use oaq_rules::RuleSet;
use serde_json::Value;

use super::engine::{Engine, EngineSpec};
use super::http::Api;

/// How a game ended for the bot, for its log.
#[derive(Debug)]
pub struct Played {
    pub code: String,
    pub moves: String,
    pub result: Value,
    /// Programs started for it (1: it never failed).
    pub engine_starts: u32,
    pub resigned: bool,
}

/// The time a move may take: a share of what is left on the clock and the increment, within a
/// minute; ten seconds without a clock.
pub fn budget(clock: &ClockSpec, left_ms: Option<i64>) -> Duration {
    let ms = match (clock, left_ms) {
        (ClockSpec::Fischer { increment_ms, .. }, Some(left)) => {
            (left.max(0) as u64 / 25 + increment_ms * 4 / 5).clamp(50, 60_000)
        }
        _ => 10_000,
    };
    Duration::from_millis(ms)
}

/// What the stream has said of the game so far.
struct Seen {
    you: Option<u64>,
    rules: Option<RuleSet>,
    preset: String,
    clock: ClockSpec,
    /// The ply of the last move sent (not sent again for the same state).
    sent: Option<u64>,
}

/// Play game `code` to its end.
pub async fn play(api: &Api, spec: &EngineSpec, code: &str) -> Result<Played, String> {
    let mut seen = Seen {
        you: None,
        rules: None,
        preset: String::new(),
        clock: ClockSpec::UNTIMED,
        sent: None,
    };
    let mut engine: Option<Engine> = None;
    let mut wait = Duration::from_millis(500);
    for _ in 0..12 {
        let mut lines = match api.stream(&format!("/api/bot/game/stream/{code}")).await {
            Ok(lines) => lines,
            Err(e)
                if matches!(
                    e.code(),
                    Some("no_such_room" | "bad_credentials" | "not_allowed")
                ) =>
            {
                return Err(format!("game {code}: {e}"));
            }
            Err(e) => {
                tracing::warn!("game {code}: {e}; again in {wait:?}");
                tokio::time::sleep(wait).await;
                wait = (wait * 2).min(Duration::from_secs(30));
                continue;
            }
        };
        while let Some(line) = lines.next().await {
            let state = match line["type"].as_str() {
                Some("gameFull") => {
                    seen.you = line["you"].as_u64();
                    seen.rules = serde_json::from_value(line["rules"].clone()).ok();
                    seen.preset = line["preset"].as_str().unwrap_or("").to_owned();
                    seen.clock =
                        serde_json::from_value(line["clock"].clone()).unwrap_or(ClockSpec::UNTIMED);
                    line["state"].clone()
                }
                Some("gameState") => line,
                _ => continue,
            };
            if state["status"] == "over" {
                return Ok(Played {
                    code: code.to_owned(),
                    moves: state["moves"].as_str().unwrap_or("").to_owned(),
                    result: state["result"].clone(),
                    engine_starts: engine.as_ref().map_or(0, |e| e.starts),
                    resigned: false,
                });
            }
            let (Some(you), Some(rules)) = (seen.you, seen.rules) else {
                continue;
            };
            let ply = state["ply"].as_u64().unwrap_or(0);
            let ended = state["position"]["over"].as_bool() == Some(true);
            if ended || state["to_move"].as_u64() != Some(you) || seen.sent == Some(ply) {
                continue;
            }
            let engine =
                engine.get_or_insert_with(|| Engine::new(spec.clone(), rules, &seen.preset));
            let left = state["clocks_ms"].get(you as usize).and_then(Value::as_i64);
            let position = state["position"].to_string();
            if !move_or_resign(api, engine, code, ply, &position, budget(&seen.clock, left)).await {
                return Ok(Played {
                    code: code.to_owned(),
                    moves: state["moves"].as_str().unwrap_or("").to_owned(),
                    result: Value::Null,
                    engine_starts: engine.starts,
                    resigned: true,
                });
            }
            seen.sent = Some(ply);
        }
        tracing::info!("game {code}: the stream ended before the game; opening it again");
        tokio::time::sleep(wait).await;
        wait = (wait * 2).min(Duration::from_secs(30));
    }
    Err(format!("game {code}: its stream kept failing"))
}

/// Send the engine's move for `position`; a second failure resigns. Whether the game goes on.
async fn move_or_resign(
    api: &Api,
    engine: &mut Engine,
    code: &str,
    ply: u64,
    position: &str,
    budget: Duration,
) -> bool {
    for attempt in 0..2 {
        let why = match engine.choose(position, budget).await {
            Ok(mv) => {
                let path = format!("/api/bot/game/{code}/move/{}?ply={ply}", encode(&mv));
                match api.call("POST", &path, None).await {
                    Ok(_) => return true,
                    // The game moved on without this move (the clock fell, the opponent
                    // resigned): the stream says what happened.
                    Err(e) if matches!(e.code(), Some("stale_ply" | "not_your_turn")) => {
                        return true;
                    }
                    Err(e) => {
                        engine.restart();
                        format!("the move {mv}: {e}")
                    }
                }
            }
            Err(why) => why,
        };
        tracing::warn!("game {code}, ply {ply}, attempt {}: {why}", attempt + 1);
    }
    if let Err(e) = api
        .call("POST", &format!("/api/bot/game/{code}/resign"), None)
        .await
    {
        tracing::warn!("game {code}: resigning: {e}");
    }
    false
}

/// A move as one segment of a path (`3+` has a `+`, which a query would read as a space).
fn encode(mv: &str) -> String {
    mv.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_takes_a_share_of_the_clock_within_bounds() {
        let blitz = ClockSpec::Fischer {
            base_ms: 180_000,
            increment_ms: 2_000,
        };
        assert_eq!(budget(&blitz, Some(100_000)), Duration::from_millis(5_600));
        assert_eq!(budget(&blitz, Some(-5)), Duration::from_millis(1_600));
        assert_eq!(budget(&ClockSpec::UNTIMED, None), Duration::from_secs(10));
        let long = ClockSpec::Fischer {
            base_ms: 10_800_000,
            increment_ms: 0,
        };
        assert_eq!(budget(&long, Some(10_800_000)), Duration::from_secs(60));
    }

    #[test]
    fn moves_are_escaped_for_a_path() {
        assert_eq!(encode("3+"), "3%2B");
        assert_eq!(encode("7-"), "7-");
        assert_eq!(encode("swap"), "swap");
    }
}

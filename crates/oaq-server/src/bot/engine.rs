//! What chooses the bot's moves: the built-in engine at a level, or a program that speaks the
//! line protocol of `oaq ai` (docs/bot-api.md): one position a line in (the state JSON of the
//! game stream's `position`), one `{"move": "3+"}` a line out. A program is started for each
//! game (`{rules}` in its command becomes the game's preset, `{move_ms}` the time it has for a
//! move) and started again when it dies, answers nonsense or takes too long.

use std::process::Stdio;
use std::time::Duration;

use oaq_ai::{Level, Thinker};
use oaq_rules::{RuleSet, state_json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, ChildStdin, ChildStdout, Command};

/// How the bot chooses its moves.
#[derive(Clone, Debug)]
pub enum EngineSpec {
    /// The game's own engine (`easy`, `hard`, `1`..`10`), on one thread.
    Builtin(Level),
    /// A program and its arguments.
    Command(Vec<String>),
}

impl std::str::FromStr for EngineSpec {
    type Err = String;

    /// `builtin:LEVEL`, or a command line split at spaces.
    fn from_str(text: &str) -> Result<EngineSpec, String> {
        if let Some(level) = text.strip_prefix("builtin:") {
            return level
                .parse()
                .map(EngineSpec::Builtin)
                .map_err(|e| format!("engine: {e}"));
        }
        let words: Vec<String> = text.split_whitespace().map(str::to_owned).collect();
        if words.is_empty() {
            return Err("engine: empty: give `builtin:LEVEL` or a command".into());
        }
        Ok(EngineSpec::Command(words))
    }
}

/// The engine of one game.
pub struct Engine {
    spec: EngineSpec,
    rules: RuleSet,
    preset: String,
    program: Option<Program>,
    /// Programs started for this game (the first, then each restart).
    pub starts: u32,
}

/// A running program, in a process group of its own: stopping it stops whatever it started
/// too (a script's engine, a `sleep` it stalls in), not only the program itself.
struct Program {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Drop for Program {
    fn drop(&mut self) {
        // The group's id is the program's, which stays taken until the program is reaped (by
        // `kill_on_drop`, after this): the signal cannot reach anyone else's processes.
        #[cfg(unix)]
        if let Some(group) = self
            .child
            .id()
            .and_then(|id| libc::pid_t::try_from(id).ok())
        {
            // SAFETY: `kill` takes plain integers and touches no memory of ours.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
    }
}

impl Engine {
    pub fn new(spec: EngineSpec, rules: RuleSet, preset: &str) -> Engine {
        Engine {
            spec,
            rules,
            preset: preset.to_owned(),
            program: None,
            starts: 0,
        }
    }

    /// A move for `position` (a state JSON line) within `budget`; a failure says what went
    /// wrong, and a program that failed is stopped (the next call starts it again).
    pub async fn choose(&mut self, position: &str, budget: Duration) -> Result<String, String> {
        match self.spec.clone() {
            EngineSpec::Builtin(level) => builtin(level, self.rules, position, budget).await,
            EngineSpec::Command(words) => {
                let answer = self.ask(&words, position, budget).await;
                if answer.is_err() {
                    self.program = None;
                }
                answer
            }
        }
    }

    /// The program has been told something it got wrong (a move the server refused): it is
    /// started again before the next move.
    pub fn restart(&mut self) {
        self.program = None;
    }

    async fn ask(
        &mut self,
        words: &[String],
        position: &str,
        budget: Duration,
    ) -> Result<String, String> {
        if self.program.is_none() {
            self.program = Some(self.start(words, budget)?);
            self.starts += 1;
        }
        let Some(program) = self.program.as_mut() else {
            return Err("the program did not start".into());
        };
        let line = format!("{position}\n");
        program
            .stdin
            .write_all(line.as_bytes())
            .await
            .map_err(|e| format!("the program does not read: {e}"))?;
        program
            .stdin
            .flush()
            .await
            .map_err(|e| format!("the program does not read: {e}"))?;
        let mut answer = String::new();
        // A grace beyond the budget for the program's own start and the pipe.
        let wait = budget + Duration::from_secs(2);
        let read = program.stdout.read_line(&mut answer);
        match tokio::time::timeout(wait, read).await {
            Err(_) => Err(format!("the program gave no move in {wait:?}")),
            Ok(Err(e)) => Err(format!("the program's output: {e}")),
            Ok(Ok(0)) => Err("the program stopped".into()),
            Ok(Ok(_)) => read_answer(&answer),
        }
    }

    fn start(&self, words: &[String], budget: Duration) -> Result<Program, String> {
        let fill = |w: &String| {
            w.replace("{rules}", &self.preset)
                .replace("{move_ms}", &budget.as_millis().to_string())
        };
        let words: Vec<String> = words.iter().map(fill).collect();
        let (program, args) = words.split_first().ok_or("no program")?;
        let mut command = Command::new(program);
        command
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .kill_on_drop(true);
        #[cfg(unix)]
        command.process_group(0);
        let mut child = command
            .spawn()
            .map_err(|e| format!("starting {program}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        Ok(Program {
            child,
            stdin,
            stdout,
        })
    }
}

/// The move of an answer line, `{"move": "3+"}` (anything else named).
fn read_answer(line: &str) -> Result<String, String> {
    let shown = oaq_rules::excerpt::quoted(line.trim());
    let value: serde_json::Value = serde_json::from_str(line.trim())
        .map_err(|_| format!("the program answered {shown}, not JSON"))?;
    if let Some(error) = value["error"].as_str() {
        return Err(format!("the program says: {error}"));
    }
    value["move"]
        .as_str()
        .map(str::to_owned)
        .ok_or_else(|| format!("the program answered {shown}, with no \"move\""))
}

/// The built-in engine, its time per move held to `budget`, off the async threads.
async fn builtin(
    mut level: Level,
    rules: RuleSet,
    position: &str,
    budget: Duration,
) -> Result<String, String> {
    level.time_ms = level.time_ms.min(budget.as_millis() as u64).max(1);
    let position = position.to_owned();
    tokio::task::spawn_blocking(move || think(level, rules, &position))
        .await
        .map_err(|e| format!("the engine: {e}"))?
}

/// Answer the line protocol on standard input and output with the built-in engine: each
/// line a state, each answer `{"move": ...}` or `{"error": ...}` (and reading goes on).
pub fn serve_lines(rules: RuleSet, level: Level) -> Result<(), String> {
    use std::io::{BufRead, Write};
    let mut out = std::io::stdout().lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("stdin: {e}"))?;
        if line.trim().is_empty() {
            continue;
        }
        let answer = match think(level, rules, &line) {
            Ok(mv) => serde_json::json!({ "move": mv }),
            Err(e) => serde_json::json!({ "error": e }),
        };
        writeln!(out, "{answer}").map_err(|e| format!("stdout: {e}"))?;
        out.flush().map_err(|e| format!("stdout: {e}"))?;
    }
    Ok(())
}

/// The built-in engine's move for a state line, on this thread.
fn think(level: Level, rules: RuleSet, position: &str) -> Result<String, String> {
    let pos = state_json::parse(rules, position).map_err(|e| e.to_string())?;
    if pos.is_over() {
        return Err("the game is over: there is no move to make".into());
    }
    Ok(Thinker::new(pos, level, rand::random(), None)
        .threads(1)
        .run()
        .mv
        .to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_or_named() {
        assert_eq!(
            read_answer("{\"move\":\"3+\",\"score\":1}\n").unwrap(),
            "3+"
        );
        assert!(read_answer("3+").unwrap_err().contains("not JSON"));
        assert!(
            read_answer("{\"mv\":\"3+\"}")
                .unwrap_err()
                .contains("no \"move\"")
        );
        assert!(
            read_answer("{\"error\":\"bad\"}")
                .unwrap_err()
                .contains("bad")
        );
    }

    #[test]
    fn engines_are_named_by_level_or_command() {
        assert!(matches!("builtin:hard".parse(), Ok(EngineSpec::Builtin(_))));
        assert!("builtin:eleven".parse::<EngineSpec>().is_err());
        let Ok(EngineSpec::Command(words)) = "oaq ai --rules {rules}".parse() else {
            panic!("a command");
        };
        assert_eq!(words, ["oaq", "ai", "--rules", "{rules}"]);
        assert!("  ".parse::<EngineSpec>().is_err());
    }
}

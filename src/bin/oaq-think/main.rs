//! `oaq-think`: the computer's thinking on its own, for a browser's Web Worker. Built for the
//! web (`.ci/web`), it exports `think(request) -> answer` (JSON text both ways, see
//! `o_an_quan::ai::remote`), which `web/think-worker.js` calls for each message the page posts;
//! it holds the rules and the search and nothing of the game, so it is small and loads fast.
//! Its endgame table (`assets/ai/endgame-8.tb`: 0.5 MB, 23 MB once inflated, where the desktop's
//! 10-stone table would be 3.2 MB and 144 MB) is a file of its own, which the worker fetches
//! once its module runs and hands over with `take_table`; until then its searches go without.
//! Built for a desktop, it answers one request read from standard input with the same table:
//! the same work, for comparing the two.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Answer a request: the answer's JSON, or `{"error": "..."}` naming what was wrong.
    #[wasm_bindgen]
    pub fn think(request: &str) -> String {
        super::answer(request)
    }

    /// Take the endgame table's file (`assets/ai/endgame-8.tb`) as fetched: "" once it is in
    /// use, or what was wrong with it (the worker then thinks without one).
    #[wasm_bindgen]
    pub fn take_table(bytes: &[u8]) -> String {
        super::take_table(bytes).err().unwrap_or_default()
    }
}

/// Read a table file and use it for every search from now on.
fn take_table(bytes: &[u8]) -> Result<(), String> {
    let table = o_an_quan::ai::tablebase::file::read(bytes)?;
    o_an_quan::ai::tablebase::install(table)
}

/// The answer's JSON, or an error object that names what was wrong with the request.
fn answer(request: &str) -> String {
    match o_an_quan::ai::remote::answer(request) {
        Ok(answer) => answer,
        Err(e) => serde_json::json!({ "error": e.to_string() }).to_string(),
    }
}

#[cfg(target_arch = "wasm32")]
fn main() {}

#[cfg(not(target_arch = "wasm32"))]
fn main() -> std::process::ExitCode {
    use std::io::Read;
    // The browser's worker's table, built in here rather than fetched.
    if let Err(e) = take_table(include_bytes!("../../../assets/ai/endgame-8.tb")) {
        eprintln!("oaq-think: assets/ai/endgame-8.tb: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let mut request = String::new();
    // One byte past the limit is enough to refuse a request that is too long.
    let limit = o_an_quan::ai::remote::MAX_REQUEST_BYTES as u64 + 1;
    if let Err(e) = std::io::stdin().take(limit).read_to_string(&mut request) {
        eprintln!("oaq-think: reading the request: {e}");
        return std::process::ExitCode::FAILURE;
    }
    let answer = answer(request.trim_end());
    println!("{answer}");
    if answer.starts_with("{\"error\"") {
        std::process::ExitCode::FAILURE
    } else {
        std::process::ExitCode::SUCCESS
    }
}

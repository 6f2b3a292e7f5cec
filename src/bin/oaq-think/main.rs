//! `oaq-think`: the computer's thinking on its own, for a browser's Web Worker. Built for the
//! web (`.ci/web`), it exports `think(request) -> answer` (JSON text both ways, see
//! `o_an_quan::ai::remote`), which `web/think-worker.js` calls for each message the page posts;
//! it holds the rules and the search and nothing of the game, so it is small and loads fast.
//! Built for a desktop, it answers one request read from standard input: the same work, for
//! comparing the two.

#[cfg(target_arch = "wasm32")]
mod web {
    use wasm_bindgen::prelude::wasm_bindgen;

    /// Answer a request: the answer's JSON, or `{"error": "..."}` naming what was wrong.
    #[wasm_bindgen]
    pub fn think(request: &str) -> String {
        super::answer(request)
    }
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

//! The bot API as `oaq-bot` calls it: JSON requests with the bot's token, and NDJSON streams
//! read a line at a time (the keep-alive's empty lines tell a live stream from a dead one).
//! Given several servers (the nodes of one deployment), a request that gets no answer moves to
//! the next one for itself and every later request.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use axum::body::Bytes;
use http_body_util::{BodyExt, Full};
use hyper::body::Incoming;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use serde_json::Value;

/// A stream silent this long is dead (the server writes a line every 5 s).
const SILENT: Duration = Duration::from_secs(20);
/// A request without an answer this long has failed.
const ANSWER: Duration = Duration::from_secs(20);
/// The longest line read from a stream.
const MAX_LINE: usize = 1 << 20;

/// Why a call did not go through.
#[derive(Debug)]
pub enum Failure {
    /// The server refused it: its HTTP status, the protocol's code and its words.
    Refused {
        status: u16,
        code: String,
        message: String,
    },
    /// No answer, or not one that reads.
    Transport(String),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Refused {
                status,
                code,
                message,
            } => write!(f, "{status} {code}: {message}"),
            Failure::Transport(e) => f.write_str(e),
        }
    }
}

impl Failure {
    pub fn code(&self) -> Option<&str> {
        match self {
            Failure::Refused { code, .. } => Some(code),
            Failure::Transport(_) => None,
        }
    }
}

type Https = hyper_rustls::HttpsConnector<HttpConnector>;

/// One server (or the nodes of one), one bot.
#[derive(Clone)]
pub struct Api {
    client: Client<Https, Full<Bytes>>,
    bases: Arc<Vec<String>>,
    /// The node requests go to now.
    current: Arc<AtomicUsize>,
    token: String,
}

impl Api {
    /// `servers`: `http://HOST:PORT` or `https://...`, or several such, comma-separated.
    pub fn new(servers: &str, token: &str) -> Api {
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        Api {
            client: Client::builder(TokioExecutor::new()).build(https),
            bases: Arc::new(
                servers
                    .split(',')
                    .map(|s| s.trim().trim_end_matches('/').to_owned())
                    .filter(|s| !s.is_empty())
                    .collect(),
            ),
            current: Default::default(),
            token: token.to_owned(),
        }
    }

    /// Send to the node in use; one that does not answer passes the request, and later ones,
    /// to the next node.
    async fn send(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<hyper::Response<Incoming>, Failure> {
        let at = self.current.load(Ordering::Relaxed);
        let answer = self.send_to(at, method, path, body).await;
        if answer.is_ok() || self.bases.len() < 2 {
            return answer;
        }
        let next = (at + 1) % self.bases.len();
        let _ = self
            .current
            .compare_exchange(at, next, Ordering::Relaxed, Ordering::Relaxed);
        tracing::warn!(
            "{}: no answer; going on with {}",
            self.bases[at],
            self.bases[next]
        );
        self.send_to(next, method, path, body).await
    }

    async fn send_to(
        &self,
        at: usize,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<hyper::Response<Incoming>, Failure> {
        let base = self
            .bases
            .get(at)
            .ok_or_else(|| Failure::Transport("no server".into()))?;
        let bytes = body.map(|b| Bytes::from(b.to_string())).unwrap_or_default();
        let request = hyper::Request::builder()
            .method(method)
            .uri(format!("{base}{path}"))
            .header("authorization", format!("Bearer {}", self.token))
            .header("content-type", "application/json")
            .body(Full::new(bytes))
            .map_err(|e| Failure::Transport(format!("{path}: {e}")))?;
        tokio::time::timeout(ANSWER, self.client.request(request))
            .await
            .map_err(|_| Failure::Transport(format!("{path}: no answer in {ANSWER:?}")))?
            .map_err(|e| Failure::Transport(format!("{path}: {e}")))
    }

    /// A request answered with JSON.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, Failure> {
        let response = self.send(method, path, body).await?;
        let status = response.status().as_u16();
        let bytes = tokio::time::timeout(ANSWER, response.into_body().collect())
            .await
            .map_err(|_| Failure::Transport(format!("{path}: the answer stopped")))?
            .map_err(|e| Failure::Transport(format!("{path}: {e}")))?
            .to_bytes();
        let value: Value = serde_json::from_slice(&bytes)
            .map_err(|e| Failure::Transport(format!("{path}: {status}, not JSON: {e}")))?;
        if (200..300).contains(&status) {
            return Ok(value);
        }
        let error = &value["error"];
        Err(Failure::Refused {
            status,
            code: error["code"].as_str().unwrap_or("").to_owned(),
            message: error["message"].as_str().unwrap_or("").to_owned(),
        })
    }

    /// An NDJSON stream.
    pub async fn stream(&self, path: &str) -> Result<Lines, Failure> {
        let response = self.send("GET", path, None).await?;
        let status = response.status().as_u16();
        if !(200..300).contains(&status) {
            let bytes = response
                .into_body()
                .collect()
                .await
                .map(|b| b.to_bytes())
                .unwrap_or_default();
            let value: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            return Err(Failure::Refused {
                status,
                code: value["error"]["code"].as_str().unwrap_or("").to_owned(),
                message: value["error"]["message"].as_str().unwrap_or("").to_owned(),
            });
        }
        Ok(Lines {
            body: response.into_body(),
            buffer: Vec::new(),
        })
    }
}

/// An NDJSON stream being read.
pub struct Lines {
    body: Incoming,
    buffer: Vec<u8>,
}

impl Lines {
    /// The next object (keep-alive lines skipped); `None` when the stream ended, went silent or
    /// broke.
    pub async fn next(&mut self) -> Option<Value> {
        loop {
            while let Some(end) = self.buffer.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buffer.drain(..=end).collect();
                let text = String::from_utf8_lossy(&line);
                if text.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str(text.trim()) {
                    Ok(value) => return Some(value),
                    Err(e) => tracing::warn!("a stream's line is not JSON: {e}"),
                }
            }
            if self.buffer.len() > MAX_LINE {
                return None;
            }
            let frame = tokio::time::timeout(SILENT, self.body.frame())
                .await
                .ok()??
                .ok()?;
            if let Ok(data) = frame.into_data() {
                self.buffer.extend_from_slice(&data);
            }
        }
    }
}

//! A request's body read before its route sees it: at most the protocol's frame is kept; a
//! larger one is refused once it has been read to its end (up to a bound), so that a client
//! still sending it reads the refusal rather than a reset. Closing at once with bytes unread
//! makes the kernel reset the connection, and the client's socket then loses the answer it had
//! been sent (nginx's "lingering close" reads on for the same reason).

use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use http_body_util::BodyExt;
use oaq_net::protocol::{ErrorCode, MAX_FRAME};

use super::ApiError;

/// What is read and thrown away of a body past the frame before the refusal.
const DRAIN_BYTES: usize = 16 * 1024 * 1024;
/// The longest a body may take to arrive, whatever its size.
const BODY_WAIT: Duration = Duration::from_secs(5);

/// The route gets the body whole, of at most a frame; a larger body, one that takes longer
/// than [`BODY_WAIT`] or one that breaks off is refused, and the route never runs.
pub(super) async fn bounded(request: Request, next: Next) -> Response {
    let (parts, body) = request.into_parts();
    match read(body).await {
        Ok(bytes) => {
            next.run(Request::from_parts(parts, Body::from(bytes)))
                .await
        }
        Err(refusal) => refusal.into_response(),
    }
}

/// The body's bytes, or why it is refused.
async fn read(mut body: Body) -> Result<Bytes, ApiError> {
    let deadline = tokio::time::Instant::now() + BODY_WAIT;
    let mut kept = Vec::new();
    let mut seen = 0usize;
    loop {
        let frame = tokio::time::timeout_at(deadline, body.frame())
            .await
            .map_err(|_| ApiError::new(ErrorCode::BadMessage, "the body came too slowly"))?;
        let Some(frame) = frame else { break };
        let frame = frame.map_err(|e| ApiError::new(ErrorCode::BadMessage, e.to_string()))?;
        let Ok(data) = frame.into_data() else {
            continue;
        };
        seen = seen.saturating_add(data.len());
        if seen <= MAX_FRAME {
            kept.extend_from_slice(&data);
        } else if seen > MAX_FRAME + DRAIN_BYTES {
            break;
        }
    }
    if seen > MAX_FRAME {
        let why = format!("a body of over {MAX_FRAME} bytes; a request holds at most {MAX_FRAME}");
        return Err(ApiError::new(ErrorCode::TooLarge, why));
    }
    Ok(Bytes::from(kept))
}

/// A route's JSON body (within a frame: [`bounded`] kept it so), or what does not read in it.
pub(super) fn json<T: serde::de::DeserializeOwned>(bytes: &Bytes) -> Result<T, ApiError> {
    serde_json::from_slice(bytes)
        .map_err(|e| ApiError::new(ErrorCode::BadMessage, format!("the body: {e}")))
}

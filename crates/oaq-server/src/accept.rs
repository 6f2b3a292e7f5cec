//! The server's accept loop. Before a byte is read, a connection is counted against its
//! address's cap and the server's; over either it is closed at once. A connection must send
//! its request's header within the handshake time (a silent socket is closed), and then
//! serves HTTP (one request after another) or becomes a WebSocket that keeps its place in the
//! count until it closes.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tower::ServiceExt;

use crate::limits::{ConnectionRefused, ConnectionSlot};
use crate::shared::Server;

/// A connection's place in the count, for the WebSocket handler to keep once upgraded.
#[derive(Clone)]
pub struct Slot(pub Arc<ConnectionSlot>);

/// Accept connections until the server stops, then wait (up to `grace`) for them to close.
pub async fn run(listener: TcpListener, server: Arc<Server>, app: Router, grace: Duration) {
    let mut stopping = server.stopping.clone();
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(a) => a,
                Err(e) => {
                    // Out of file descriptors, most likely: let some close before the next.
                    tracing::warn!("accepting a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            _ = stopping.changed() => break,
        };
        let proxy = server.settings.trusted_proxies.contains(&peer.ip());
        let slot = match server.connections.open(peer.ip(), !proxy) {
            Ok(slot) => slot,
            Err(why) => {
                let reason = match why {
                    ConnectionRefused::Address => "address",
                    ConnectionRefused::Full => "full",
                };
                server.metrics.turned_away(reason);
                tracing::debug!(%peer, reason, "connection turned away");
                drop(stream);
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        tokio::spawn(connection(
            stream,
            Peer { addr: peer, proxy },
            Slot(Arc::new(slot)),
            server.clone(),
            app.clone(),
        ));
    }
    drop(listener);
    let deadline = tokio::time::Instant::now() + grace;
    while server.connections.count() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// The other end of a connection, and whether it is a trusted proxy.
#[derive(Clone, Copy)]
struct Peer {
    addr: SocketAddr,
    proxy: bool,
}

/// The client behind a trusted proxy: the last address of `X-Forwarded-For` (the one the
/// proxy itself saw; earlier ones are the client's word). None when absent or not an address.
fn forwarded_for(headers: &hyper::HeaderMap) -> Option<IpAddr> {
    let value = headers.get_all("x-forwarded-for").iter().next_back()?;
    // An address is at most 45 characters: a longer list is read from its end only.
    let text = value.to_str().ok()?;
    let last = text.rsplit(',').next()?.trim();
    if last.len() > 64 {
        return None;
    }
    last.parse().ok()
}

async fn connection(
    stream: tokio::net::TcpStream,
    peer: Peer,
    slot: Slot,
    server: Arc<Server>,
    app: Router,
) {
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        // Behind a trusted proxy each request names its client; elsewhere the header is
        // anyone's word and is ignored.
        let client = match peer.proxy {
            true => forwarded_for(request.headers()).map_or(peer.addr, |ip| SocketAddr::new(ip, 0)),
            false => peer.addr,
        };
        request.extensions_mut().insert(ConnectInfo(client));
        request.extensions_mut().insert(slot.clone());
        app.clone().oneshot(request)
    });
    let mut builder = hyper::server::conn::http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(server.settings.handshake)
        .max_buf_size(64 * 1024);
    let conn = builder
        .serve_connection(TokioIo::new(stream), service)
        .with_upgrades();
    tokio::pin!(conn);
    let mut stopping = server.stopping.clone();
    let mut asked = false;
    loop {
        tokio::select! {
            result = conn.as_mut() => {
                if let Err(e) = result {
                    if e.is_timeout() {
                        server.metrics.turned_away("handshake");
                    }
                    tracing::debug!(peer = %peer.addr, "connection: {e}");
                }
                break;
            }
            _ = stopping.changed(), if !asked => {
                // Finish the request under way, take no other.
                conn.as_mut().graceful_shutdown();
                asked = true;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::forwarded_for;

    fn headers(values: &[&str]) -> hyper::HeaderMap {
        let mut map = hyper::HeaderMap::new();
        for v in values {
            map.append("x-forwarded-for", v.parse().unwrap());
        }
        map
    }

    #[test]
    fn the_client_is_the_last_forwarded_address() {
        let ip = |s: &str| Some(s.parse().unwrap());
        assert_eq!(forwarded_for(&headers(&["203.0.113.5"])), ip("203.0.113.5"));
        assert_eq!(
            forwarded_for(&headers(&["1.2.3.4, 203.0.113.5"])),
            ip("203.0.113.5")
        );
        assert_eq!(
            forwarded_for(&headers(&["1.2.3.4", " 2001:db8::7 "])),
            ip("2001:db8::7")
        );
        assert_eq!(forwarded_for(&headers(&[])), None);
        assert_eq!(forwarded_for(&headers(&["203.0.113.5, nonsense"])), None);
        assert_eq!(forwarded_for(&headers(&[&"9".repeat(100)])), None);
    }
}

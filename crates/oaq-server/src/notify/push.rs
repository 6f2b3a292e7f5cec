//! Web Push (RFC 8030): each message encrypted to the device's keys (RFC 8291, `aes128gcm`)
//! and signed with the server's VAPID key (RFC 8292), POSTed to the push service over HTTPS.
//! The VAPID key pair is made at the first start and kept in the store, so every node and every
//! restart signs with the same one (subscriptions are bound to it). Endpoints come from
//! clients: only HTTPS ones of the known push services are accepted (no request to any address
//! a stranger names), and one service's answer `404`/`410` forgets the subscription. A message
//! carries `Topic` = its game, so a service holding several for an offline device keeps only
//! the last one per game.

use std::sync::Arc;
use std::time::Duration;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use http_body_util::Full;
use hyper::body::Bytes;
use hyper_util::client::legacy::Client;
use hyper_util::client::legacy::connect::HttpConnector;
use hyper_util::rt::TokioExecutor;
use tokio::sync::Semaphore;
use web_push_native::jwt_simple::algorithms::{ECDSAP256PublicKeyLike, ES256KeyPair};
use web_push_native::{Auth, WebPushBuilder, p256};

use crate::metrics::Metrics;
use crate::store::Store;
use oaq_net::notify::{Event, PushSubscription};

/// How long a push service may take to answer.
const WAIT: Duration = Duration::from_secs(10);
/// How long a push service keeps a message for a device that is off (a day: "your move" is
/// still news tomorrow, not next week).
const TTL: Duration = Duration::from_secs(86_400);
/// Pushes in flight at once; more are dropped (and counted).
const IN_FLIGHT: usize = 32;

/// The push services' hosts (Chrome's, Firefox's, Edge's, Safari's): an endpoint elsewhere is
/// refused.
pub const PUSH_HOSTS: [&str; 5] = [
    "fcm.googleapis.com",
    "updates.push.services.mozilla.com",
    "push.services.mozilla.com",
    "notify.windows.com",
    "push.apple.com",
];

pub struct Push {
    key: ES256KeyPair,
    /// The key's public half as browsers take it (`applicationServerKey`).
    pub public_key: String,
    /// Who runs this server (`mailto:` or `https:`), for the push services.
    contact: String,
    /// The game's page, which a notification opens.
    base_url: String,
    /// Endpoints on this machine over plain HTTP are accepted (tests).
    loopback: bool,
    client: Client<hyper_rustls::HttpsConnector<HttpConnector>, Full<Bytes>>,
    in_flight: Arc<Semaphore>,
}

/// Why a subscription is refused.
pub fn check_endpoint(endpoint: &str, loopback: bool) -> Result<http::Uri, String> {
    let uri: http::Uri = endpoint
        .parse()
        .map_err(|e| format!("endpoint: not an address ({e})"))?;
    let host = uri.host().unwrap_or_default().trim_matches(['[', ']']);
    match uri.scheme_str() {
        Some("https") => {
            let known = PUSH_HOSTS
                .iter()
                .any(|h| host == *h || host.ends_with(&format!(".{h}")));
            if known {
                Ok(uri)
            } else {
                Err(format!("endpoint: {host} is not a push service"))
            }
        }
        Some("http") if loopback && ["127.0.0.1", "localhost", "::1"].contains(&host) => Ok(uri),
        _ => Err("endpoint: a push service's https address is needed".into()),
    }
}

/// The device's keys, or what is wrong with them.
fn device_keys(sub: &PushSubscription) -> Result<(p256::PublicKey, Auth), String> {
    let p256dh = URL_SAFE_NO_PAD
        .decode(sub.p256dh.trim_end_matches('='))
        .map_err(|_| "p256dh: not base64url".to_owned())?;
    let public = p256::PublicKey::from_sec1_bytes(&p256dh)
        .map_err(|_| "p256dh: not a P-256 public key".to_owned())?;
    let auth = URL_SAFE_NO_PAD
        .decode(sub.auth.trim_end_matches('='))
        .map_err(|_| "auth: not base64url".to_owned())?;
    let auth: [u8; 16] = auth
        .try_into()
        .map_err(|a: Vec<u8>| format!("auth: {} bytes, 16 expected", a.len()))?;
    Ok((public, Auth::from(auth)))
}

impl Push {
    /// The server's push sender, with the VAPID key from the store (made now if there is none).
    pub async fn start(
        store: &Store,
        contact: String,
        base_url: String,
        loopback: bool,
    ) -> Result<Push, String> {
        let secret = store
            .server_key("vapid", || {
                URL_SAFE_NO_PAD.encode(ES256KeyPair::generate().to_bytes())
            })
            .await
            .map_err(|e| format!("the VAPID key: {e}"))?;
        let bytes = URL_SAFE_NO_PAD
            .decode(&secret)
            .map_err(|_| "the stored VAPID key is not base64url".to_owned())?;
        let key =
            ES256KeyPair::from_bytes(&bytes).map_err(|e| format!("the stored VAPID key: {e}"))?;
        let public_key =
            URL_SAFE_NO_PAD.encode(key.public_key().public_key().to_bytes_uncompressed());
        let https = hyper_rustls::HttpsConnectorBuilder::new()
            .with_webpki_roots()
            .https_or_http()
            .enable_http1()
            .build();
        let client = Client::builder(TokioExecutor::new()).build(https);
        Ok(Push {
            key,
            public_key,
            contact,
            base_url,
            loopback,
            client,
            in_flight: Arc::new(Semaphore::new(IN_FLIGHT)),
        })
    }

    /// Whether `sub` can be sent to: its endpoint and keys.
    pub fn check(&self, sub: &PushSubscription) -> Result<(), String> {
        check_endpoint(&sub.endpoint, self.loopback)?;
        device_keys(sub).map(|_| ())
    }

    /// Send `event` to each of `player`'s devices, if they want it.
    pub async fn send_to(&self, store: &Store, metrics: &Metrics, player: &str, event: &Event) {
        let wanted = match store.notify_settings(player).await {
            Ok(s) => event.wanted(&s),
            Err(e) => {
                tracing::warn!("a push's settings: {e}");
                return;
            }
        };
        if !wanted {
            return;
        }
        let subs = match store.subscriptions(player).await {
            Ok(s) => s,
            Err(e) => {
                tracing::warn!("a push's devices: {e}");
                return;
            }
        };
        for sub in subs {
            let Ok(permit) = self.in_flight.clone().try_acquire_owned() else {
                metrics.push_sent("dropped");
                continue;
            };
            let outcome = self.send(&sub, event).await;
            drop(permit);
            metrics.push_sent(outcome.label());
            if let Outcome::Gone = outcome
                && let Err(e) = store.unsubscribe(&sub.endpoint, None).await
            {
                tracing::warn!("forgetting a push subscription: {e}");
            }
        }
    }

    async fn send(&self, sub: &PushSubscription, event: &Event) -> Outcome {
        let Ok(uri) = check_endpoint(&sub.endpoint, self.loopback) else {
            return Outcome::Gone;
        };
        let Ok((public, auth)) = device_keys(sub) else {
            return Outcome::Gone;
        };
        let message = event.message(sub.lang, &self.base_url);
        let body = serde_json::to_vec(&message)
            .unwrap_or_else(|e| unreachable!("push messages always serialise: {e}"));
        let built = WebPushBuilder::new(uri, public, auth)
            .with_valid_duration(TTL)
            .with_vapid(&self.key, &self.contact)
            .build(body);
        let request = match built {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("building a push: {e}");
                return Outcome::Failed;
            }
        };
        let (mut parts, body) = request.into_parts();
        // One message per game waits at the push service (RFC 8030 §5.4: a topic is at most
        // 32 base64url characters).
        let topic: String = message
            .tag
            .chars()
            .filter(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
            .take(32)
            .collect();
        if let Ok(value) = http::HeaderValue::from_str(&topic) {
            parts.headers.insert("topic", value);
        }
        parts
            .headers
            .insert("urgency", http::HeaderValue::from_static("normal"));
        let request = http::Request::from_parts(parts, Full::new(Bytes::from(body)));
        match tokio::time::timeout(WAIT, self.client.request(request)).await {
            Ok(Ok(answer)) => match answer.status().as_u16() {
                200..=299 => Outcome::Sent,
                404 | 410 => Outcome::Gone,
                status => {
                    tracing::warn!(status, "a push service refused a message");
                    Outcome::Failed
                }
            },
            Ok(Err(e)) => {
                tracing::warn!("sending a push: {e}");
                Outcome::Failed
            }
            Err(_) => {
                tracing::warn!("a push service did not answer in {WAIT:?}");
                Outcome::Failed
            }
        }
    }
}

enum Outcome {
    Sent,
    /// The subscription is no more (expired, unsubscribed): forget it.
    Gone,
    Failed,
}

impl Outcome {
    fn label(&self) -> &'static str {
        match self {
            Outcome::Sent => "sent",
            Outcome::Gone => "gone",
            Outcome::Failed => "failed",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_push_services_over_https_are_sent_to() {
        assert!(check_endpoint("https://fcm.googleapis.com/fcm/send/abc", false).is_ok());
        assert!(check_endpoint("https://wns2-par02p.notify.windows.com/w/?token=x", false).is_ok());
        let evil = check_endpoint("https://fcm.googleapis.com.evil.example/x", false);
        assert!(evil.unwrap_err().contains("not a push service"));
        assert!(check_endpoint("https://169.254.169.254/latest", false).is_err());
        assert!(check_endpoint("http://127.0.0.1:8080/push", false).is_err());
        assert!(check_endpoint("http://127.0.0.1:8080/push", true).is_ok());
        assert!(
            check_endpoint("http://10.0.0.1/push", true).is_err(),
            "loopback only"
        );
        assert!(check_endpoint("not a url at all", true).is_err());
    }
}

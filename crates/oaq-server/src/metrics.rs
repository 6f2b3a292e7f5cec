//! What an operator watches, as `GET /metrics` serves it in Prometheus's text format:
//! connections and rooms now, moves, refusals by code, connections turned away by reason, the
//! store's and Redis's latency, and the lag credited to moves.

use std::sync::atomic::AtomicU64;

use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;

use oaq_net::protocol::ErrorCode;

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct CodeLabel {
    code: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ReasonLabel {
    reason: &'static str,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct OpLabel {
    op: &'static str,
}

/// The server's metrics. Cheap to update from any task (atomics); read only when scraped.
pub struct Metrics {
    registry: Registry,
    connections: Gauge,
    rooms: Gauge,
    pub moves: Counter,
    refusals: Family<CodeLabel, Counter>,
    turned_away: Family<ReasonLabel, Counter>,
    store_seconds: Family<OpLabel, Histogram>,
    redis_seconds: Family<OpLabel, Histogram>,
    redis_errors: Counter,
    lag_credited: Histogram,
    lag_credited_ms: Counter<u64, AtomicU64>,
    pool_wait: Histogram,
    /// Pushes by outcome (`sent`, `gone`, `failed`, `dropped`), e-mails by outcome.
    pushes: Family<OpLabel, Counter>,
    mails: Family<OpLabel, Counter>,
}

/// Latency buckets from half a millisecond to about 8 s.
fn latency() -> Histogram {
    Histogram::new(exponential_buckets(0.0005, 2.0, 15))
}

impl Default for Metrics {
    fn default() -> Metrics {
        let mut registry = Registry::with_prefix("oaq");
        let connections = Gauge::default();
        let rooms = Gauge::default();
        let moves = Counter::default();
        let refusals = Family::<CodeLabel, Counter>::default();
        let turned_away = Family::<ReasonLabel, Counter>::default();
        let store_seconds =
            Family::<OpLabel, Histogram>::new_with_constructor(latency as fn() -> _);
        let redis_seconds =
            Family::<OpLabel, Histogram>::new_with_constructor(latency as fn() -> _);
        let redis_errors = Counter::default();
        let lag_credited = Histogram::new(exponential_buckets(0.01, 2.0, 10));
        let lag_credited_ms = Counter::<u64, AtomicU64>::default();
        let pool_wait = Histogram::new(exponential_buckets(0.5, 2.0, 12));
        let pushes = Family::<OpLabel, Counter>::default();
        let mails = Family::<OpLabel, Counter>::default();
        registry.register(
            "pushes",
            "Web Push messages, by outcome (sent, gone, failed, dropped)",
            pushes.clone(),
        );
        registry.register("mails", "Daily e-mails, by outcome", mails.clone());
        registry.register(
            "pool_wait_seconds",
            "How long paired players waited in a pool (the longer of the two)",
            pool_wait.clone(),
        );
        registry.register(
            "connections",
            "WebSocket connections open now",
            connections.clone(),
        );
        registry.register("rooms", "Rooms loaded on this node now", rooms.clone());
        registry.register("moves", "Moves stored by this node", moves.clone());
        registry.register(
            "refusals",
            "Messages refused, by error code (each changed nothing)",
            refusals.clone(),
        );
        registry.register(
            "connections_turned_away",
            "Connections closed before they began: per-address or total cap, handshake too slow",
            turned_away.clone(),
        );
        registry.register(
            "store_seconds",
            "Time the store took, by operation",
            store_seconds.clone(),
        );
        registry.register(
            "redis_seconds",
            "Time Redis took, by operation",
            redis_seconds.clone(),
        );
        registry.register(
            "redis_errors",
            "Redis commands that failed or took too long",
            redis_errors.clone(),
        );
        registry.register(
            "lag_credited_seconds",
            "Network lag given back to a move's clock, per timed move",
            lag_credited.clone(),
        );
        registry.register(
            "lag_credited_milliseconds",
            "Network lag given back to clocks, in all",
            lag_credited_ms.clone(),
        );
        Metrics {
            registry,
            connections,
            rooms,
            moves,
            refusals,
            turned_away,
            store_seconds,
            redis_seconds,
            redis_errors,
            lag_credited,
            lag_credited_ms,
            pool_wait,
            pushes,
            mails,
        }
    }
}

impl Metrics {
    pub fn refused(&self, code: ErrorCode) {
        self.refusals
            .get_or_create(&CodeLabel {
                code: code.to_string(),
            })
            .inc();
    }

    /// A connection closed before it began, for `reason` (`address`, `full`, `handshake`).
    pub fn turned_away(&self, reason: &'static str) {
        self.turned_away
            .get_or_create(&ReasonLabel { reason })
            .inc();
    }

    pub fn store_took(&self, op: &'static str, took: std::time::Duration) {
        self.store_seconds
            .get_or_create(&OpLabel { op })
            .observe(took.as_secs_f64());
    }

    pub fn redis_took(&self, op: &'static str, took: std::time::Duration, ok: bool) {
        self.redis_seconds
            .get_or_create(&OpLabel { op })
            .observe(took.as_secs_f64());
        if !ok {
            self.redis_errors.inc();
        }
    }

    pub fn push_sent(&self, outcome: &'static str) {
        self.pushes.get_or_create(&OpLabel { op: outcome }).inc();
    }

    pub fn mail_sent(&self, ok: bool) {
        let op = if ok { "sent" } else { "failed" };
        self.mails.get_or_create(&OpLabel { op }).inc();
    }

    pub fn pool_paired(&self, waited_ms: i64) {
        self.pool_wait.observe(waited_ms.max(0) as f64 / 1000.0);
    }

    pub fn lag_credited(&self, lag_ms: i64) {
        let ms = lag_ms.max(0) as u64;
        self.lag_credited.observe(ms as f64 / 1000.0);
        self.lag_credited_ms.inc_by(ms);
    }

    /// The text to serve, with the gauges read now.
    pub fn render(&self, connections: usize, rooms: usize) -> String {
        self.connections.set(connections as i64);
        self.rooms.set(rooms as i64);
        let mut text = String::new();
        // Writing to a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut text, &self.registry);
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_format_carries_every_family() {
        let m = Metrics::default();
        m.refused(ErrorCode::RateLimited);
        m.refused(ErrorCode::RateLimited);
        m.moves.inc();
        m.lag_credited(250);
        m.turned_away("address");
        let text = m.render(3, 1);
        assert!(
            text.contains("oaq_refusals_total{code=\"rate_limited\"} 2"),
            "{text}"
        );
        assert!(text.contains("oaq_connections 3"), "{text}");
        assert!(text.contains("oaq_rooms 1"), "{text}");
        assert!(text.contains("oaq_moves_total 1"), "{text}");
        assert!(
            text.contains("oaq_lag_credited_milliseconds_total 250"),
            "{text}"
        );
        assert!(
            text.contains("oaq_connections_turned_away_total{reason=\"address\"} 1"),
            "{text}"
        );
        assert!(text.ends_with("# EOF\n"), "{text}");
    }
}

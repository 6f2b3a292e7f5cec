//! Rate limits: a token bucket per connection for its messages, and one per address for
//! looking up room codes that do not exist, so codes cannot be guessed in bulk (reconnecting
//! does not reset it).

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Instant;

/// Tokens refill at `rate` a second up to `burst`; each message takes one.
#[derive(Clone, Debug)]
pub struct Bucket {
    tokens: f64,
    rate: f64,
    burst: f64,
    last: Instant,
}

impl Bucket {
    pub fn new(rate: f64, burst: f64) -> Bucket {
        Bucket {
            tokens: burst,
            rate,
            burst,
            last: Instant::now(),
        }
    }

    /// Whether a token is there now (refilled, none taken).
    pub fn has_token(&mut self) -> bool {
        self.refill(Instant::now());
        self.tokens >= 1.0
    }

    fn refill(&mut self, now: Instant) {
        let elapsed = now.saturating_duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
    }

    /// Take a token if there is one.
    pub fn take(&mut self) -> bool {
        self.take_at(Instant::now())
    }

    fn take_at(&mut self, now: Instant) -> bool {
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// Misses (codes with no room) per address, `per_minute` allowed with a burst of as many.
pub struct MissLimiter {
    per_minute: f64,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl MissLimiter {
    pub fn new(per_minute: f64) -> MissLimiter {
        MissLimiter {
            per_minute,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `addr` may look up one more code that might not exist.
    pub fn allow(&self, addr: IpAddr) -> bool {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        // Forget addresses whose bucket has refilled, so the map stays small.
        if buckets.len() > 10_000 {
            buckets.retain(|_, b| b.tokens < b.burst);
        }
        let bucket = buckets
            .entry(addr)
            .or_insert_with(|| Bucket::new(self.per_minute / 60.0, self.per_minute));
        bucket.has_token()
    }

    /// Count a miss against `addr`.
    pub fn missed(&self, addr: IpAddr) {
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(bucket) = buckets.get_mut(&addr) {
            bucket.take();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn a_bucket_allows_its_burst_then_its_rate() {
        let start = Instant::now();
        let mut b = Bucket::new(10.0, 5.0);
        b.last = start;
        assert_eq!((0..8).filter(|_| b.take_at(start)).count(), 5);
        assert!(!b.take_at(start + Duration::from_millis(50)));
        assert!(b.take_at(start + Duration::from_millis(160)));
    }

    #[test]
    fn misses_are_counted_per_address() {
        let limiter = MissLimiter::new(3.0);
        let a: IpAddr = "127.0.0.1".parse().unwrap();
        let b: IpAddr = "::1".parse().unwrap();
        for _ in 0..3 {
            assert!(limiter.allow(a));
            limiter.missed(a);
        }
        assert!(!limiter.allow(a));
        assert!(limiter.allow(b));
    }
}

//! The pools' share of Redis: each pool's members (`oaq:pool:KEY:members`, player → member)
//! and when each was last vouched for by the node they are connected to
//! (`oaq:pool:KEY:beat`), which node runs the pool's waves (`oaq:pool:KEY:runner`, a
//! claim that lapses unless renewed, so that another node takes over a lost node's pools), and
//! how many its last wave left waiting (`oaq:pool:KEY:waiting`, for every node's lobby; it
//! lapses with its runner).

use redis::Script;

use super::{Cluster, RENEW};

/// Renew the heartbeat of `ARGV[1]` only while it is still a member (a member paired or gone
/// is not brought back by its node's heartbeat).
const BEAT: &str = "if redis.call('hexists', KEYS[1], ARGV[1]) == 1 then redis.call('hset', KEYS[2], ARGV[1], ARGV[2]) return 1 else return 0 end";
/// Take two members out together, or neither (one left meanwhile).
const TAKE: &str = "if redis.call('hexists', KEYS[1], ARGV[1]) == 1 and redis.call('hexists', KEYS[1], ARGV[2]) == 1 then redis.call('hdel', KEYS[1], ARGV[1], ARGV[2]) redis.call('hdel', KEYS[2], ARGV[1], ARGV[2]) return 1 else return 0 end";

fn members(key: &str) -> String {
    format!("oaq:pool:{key}:members")
}

fn beats(key: &str) -> String {
    format!("oaq:pool:{key}:beat")
}

fn waiting(key: &str) -> String {
    format!("oaq:pool:{key}:waiting")
}

impl Cluster {
    pub async fn pool_add(
        &self,
        key: &str,
        player: &str,
        member: &str,
        now: i64,
    ) -> Result<(), String> {
        let mut pipe = redis::pipe();
        pipe.atomic()
            .hset(members(key), player, member)
            .ignore()
            .hset(beats(key), player, now)
            .ignore();
        let mut conn = self.conn.clone();
        self.timed("pool_add", pipe.query_async::<()>(&mut conn))
            .await
    }

    pub async fn pool_remove(&self, key: &str, player: &str) -> Result<(), String> {
        let mut pipe = redis::pipe();
        pipe.atomic()
            .hdel(members(key), player)
            .ignore()
            .hdel(beats(key), player)
            .ignore();
        let mut conn = self.conn.clone();
        self.timed("pool_remove", pipe.query_async::<()>(&mut conn))
            .await
    }

    /// Vouch for `player` still waiting; `false` when they are no longer a member.
    pub async fn pool_beat(&self, key: &str, player: &str, now: i64) -> Result<bool, String> {
        let script = Script::new(BEAT);
        let mut call = script.key(members(key));
        call.key(beats(key)).arg(player).arg(now);
        let mut conn = self.conn.clone();
        let n: i64 = self
            .timed("pool_beat", call.invoke_async(&mut conn))
            .await?;
        Ok(n == 1)
    }

    /// Every member: (player, member as stored, last heartbeat).
    pub async fn pool_members(&self, key: &str) -> Result<Vec<(String, String, i64)>, String> {
        let mut pipe = redis::pipe();
        pipe.hgetall(members(key)).hgetall(beats(key));
        let mut conn = self.conn.clone();
        let (all, beat): (
            std::collections::HashMap<String, String>,
            std::collections::HashMap<String, i64>,
        ) = self
            .timed("pool_members", pipe.query_async(&mut conn))
            .await?;
        Ok(all
            .into_iter()
            .map(|(p, m)| {
                let at = beat.get(&p).copied().unwrap_or(0);
                (p, m, at)
            })
            .collect())
    }

    /// Take `a` and `b` out of the pool to pair them: `false` when one has gone meanwhile.
    pub async fn pool_take(&self, key: &str, a: &str, b: &str) -> Result<bool, String> {
        let script = Script::new(TAKE);
        let mut call = script.key(members(key));
        call.key(beats(key)).arg(a).arg(b);
        let mut conn = self.conn.clone();
        let n: i64 = self
            .timed("pool_take", call.invoke_async(&mut conn))
            .await?;
        Ok(n == 1)
    }

    /// Say that `count` players wait in pool `key` after its last wave, for `ms` (a count no
    /// runner renews lapses with its node).
    pub async fn pool_count_set(&self, key: &str, count: u32, ms: u64) -> Result<(), String> {
        let mut set = redis::cmd("SET");
        set.arg(waiting(key)).arg(count).arg("PX").arg(ms.max(1));
        let mut conn = self.conn.clone();
        self.timed("pool_count_set", set.query_async::<()>(&mut conn))
            .await
    }

    /// How many wait in each of `keys` as their runners last said (none where no runner has).
    pub async fn pool_counts(&self, keys: &[String]) -> Result<Vec<Option<u32>>, String> {
        if keys.is_empty() {
            return Ok(Vec::new());
        }
        let mut get = redis::cmd("MGET");
        for key in keys {
            get.arg(waiting(key));
        }
        let mut conn = self.conn.clone();
        self.timed("pool_counts", get.query_async(&mut conn)).await
    }

    /// Whether this node runs pool `key`'s waves now: renew its claim, or take an unclaimed
    /// pool. The claim lasts `ms`.
    pub async fn pool_runner(&self, key: &str, has: bool, ms: u64) -> bool {
        self.runner(&format!("oaq:pool:{key}:runner"), has, ms)
            .await
    }

    /// Whether this node holds `claim` now: renewed when it had it (`has`), taken when no
    /// node holds it. The claim lasts `ms`; a lost node's lapses and another takes it.
    pub async fn runner(&self, claim: &str, has: bool, ms: u64) -> bool {
        let mut conn = self.conn.clone();
        if has {
            let script = Script::new(RENEW);
            let mut call = script.key(claim);
            call.arg(&self.node).arg(ms);
            if self
                .timed("pool_renew", call.invoke_async::<i64>(&mut conn))
                .await
                == Ok(1)
            {
                return true;
            }
        }
        let mut set = redis::cmd("SET");
        set.arg(claim).arg(&self.node).arg("NX").arg("PX").arg(ms);
        matches!(
            self.timed("pool_claim", set.query_async::<Option<String>>(&mut conn))
                .await,
            Ok(Some(_))
        )
    }
}

//! The writer's side: how long each stored change held the writer until it was durable, and how
//! many changes each commit carried (group commit, see `skirmish_db`'s `writer.rs`).

use super::{duration_buckets, histogram};
use prometheus::{Histogram, Registry};
use skirmish_db::{MAX_BATCH, WriteObserver, WriteTiming};

pub struct WriteMetrics {
    transaction_seconds: Histogram,
    batch_size: Histogram,
}

impl WriteMetrics {
    pub fn register(registry: &Registry) -> Result<Self, prometheus::Error> {
        let transaction_seconds = histogram(
            "skirmish_write_transaction_seconds",
            "Per stored change: its work in the writer's transaction plus the wait until that \
             transaction was durably committed (queueing for the writer excluded)",
            duration_buckets(),
        )?;
        let batch_size = histogram(
            "skirmish_write_batch_size",
            "Changes per committed transaction (group commit)",
            batch_buckets(),
        )?;
        registry.register(Box::new(transaction_seconds.clone()))?;
        registry.register(Box::new(batch_size.clone()))?;
        Ok(Self { transaction_seconds, batch_size })
    }
}

/// 1, 2, 4, … up to the most changes one transaction holds.
fn batch_buckets() -> Vec<f64> {
    std::iter::successors(Some(1usize), |size| (*size < MAX_BATCH).then(|| (size * 2).min(MAX_BATCH)))
        .map(|size| size as f64)
        .collect()
}

impl WriteObserver for WriteMetrics {
    fn wrote(&self, timing: &WriteTiming) {
        self.transaction_seconds.observe((timing.work + timing.durable).as_secs_f64());
    }

    fn committed(&self, changes: usize) {
        self.batch_size.observe(changes as f64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn batch_buckets_double_up_to_the_largest_batch() {
        assert_eq!(batch_buckets(), [1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0]);
        assert_eq!(MAX_BATCH, 64);
    }
}

//! Parallel loading with in-order delivery and bounded memory.
//!
//! Packs, metrics and searches must see files in selection order, but reading, redacting and (at
//! `compact`/`signatures`) parsing them is worth spreading over every core. Workers claim short
//! runs of files from the front of the list and the calling thread consumes the results in
//! order, so there is no barrier at which cores wait for the slowest file of a batch (with
//! batches, one large file at the end of each left a core idle: about 15 % of a detail pack).
//! Memory stays bounded: a worker claims the next file only while the claimed-but-unconsumed
//! files stay within a byte window, or when nothing is claimed at all (so one file larger than
//! the window still goes through).

use std::collections::VecDeque;
use std::sync::{Condvar, Mutex, MutexGuard};

/// Why [`for_each_ordered`] stopped early.
#[derive(Debug)]
pub enum Stopped<E> {
    /// `sink` returned this error.
    Sink(E),
    /// A worker panicked while loading; the results after it are lost.
    WorkerPanicked,
}

struct State<T> {
    /// Results from index `consumed` on; `None` while still loading.
    ready: VecDeque<Option<T>>,
    consumed: usize,
    /// Next index a worker may claim.
    next: usize,
    /// Cost of the claimed indexes not yet consumed.
    claimed_cost: u64,
    /// Set when the consumer stops or a worker panics: everyone leaves.
    stop: bool,
    panicked: bool,
    /// Waiters, so nobody pays for a wake-up call (a system call) that wakes no one.
    workers_waiting: usize,
    consumer_waiting: bool,
}

/// A worker claims up to this many consecutive items at once (one lock for many small files)...
const BATCH_ITEMS: usize = 32;
/// ... and stops adding to a claim at this cost, so large files spread over the workers.
const BATCH_COST: u64 = 256 * 1024;

struct Shared<T> {
    state: Mutex<State<T>>,
    /// Workers wait here for room in the window.
    room: Condvar,
    /// The consumer waits here for the next result.
    arrived: Condvar,
}

impl<T> Shared<T> {
    fn lock(&self) -> MutexGuard<'_, State<T>> {
        // A panic is recorded in the state itself; the data stays consistent under the lock.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Marks the run as failed if its worker unwinds, so the consumer does not wait forever.
struct PanicFlag<'a, T>(&'a Shared<T>);

impl<T> Drop for PanicFlag<'_, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let mut state = self.0.lock();
            state.panicked = true;
            state.stop = true;
            drop(state);
            self.0.arrived.notify_all();
            self.0.room.notify_all();
        }
    }
}

/// Stops the workers when the consumer leaves, also by a panic in `sink`: without it, workers
/// waiting for room in the window would wait forever and the scope would never end.
struct StopOnExit<'a, T>(&'a Shared<T>);

impl<T> Drop for StopOnExit<'_, T> {
    fn drop(&mut self) {
        self.0.lock().stop = true;
        self.0.room.notify_all();
    }
}

/// Calls `load(i)` for every `i` in `0..count` on `workers` threads and `sink(i, result)` on the
/// calling thread in increasing `i`. Loaded results not yet consumed cost at most
/// `window` (by `cost(i)`), plus one item when a single one exceeds it.
pub fn for_each_ordered<T: Send, E>(
    count: usize,
    workers: usize,
    window: u64,
    cost: impl Fn(usize) -> u64 + Sync,
    load: impl Fn(usize) -> T + Sync,
    mut sink: impl FnMut(usize, T) -> Result<(), E>,
) -> Result<(), Stopped<E>> {
    let shared = Shared {
        state: Mutex::new(State {
            ready: VecDeque::new(),
            consumed: 0,
            next: 0,
            claimed_cost: 0,
            stop: false,
            panicked: false,
            workers_waiting: 0,
            consumer_waiting: false,
        }),
        room: Condvar::new(),
        arrived: Condvar::new(),
    };
    let work = || {
        let _flag = PanicFlag(&shared);
        let mut batch: Vec<(usize, T)> = Vec::new();
        loop {
            // Claim a run of consecutive indexes: one lock for many small files.
            let (first, end) = {
                let mut state = shared.lock();
                loop {
                    if state.stop || state.next >= count {
                        return;
                    }
                    let c = cost(state.next);
                    if state.claimed_cost == 0 || state.claimed_cost + c <= window {
                        break;
                    }
                    state.workers_waiting += 1;
                    state = shared.room.wait(state).unwrap_or_else(|e| e.into_inner());
                    state.workers_waiting -= 1;
                }
                let first = state.next;
                let mut batch_cost = 0;
                while state.next < count && state.next - first < BATCH_ITEMS {
                    let c = cost(state.next);
                    let fits = state.claimed_cost == 0 || state.claimed_cost + c <= window;
                    if state.next > first && (!fits || batch_cost + c > BATCH_COST) {
                        break;
                    }
                    state.claimed_cost += c;
                    batch_cost += c;
                    state.next += 1;
                }
                (first, state.next)
            };
            batch.extend((first..end).map(|index| (index, load(index))));
            let mut state = shared.lock();
            for (index, result) in batch.drain(..) {
                let slot = index - state.consumed;
                if state.ready.len() <= slot {
                    state.ready.resize_with(slot + 1, || None);
                }
                state.ready[slot] = Some(result);
            }
            let wake = state.consumer_waiting && state.ready.front().is_some_and(Option::is_some);
            drop(state);
            if wake {
                shared.arrived.notify_one();
            }
        }
    };
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..workers.max(1)).map(|_| scope.spawn(work)).collect();
        let stop_on_exit = StopOnExit(&shared);
        let consumed = (|| {
            let mut taken: Vec<T> = Vec::new();
            // The results last taken stay in the window until they have all been consumed.
            let mut in_hand = 0u64;
            let mut index = 0;
            while index < count {
                {
                    let mut state = shared.lock();
                    state.claimed_cost -= std::mem::take(&mut in_hand);
                    if state.workers_waiting > 0 {
                        shared.room.notify_all();
                    }
                    // Everything ready at the front, in one go.
                    loop {
                        while let Some(slot) = state.ready.front_mut()
                            && let Some(result) = slot.take()
                        {
                            state.ready.pop_front();
                            taken.push(result);
                        }
                        if !taken.is_empty() {
                            break;
                        }
                        if state.panicked {
                            return Err(Stopped::WorkerPanicked);
                        }
                        state.consumer_waiting = true;
                        state = shared
                            .arrived
                            .wait(state)
                            .unwrap_or_else(|e| e.into_inner());
                        state.consumer_waiting = false;
                    }
                    in_hand = (index..index + taken.len()).map(&cost).sum();
                    state.consumed += taken.len();
                }
                for result in taken.drain(..) {
                    sink(index, result).map_err(Stopped::Sink)?;
                    index += 1;
                }
            }
            Ok(())
        })();
        drop(stop_on_exit);
        // Joined here, so a worker's panic becomes an error instead of unwinding the caller.
        let mut panicked = false;
        for worker in workers {
            panicked |= worker.join().is_err();
        }
        match consumed {
            Ok(()) if panicked => Err(Stopped::WorkerPanicked),
            other => other,
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::time::Duration;

    #[test]
    fn delivers_every_result_in_order_whatever_order_they_finish_in() {
        let mut seen = Vec::new();
        let outcome: Result<(), Stopped<()>> = for_each_ordered(
            200,
            4,
            50,
            |_| 1,
            |i| {
                // early items take longest, so later ones finish first
                if i % 7 == 0 {
                    std::thread::sleep(Duration::from_millis(2));
                }
                i * 3
            },
            |i, v| {
                seen.push((i, v));
                Ok(())
            },
        );
        assert!(outcome.is_ok());
        assert_eq!(seen, (0..200).map(|i| (i, i * 3)).collect::<Vec<_>>());
    }

    #[test]
    fn loaded_but_unconsumed_work_stays_within_the_window() {
        let loaded_ahead = AtomicU64::new(0);
        let peak = AtomicU64::new(0);
        let costs = |i: usize| (i % 5 + 1) as u64 * 10;
        let window = 100;
        let outcome: Result<(), Stopped<()>> = for_each_ordered(
            300,
            3,
            window,
            costs,
            |i| {
                let now = loaded_ahead.fetch_add(costs(i), Ordering::SeqCst) + costs(i);
                peak.fetch_max(now, Ordering::SeqCst);
                i
            },
            |i, _| {
                std::thread::sleep(Duration::from_micros(200)); // a slow consumer
                // consumed: from here the result's memory is the caller's business
                loaded_ahead.fetch_sub(costs(i), Ordering::SeqCst);
                Ok(())
            },
        );
        assert!(outcome.is_ok());
        let peak = peak.load(Ordering::SeqCst);
        assert!(peak <= window, "peak {peak} over the window {window}");
        assert!(
            peak >= window / 2,
            "the workers did run ahead (peak {peak})"
        );
    }

    #[test]
    fn an_item_larger_than_the_window_still_goes_through() {
        let mut got = Vec::new();
        let outcome: Result<(), Stopped<()>> = for_each_ordered(
            5,
            2,
            10,
            |i| if i == 2 { 1_000 } else { 1 },
            |i| i,
            |_, v| {
                got.push(v);
                Ok(())
            },
        );
        assert!(outcome.is_ok());
        assert_eq!(got, vec![0, 1, 2, 3, 4]);
    }

    #[test]
    fn a_sink_error_stops_the_workers_early() {
        let loads = AtomicU64::new(0);
        let outcome = for_each_ordered(
            100_000,
            2,
            8,
            |_| 1,
            |i| {
                loads.fetch_add(1, Ordering::SeqCst);
                i
            },
            |i, _| if i == 10 { Err("full") } else { Ok(()) },
        );
        assert!(matches!(outcome, Err(Stopped::Sink("full"))));
        let loads = loads.load(Ordering::SeqCst);
        assert!(loads <= 11 + 8 + 2, "{loads} loads after the sink stopped");
    }

    #[test]
    fn a_panicking_sink_unwinds_instead_of_hanging() {
        let outcome = std::panic::catch_unwind(|| {
            let _: Result<(), Stopped<()>> = for_each_ordered(
                10_000,
                2,
                4, // small: the workers soon wait for room
                |_| 1,
                |i| i,
                |i, _| {
                    assert!(i != 5, "sink failed");
                    Ok(())
                },
            );
        });
        assert!(outcome.is_err(), "the panic reaches the caller");
    }

    #[test]
    fn a_panicking_load_is_an_error_not_a_hang() {
        let mut delivered = 0;
        let outcome: Result<(), Stopped<()>> = for_each_ordered(
            50,
            2,
            4,
            |_| 1,
            |i| {
                assert!(i != 17, "load failed");
                i
            },
            |_, _| {
                delivered += 1;
                Ok(())
            },
        );
        assert!(matches!(outcome, Err(Stopped::WorkerPanicked)));
        assert!(
            delivered <= 17,
            "nothing from the failed item on: {delivered}"
        );
    }
}

//! Work over many items on several threads, with the results handed on in item order as soon
//! as each is next in line: the parallel half of [`crate::walk`] (a streamed walk feeds it).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use super::{Candidate, WalkTail, Walker};

/// Runs `work` on every file of `walker` with `threads` workers, as the walk finds them, and
/// hands the results to `emit` in path order (see [`for_each_ordered_batches`]); `emit` returns
/// `false` to stop early. `work` is also told whether the file is the walk's only one: the first
/// file is held back until a second comes or the walk ends. `weigh`: what a result holds, in
/// bytes, roughly. Collected first and worked on after, the files of the Rust corpus copied 16
/// times waited for the whole walk: `find from_utf8` at `-j16` on the 16-core machine took 427
/// ms, 3.3 times `rg -w`.
pub fn for_each_file<R, W, G, E>(
    walker: Walker,
    threads: usize,
    work: W,
    weigh: G,
    emit: E,
) -> WalkTail
where
    R: Send,
    W: Fn(&Candidate, bool) -> R + Sync,
    G: Fn(&R) -> usize + Sync,
    E: FnMut(R) -> bool,
{
    // One named file: no worker thread to start (nor its stack and heap to map).
    let threads = if walker.is_one_file() { 1 } else { threads };
    let only = AtomicBool::new(false);
    let only = &only;
    for_each_ordered_batches(
        |push: &mut dyn FnMut(Candidate) -> bool| {
            let mut first = None;
            let mut more = false;
            let tail = walker.stream(&mut |c| {
                if more {
                    return push(c);
                }
                match first.take() {
                    None => {
                        first = Some(c);
                        true
                    }
                    Some(f) => {
                        more = true;
                        push(f) && push(c)
                    }
                }
            });
            if let Some(f) = first {
                // Set before the file is queued, which the worker taking it sees.
                only.store(true, Ordering::Relaxed);
                push(f);
            }
            tail
        },
        threads,
        || (),
        |(), c| work(&c, only.load(Ordering::Relaxed)),
        |_, _| {},
        weigh,
        emit,
    )
}

/// Runs `work` on every item with `threads` workers and hands the results to `emit` in item
/// order, as soon as each is next in line; `emit` returns `false` to stop early. The items
/// come from `produce` (typically [`Walker::stream`](crate::walk::Walker::stream), run on its
/// own thread so that work starts before the walk ends), each worker keeps a state made by
/// `init` (buffers, a searcher) across its items, and it also gets to finish the results of
/// each batch of items it worked on (`finish`, with its state, the results in item order)
/// before they are handed on: for work that is cheaper done on several items together.
/// Single-threaded, batches are worked and handed on in turn. `weigh` tells what a result
/// holds (its bytes, roughly): the results waiting for an earlier one are bounded by their
/// weight as well as their number.
#[allow(clippy::too_many_arguments)]
pub fn for_each_ordered_batches<T, S, R, P, PR, I, W, F, G, E>(
    produce: P,
    threads: usize,
    init: I,
    work: W,
    finish: F,
    weigh: G,
    mut emit: E,
) -> PR
where
    T: Send,
    R: Send,
    PR: Send,
    P: FnOnce(&mut dyn FnMut(T) -> bool) -> PR + Send,
    I: Fn() -> S + Sync,
    W: Fn(&mut S, T) -> R + Sync,
    F: Fn(&mut S, &mut [R]) + Sync,
    G: Fn(&R) -> usize + Sync,
    E: FnMut(R) -> bool,
{
    const BATCH: usize = 16;
    if threads <= 1 {
        // In batches too, for `finish` (a search checksums two files at a time), handed on at
        // the end of each batch or once they weigh 1 MiB.
        let mut state = init();
        let mut results = Vec::with_capacity(BATCH);
        let mut weight = 0;
        let mut going = true;
        let mut flush = |state: &mut S, results: &mut Vec<R>| {
            finish(state, results);
            results.drain(..).all(&mut emit)
        };
        let out = produce(&mut |item| {
            let r = work(&mut state, item);
            weight += weigh(&r);
            results.push(r);
            if results.len() == BATCH || weight >= 1 << 20 {
                going = flush(&mut state, &mut results);
                weight = 0;
            }
            going
        });
        if going && !results.is_empty() {
            flush(&mut state, &mut results);
        }
        // The work is done (what the threads of a big file's outline free as they end, too).
        crate::memory::keep_freed();
        return out;
    }
    // Items and results travel in batches: one lock and at most one wake-up per batch, not
    // per file. The items handed out and not yet handed on (queued, being worked on, or done
    // and waiting for an earlier one) are bounded in number by `window`, and the results
    // waiting by their weight (`held`): memory holds a window of results whatever the size of
    // the tree, and a slow reader of the output holds the workers back. The window is wide
    // (a few hundred files per thread) because a slow file at its front stalls every worker
    // once it is full: on 16 cores, 256 files made searches 1.5–1.8× slower than 4,096.
    // The calling thread walks, and between batches hands on the results that are ready; once
    // the walk is done it waits for the rest. (A walk thread of its own, next to the workers
    // and a thread waiting on results, made four threads share two cores: twice the context
    // switches.)
    // 512 KiB of results per thread: with 24 MiB (checked only by the walk, so that the
    // workers ran on through what was queued), `--format jsonl` on the Rust corpus copied 16
    // times held 30 MB of results at `-j12` and its peak RSS grew with the tree.
    let held = (threads << 19).max(1 << 20);
    let window = (threads * 256).max(1024);
    let stop = AtomicBool::new(false);
    let queue = BatchQueue::new(held);
    let (tx, rx) = mpsc::sync_channel::<Vec<(usize, R, usize)>>(threads * 4);
    let (stop, queue, init, work, finish, weigh) = (&stop, &queue, &init, &work, &finish, &weigh);
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            scope.spawn(move || {
                let mut state = init();
                let mut batch = Vec::with_capacity(BATCH);
                while queue.pop(&mut batch, BATCH) {
                    if stop.load(Ordering::Relaxed) {
                        break;
                    }
                    let (indices, mut results): (Vec<usize>, Vec<R>) = batch
                        .drain(..)
                        .map(|(i, item)| (i, work(&mut state, item)))
                        .unzip();
                    finish(&mut state, &mut results);
                    let results: Vec<(usize, R, usize)> = indices
                        .into_iter()
                        .zip(results)
                        .map(|(i, r)| {
                            let w = weigh(&r);
                            (i, r, w)
                        })
                        .collect();
                    queue.hold(results.iter().map(|r| r.2).sum());
                    if tx.send(results).is_err() {
                        break;
                    }
                }
                // No work is left for anyone: what this thread frees as it ends goes with
                // the process.
                crate::memory::keep_freed();
            });
        }
        drop(tx);
        let mut order = InOrder {
            pending: BTreeMap::new(),
            want: 0,
            queue,
            emit: &mut emit,
            stopped: false,
        };
        let mut n = 0usize;
        let mut batch = Vec::with_capacity(BATCH);
        let out = produce(&mut |item| {
            if order.stopped {
                return false;
            }
            batch.push((n, item));
            n += 1;
            if batch.len() == BATCH {
                queue.push(&mut batch, false);
                while let Ok(results) = rx.try_recv() {
                    order.take(results);
                }
                // Far enough ahead of the reader: wait for results (the workers never wait
                // for the walk while the queue holds items, so results keep coming).
                while n > order.want && n - order.want > window && !order.stopped {
                    match rx.recv() {
                        Ok(results) => order.take(results),
                        Err(_) => break,
                    }
                }
                if order.stopped {
                    stop.store(true, Ordering::Relaxed);
                    queue.abort();
                }
            }
            !order.stopped
        });
        queue.push(&mut batch, true);
        for results in rx.iter() {
            order.take(results);
            if order.stopped {
                stop.store(true, Ordering::Relaxed);
                queue.abort();
            }
        }
        out
    })
}

/// Results that arrive out of order, handed to `emit` in order.
struct InOrder<'a, R, T, E> {
    /// Results by index, with their weight.
    pending: BTreeMap<usize, (R, usize)>,
    want: usize,
    /// Where the weight of the results handed on is released.
    queue: &'a BatchQueue<T>,
    emit: &'a mut E,
    /// `emit` said to stop: later results are dropped.
    stopped: bool,
}

impl<R, T, E: FnMut(R) -> bool> InOrder<'_, R, T, E> {
    fn take(&mut self, results: Vec<(usize, R, usize)>) {
        if self.stopped {
            return;
        }
        for (i, r, w) in results {
            self.pending.insert(i, (r, w));
        }
        // The weight is released as the results are handed on, not once the run of them is
        // (which can be the whole window, written out through a pipe): the workers held back
        // by it go on while the rest is written. On the 16-core machine, a json search spent
        // a third of its time with one thread writing and the others waiting.
        const RELEASE_EVERY: usize = 256 << 10;
        let mut released = 0;
        while let Some((r, w)) = self.pending.remove(&self.want) {
            self.want += 1;
            released += w;
            if !(self.emit)(r) {
                self.stopped = true;
                self.pending.clear();
                break;
            }
            if released >= RELEASE_EVERY {
                self.queue.release(std::mem::take(&mut released));
            }
        }
        self.queue.release(released);
    }
}

/// The work queue of [`for_each_ordered_batches`]: items in batches, whether the producer is
/// done, how many workers wait (a wake-up is a system call: only made for a waiter), and the
/// weight of the results done and not yet handed on. A worker takes no more items while that
/// weight is over `limit`: the results waiting for an earlier one stay bounded whatever was
/// already queued. (That never stalls the run: while any weight is held, the earliest item
/// not handed on has been taken by a worker, which finishes it without waiting.)
struct BatchQueue<T> {
    state: std::sync::Mutex<QueueState<T>>,
    ready: std::sync::Condvar,
    limit: usize,
}

struct QueueState<T> {
    items: std::collections::VecDeque<T>,
    done: bool,
    waiting: usize,
    held: usize,
}

impl<T> BatchQueue<T> {
    fn new(limit: usize) -> Self {
        BatchQueue {
            state: std::sync::Mutex::new(QueueState {
                items: std::collections::VecDeque::new(),
                done: false,
                waiting: 0,
                held: 0,
            }),
            ready: std::sync::Condvar::new(),
            limit,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, QueueState<T>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Moves `items` into the queue (and marks it finished when `done`), waking a waiting
    /// worker (all of them at the end).
    fn push(&self, items: &mut Vec<T>, done: bool) {
        let mut state = self.lock();
        state.items.extend(items.drain(..));
        state.done |= done;
        let waiting = state.waiting;
        drop(state);
        if done {
            self.ready.notify_all();
        } else if waiting > 0 {
            self.ready.notify_one();
        }
    }

    /// Drops the items not taken and finishes the queue: the run stops.
    fn abort(&self) {
        let mut state = self.lock();
        state.items.clear();
        state.done = true;
        drop(state);
        self.ready.notify_all();
    }

    /// Adds the weight of results done.
    fn hold(&self, weight: usize) {
        let mut state = self.lock();
        state.held += weight;
    }

    /// Removes the weight of results handed on, waking the workers that waited for it.
    fn release(&self, weight: usize) {
        if weight == 0 {
            return;
        }
        let mut state = self.lock();
        let was_over = state.held > self.limit;
        state.held -= weight;
        let wake = was_over && state.held <= self.limit && state.waiting > 0;
        drop(state);
        if wake {
            self.ready.notify_all();
        }
    }

    /// Waits for items (and for the results held to weigh at most the limit) and moves up to
    /// `max` into `out`; `false` once the queue is finished and empty.
    fn pop(&self, out: &mut Vec<T>, max: usize) -> bool {
        let mut state = self.lock();
        while (state.items.is_empty() && !state.done)
            || (!state.items.is_empty() && state.held > self.limit)
        {
            state.waiting += 1;
            state = self.ready.wait(state).unwrap_or_else(|e| e.into_inner());
            state.waiting -= 1;
        }
        let n = state.items.len().min(max);
        out.extend(state.items.drain(..n));
        n > 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;

    #[test]
    fn ordered_stream_keeps_order_and_stops() {
        for threads in [1, 2, 4] {
            let mut seen = Vec::new();
            let produced = for_each_ordered_batches(
                |push: &mut dyn FnMut(usize) -> bool| (0..1000).take_while(|&i| push(i)).count(),
                threads,
                || 0usize,
                |calls, i| {
                    *calls += 1;
                    i * 3
                },
                |_, _| {},
                |_| 0,
                |r| {
                    seen.push(r);
                    seen.len() < 700
                },
            );
            assert_eq!(seen, (0..700).map(|i| i * 3).collect::<Vec<_>>());
            assert!(produced >= 699, "{produced}");
        }
    }

    /// A slow first item: the others wait for it within the window instead of piling up.
    #[test]
    fn ordered_stream_stays_within_its_window() {
        let started = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let mut most_ahead = 0;
        for_each_ordered_batches(
            |push: &mut dyn FnMut(usize) -> bool| (0..4000).take_while(|&i| push(i)).count(),
            2,
            || (),
            |(), i| {
                if i == 0 {
                    // Until the other worker is held back by the window: no item started
                    // for 50 ms.
                    let t = std::time::Instant::now();
                    let mut last = usize::MAX;
                    while t.elapsed() < std::time::Duration::from_secs(5) {
                        let now = started.load(Ordering::SeqCst);
                        if now == last {
                            break;
                        }
                        last = now;
                        std::thread::sleep(std::time::Duration::from_millis(50));
                    }
                }
                started.fetch_add(1, Ordering::SeqCst);
                i
            },
            |_, _| {},
            |_| 0,
            |r| {
                if r == 0 {
                    most_ahead = started.load(Ordering::SeqCst);
                }
                seen.push(r);
                true
            },
        );
        assert_eq!(seen, (0..4000).collect::<Vec<_>>());
        // The window is 1,024 items at two threads, and items are queued 16 at a time: no
        // more had started when the first came (the other worker did start some: the test
        // sees the window, not a stalled run).
        assert!(most_ahead <= 1024 + 16, "{most_ahead} items started");
        assert!(most_ahead >= 900, "{most_ahead} items started");
    }
}

//! Work over many items on several threads, with the results handed on in item order as soon
//! as each is next in line: the parallel half of [`crate::walk`] (a streamed walk feeds it).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item with `threads` workers and hands the results to `emit` in item
/// order, as soon as each is next in line. `emit` returns `false` to stop early.
/// Memory stays bounded by how far workers run ahead of the slowest item: no worker takes an
/// item more than a window of items past the first one not yet handed on, so that the results
/// waiting for a slow file are bounded in number whatever the size of the tree.
pub fn for_each_ordered<T, R, W, E>(items: &[T], threads: usize, work: W, mut emit: E)
where
    T: Sync,
    R: Send,
    W: Fn(&T) -> R + Sync,
    E: FnMut(R) -> bool,
{
    if threads <= 1 || items.len() <= 1 {
        for item in items {
            if !emit(work(item)) {
                return;
            }
        }
        return;
    }
    let window = (threads * 64).max(256);
    // Items are taken, and their results sent, in runs of consecutive items: one atomic add,
    // one send (and at most one wake-up of the thread that emits) per run. One at a time,
    // `find from_utf8 --json -j2` on the Rust corpus (3,800 files, most of them left out by
    // the prefilter in microseconds) made 3,105 context switches and used 126 ms of CPU,
    // against 84 ms at `-j1`. Runs stay short enough that each worker gets many.
    let run = (items.len() / (threads * 32)).clamp(1, 16);
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let handed = Handed::default();
    let (tx, rx) = mpsc::sync_channel::<(usize, Vec<R>)>(threads * 4);
    let work = &work;
    let next = &next;
    let stop = &stop;
    let handed = &handed;
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let tx = tx.clone();
            scope.spawn(move || loop {
                if stop.load(Ordering::Relaxed) {
                    break;
                }
                let start = next.fetch_add(run, Ordering::Relaxed);
                if start >= items.len() || !handed.wait_below(start, window) {
                    break;
                }
                let end = (start + run).min(items.len());
                let results: Vec<R> = items[start..end].iter().map(work).collect();
                if tx.send((start, results)).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        // Runs waiting for an earlier one, by their first item.
        let mut pending: BTreeMap<usize, Vec<R>> = BTreeMap::new();
        let mut want = 0;
        let mut stopped = false;
        for (start, results) in rx.iter() {
            if stopped {
                continue;
            }
            pending.insert(start, results);
            let before = want;
            'runs: while let Some(results) = pending.remove(&want) {
                for r in results {
                    want += 1;
                    if !emit(r) {
                        stop.store(true, Ordering::Relaxed);
                        stopped = true;
                        pending.clear();
                        break 'runs;
                    }
                }
            }
            if stopped {
                handed.finish();
            } else if want != before {
                handed.set(want);
            }
        }
    });
}

/// How many results [`for_each_ordered`] handed on (`usize::MAX` once it stopped), for the
/// workers to wait on before running too far ahead.
#[derive(Default)]
struct Handed {
    count: std::sync::Mutex<usize>,
    /// Workers waiting.
    waiting: AtomicUsize,
    moved: std::sync::Condvar,
}

impl Handed {
    fn lock(&self) -> std::sync::MutexGuard<'_, usize> {
        self.count.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn set(&self, count: usize) {
        *self.lock() = count;
        if self.waiting.load(Ordering::SeqCst) > 0 {
            self.moved.notify_all();
        }
    }

    fn finish(&self) {
        self.set(usize::MAX);
    }

    /// Waits until item `i` is within `window` of the first not handed on; `false` once the
    /// run stopped. (The item handed on next has been taken, by a worker that does not wait:
    /// this never stalls the run.)
    fn wait_below(&self, i: usize, window: usize) -> bool {
        let mut count = self.lock();
        while *count != usize::MAX && i >= count.saturating_add(window) {
            self.waiting.fetch_add(1, Ordering::SeqCst);
            count = self.moved.wait(count).unwrap_or_else(|e| e.into_inner());
            self.waiting.fetch_sub(1, Ordering::SeqCst);
        }
        *count != usize::MAX
    }
}

/// Like [`for_each_ordered`], but the items come from `produce` (typically
/// [`Walker::stream`](crate::walk::Walker::stream), run on its own thread so that work starts
/// before the walk ends), each worker keeps a state made by `init` (buffers, a searcher) across
/// its items, and it also gets to finish the results of each batch of items it worked on
/// (`finish`, with its state, the results in item order) before they are handed on: for work
/// that is cheaper done on several items together. Single-threaded, each
/// item is a batch of its own. `weigh` tells what a result holds (its bytes, roughly): the
/// results waiting for an earlier one are bounded by their weight as well as their number.
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
    if threads <= 1 {
        let mut state = init();
        return produce(&mut |item| {
            let mut r = [work(&mut state, item)];
            finish(&mut state, &mut r);
            let [r] = r;
            emit(r)
        });
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
    const BATCH: usize = 16;
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
        let mut released = 0;
        while let Some((r, w)) = self.pending.remove(&self.want) {
            self.want += 1;
            released += w;
            if !(self.emit)(r) {
                self.stopped = true;
                self.pending.clear();
                break;
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

    #[test]
    fn ordered_map_keeps_order() {
        let items: Vec<usize> = (0..500).collect();
        let mut seen = Vec::new();
        for_each_ordered(
            &items,
            4,
            |&i| i * 2,
            |r| {
                seen.push(r);
                true
            },
        );
        assert_eq!(seen, items.iter().map(|i| i * 2).collect::<Vec<_>>());
    }

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
    fn ordered_map_stays_within_its_window() {
        let items: Vec<usize> = (0..2000).collect();
        let started = AtomicUsize::new(0);
        let mut seen = Vec::new();
        let mut most_ahead = 0;
        for_each_ordered(
            &items,
            2,
            |&i| {
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
            |r| {
                if r == 0 {
                    most_ahead = started.load(Ordering::SeqCst);
                }
                seen.push(r);
                true
            },
        );
        assert_eq!(seen, items);
        // The window is 256 items: no more had started when the first came (the other
        // worker did start some: the test sees the window, not a stalled run).
        assert!(most_ahead <= 256, "{most_ahead} items started");
        assert!(most_ahead >= 200, "{most_ahead} items started");
    }

    #[test]
    fn ordered_map_stops_early() {
        let items: Vec<usize> = (0..500).collect();
        let mut seen = 0;
        for_each_ordered(
            &items,
            3,
            |&i| i,
            |_| {
                seen += 1;
                seen < 10
            },
        );
        assert_eq!(seen, 10);
    }
}

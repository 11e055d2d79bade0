//! Work over many items on several threads, with the results handed on in item order as soon
//! as each is next in line: the parallel half of [`crate::walk`] (a streamed walk feeds it).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};

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
/// come from `produce` (typically [`Walker::stream`](crate::walk::Walker::stream), run beside
/// the work so that work starts before the walk ends: below 4 threads on a worker, which works
/// on items too when the others fall behind; from 4 on, on the calling thread, whose walk has
/// threads of its own), each worker keeps a state made by
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
    // Who walks: see `produce_on_worker` below. The calling thread hands on the results.
    // 512 KiB of results per thread: with 24 MiB (checked only by the walk, so that the
    // workers ran on through what was queued), `--format jsonl` on the Rust corpus copied 16
    // times held 30 MB of results at `-j12` and its peak RSS grew with the tree.
    let held = (threads << 19).max(1 << 20);
    let window = (threads * 256).max(1024);
    let stop = AtomicBool::new(false);
    let queue = BatchQueue::new(held);
    let reader = Reader::default();
    let done = Done::new(threads);
    let (stop, queue, reader, done) = (&stop, &queue, &reader, &done);
    let (init, work, finish, weigh) = (&init, &work, &finish, &weigh);
    // Works a batch of items and sends its results on; `false` once the reader is gone.
    let work_batch = |state: &mut S, batch: &mut Vec<(usize, T)>| {
        let (indices, mut results): (Vec<usize>, Vec<R>) = batch
            .drain(..)
            .map(|(i, item)| (i, work(&mut *state, item)))
            .unzip();
        finish(state, &mut results);
        let results: Vec<(usize, R, usize)> = indices
            .into_iter()
            .zip(results)
            .map(|(i, r)| {
                let w = weigh(&r);
                (i, r, w)
            })
            .collect();
        queue.hold(results.iter().map(|r| r.2).sum());
        done.send(results)
    };
    let work_batch = &work_batch;
    // Takes batches until the queue is finished.
    let work_queue = |state: &mut S| {
        let mut batch = Vec::with_capacity(BATCH);
        while queue.pop(&mut batch, BATCH) {
            if stop.load(Ordering::Relaxed) || !work_batch(state, &mut batch) {
                break;
            }
        }
        // No work is left for anyone: what this thread frees as it ends goes with the
        // process.
        crate::memory::keep_freed();
    };
    let work_queue = &work_queue;
    // Below the threads that split a walk, the walk is one thread's: a worker's, which works
    // on items too whenever the others fall behind, so that as many threads are busy as were
    // asked for. On the calling thread, beside the workers, the walk made three busy threads
    // at `-j2` on two cores: `search -c` on the Rust corpus took 33.6 ms, 30.0 with the walk
    // on a worker (human 41.7 → 40.5, json 54.2 → 53.9). (A walk thread of its own, next to
    // the workers and a thread waiting on results, made four threads share two cores: twice
    // the context switches.) From there on the walk has threads of its own and the calling
    // thread reads them, between batches handing on the results that are ready.
    let produce_on_worker = threads < super::SPLIT_WALK_FROM;
    std::thread::scope(|scope| {
        let mut producer = None;
        let mut produce = Some(produce);
        for w in 0..threads {
            if produce_on_worker && w == 0 {
                let produce = produce.take().expect("one producer");
                producer = Some(scope.spawn(move || {
                    let _ended = Ended {
                        done,
                        queue,
                        reader,
                        stop,
                    };
                    let _finished = Finished(queue);
                    let mut state = init();
                    let mut items = Vec::with_capacity(BATCH);
                    let mut spare = Vec::with_capacity(BATCH);
                    let mut n = 0usize;
                    let out = produce(&mut |item| {
                        items.push((n, item));
                        n += 1;
                        if items.len() == BATCH {
                            queue.push(&mut items, false);
                            // More queued than the other workers take: search some here.
                            while queue.longer_than(QUEUED_AHEAD * BATCH)
                                && queue.try_pop(&mut spare, BATCH)
                            {
                                if !work_batch(&mut state, &mut spare) {
                                    return false;
                                }
                            }
                            // Far enough ahead of the reader: help, or wait for it.
                            while n - reader.want() > window && !stop.load(Ordering::Relaxed) {
                                if queue.try_pop(&mut spare, BATCH) {
                                    if !work_batch(&mut state, &mut spare) {
                                        return false;
                                    }
                                } else {
                                    reader.wait_past(n - window, stop);
                                }
                            }
                        }
                        !stop.load(Ordering::Relaxed)
                    });
                    queue.push(&mut items, true);
                    work_queue(&mut state);
                    out
                }));
            } else {
                scope.spawn(move || {
                    let _ended = Ended {
                        done,
                        queue,
                        reader,
                        stop,
                    };
                    work_queue(&mut init());
                });
            }
        }
        let mut order = InOrder {
            pending: BTreeMap::new(),
            want: 0,
            queue,
            emit: &mut emit,
            stopped: false,
        };
        let mut came = Vec::new();
        let take = |order: &mut InOrder<'_, R, (usize, T), E>, came: &mut Vec<_>| {
            for results in came.drain(..) {
                order.take(results);
            }
            if order.stopped {
                stop.store(true, Ordering::Relaxed);
                queue.abort();
                done.close();
            }
            reader.advance(order.want, order.stopped);
        };
        let out = match produce {
            Some(produce) => {
                let _finished = Finished(queue);
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
                        done.try_take(&mut came);
                        take(&mut order, &mut came);
                        // Far enough ahead of the reader: wait for results (the workers never
                        // wait for the walk while the queue holds items, so results keep
                        // coming).
                        while n > order.want && n - order.want > window && !order.stopped {
                            if !done.take_until(order.want, &mut came) {
                                break;
                            }
                            take(&mut order, &mut came);
                        }
                    }
                    !order.stopped
                });
                queue.push(&mut batch, true);
                Some(out)
            }
            None => None,
        };
        while done.take_until(order.want, &mut came) {
            take(&mut order, &mut came);
        }
        match (out, producer) {
            (Some(out), _) => out,
            (None, Some(p)) => p.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            (None, None) => unreachable!("the items were produced here or on a worker"),
        }
    })
}

/// The results of the batches worked, on their way to the calling thread, which sleeps until
/// the one it hands on next has come: a worker wakes it only with that one. (With a channel,
/// each batch sent woke it: at `-j2` on the Rust corpus, 540 context switches a search.)
struct Done<R> {
    state: std::sync::Mutex<DoneState<R>>,
    came: std::sync::Condvar,
}

struct DoneState<R> {
    batches: Vec<Vec<(usize, R, usize)>>,
    /// Workers not yet ended.
    workers: usize,
    /// The result the calling thread waits for.
    wanted: Option<usize>,
    /// The calling thread takes no more results.
    closed: bool,
}

impl<R> Done<R> {
    fn new(workers: usize) -> Self {
        Done {
            state: std::sync::Mutex::new(DoneState {
                batches: Vec::new(),
                workers,
                wanted: None,
                closed: false,
            }),
            came: std::sync::Condvar::new(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DoneState<R>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Hands on a batch's results; `false` once the calling thread takes no more.
    fn send(&self, results: Vec<(usize, R, usize)>) -> bool {
        let mut state = self.lock();
        if state.closed {
            return false;
        }
        let wake = state
            .wanted
            .is_some_and(|w| results.iter().any(|r| r.0 == w));
        if wake {
            state.wanted = None;
        }
        state.batches.push(results);
        drop(state);
        if wake {
            self.came.notify_one();
        }
        true
    }

    /// A worker ended (see [`Ended`]).
    fn ended(&self) {
        let mut state = self.lock();
        state.workers -= 1;
        let wake = state.workers == 0 && state.wanted.is_some();
        drop(state);
        if wake {
            self.came.notify_one();
        }
    }

    fn close(&self) {
        self.lock().closed = true;
    }

    /// Moves the batches that came into `out`.
    fn try_take(&self, out: &mut Vec<Vec<(usize, R, usize)>>) {
        out.append(&mut self.lock().batches);
    }

    /// Waits for the result `want` (or for every worker to end) and moves the batches that
    /// came into `out`; `false` when none came and every worker ended.
    fn take_until(&self, want: usize, out: &mut Vec<Vec<(usize, R, usize)>>) -> bool {
        let mut state = self.lock();
        loop {
            let came = state.batches.iter().flatten().any(|r| r.0 == want);
            if came || state.workers == 0 {
                state.wanted = None;
                out.append(&mut state.batches);
                return !out.is_empty();
            }
            state.wanted = Some(want);
            state = self.came.wait(state).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// Finishes the queue when the items are produced, however that ends (a panic too: the
/// workers waiting for items end, and the run with them).
struct Finished<'a, T>(&'a BatchQueue<T>);

impl<T> Drop for Finished<'_, T> {
    fn drop(&mut self) {
        self.0.push(&mut Vec::new(), true);
    }
}

/// Tells [`Done`] that a worker ended, however it ends; a worker that panics stops the run
/// (the threads waiting on it end, and the panic goes on to the caller).
struct Ended<'a, R, T> {
    done: &'a Done<R>,
    queue: &'a BatchQueue<T>,
    reader: &'a Reader,
    stop: &'a AtomicBool,
}

impl<R, T> Drop for Ended<'_, R, T> {
    fn drop(&mut self) {
        if std::thread::panicking() {
            self.stop.store(true, Ordering::Relaxed);
            self.queue.abort();
            self.done.close();
            self.reader.advance(self.reader.want(), true);
        }
        self.done.ended();
    }
}

/// Batches queued past which a worker that walks searches some itself.
const QUEUED_AHEAD: usize = 8;

/// How far the results are handed on, for a producer on a worker thread that got too far
/// ahead of them (see [`for_each_ordered_batches`]).
#[derive(Default)]
struct Reader {
    want: std::sync::atomic::AtomicUsize,
    waiting: std::sync::Mutex<bool>,
    moved: std::sync::Condvar,
}

impl Reader {
    fn want(&self) -> usize {
        self.want.load(Ordering::Acquire)
    }

    /// The results before `want` are handed on (or, `stopped`, none will be).
    fn advance(&self, want: usize, stopped: bool) {
        let before = self.want.swap(want, Ordering::AcqRel);
        if before == want && !stopped {
            return;
        }
        let waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        if *waiting {
            self.moved.notify_all();
        }
    }

    /// Waits until the results before `want` are handed on, or the run stops.
    fn wait_past(&self, want: usize, stop: &AtomicBool) {
        let mut waiting = self.waiting.lock().unwrap_or_else(|e| e.into_inner());
        while self.want() < want && !stop.load(Ordering::Relaxed) {
            *waiting = true;
            waiting = self.moved.wait(waiting).unwrap_or_else(|e| e.into_inner());
        }
        *waiting = false;
    }
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

    /// Whether more than `items` are queued.
    fn longer_than(&self, items: usize) -> bool {
        self.lock().items.len() > items
    }

    /// Moves up to `max` items into `out` if there are any and the results held weigh at
    /// most the limit, without waiting.
    fn try_pop(&self, out: &mut Vec<T>, max: usize) -> bool {
        let mut state = self.lock();
        if state.items.is_empty() || state.held > self.limit {
            return false;
        }
        let n = state.items.len().min(max);
        out.extend(state.items.drain(..n));
        true
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

    /// A worker that panics ends the run with its panic, whoever walks (not a run waiting
    /// forever on its results).
    #[test]
    fn a_panicking_worker_ends_the_run() {
        for threads in [2, 3, 4] {
            let run = std::panic::catch_unwind(|| {
                for_each_ordered_batches(
                    |push: &mut dyn FnMut(usize) -> bool| {
                        (0..100_000).take_while(|&i| push(i)).count()
                    },
                    threads,
                    || (),
                    |(), i| {
                        assert!(i != 500, "item 500");
                        i
                    },
                    |_, _| {},
                    |_| 0,
                    |_| true,
                )
            });
            assert!(run.is_err(), "{threads} threads");
        }
    }

    /// A slow item: the others wait for it within the window instead of piling up. The slow
    /// one is the first item a thread other than the walking one works on (at 2 threads a
    /// worker walks, and a walk held up by its own slow item holds the window back itself).
    #[test]
    fn ordered_stream_stays_within_its_window() {
        for threads in [2, 4] {
            let started = AtomicUsize::new(0);
            let slow = std::sync::OnceLock::new();
            let producer = std::sync::OnceLock::new();
            let mut seen = Vec::new();
            let mut ahead = None;
            for_each_ordered_batches(
                |push: &mut dyn FnMut(usize) -> bool| {
                    producer.get_or_init(|| std::thread::current().id());
                    // The workers are all started (else the walking one may work on every
                    // item, these being instant).
                    std::thread::sleep(std::time::Duration::from_millis(20));
                    (0..4000).take_while(|&i| push(i)).count()
                },
                threads,
                || (),
                |(), i| {
                    let other = producer.get() != Some(&std::thread::current().id());
                    if other && *slow.get_or_init(|| i) == i {
                        // Until the other workers are held back by the window: no item
                        // started for 150 ms (three looks, for a loaded machine).
                        let t = std::time::Instant::now();
                        let (mut last, mut same) = (usize::MAX, 0);
                        while t.elapsed() < std::time::Duration::from_secs(5) && same < 3 {
                            let now = started.load(Ordering::SeqCst);
                            same = if now == last { same + 1 } else { 0 };
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
                    if slow.get() == Some(&r) {
                        ahead = Some(started.load(Ordering::SeqCst) - r);
                    }
                    seen.push(r);
                    true
                },
            );
            assert_eq!(seen, (0..4000).collect::<Vec<_>>());
            // The window is 1,024 items at two and four threads, and items are queued 16 at a
            // time: no more had started past the slow one when it came (the others did start
            // many: the test sees the window, not a stalled run; the floor is loose for a
            // loaded machine, where a full run once saw 880).
            let ahead = ahead.expect("a slow item");
            assert!(
                ahead <= 1024 + 16,
                "{threads} threads: {ahead} items started"
            );
            assert!(ahead >= 512, "{threads} threads: {ahead} items started");
        }
    }
}

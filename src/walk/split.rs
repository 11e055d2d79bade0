//! One directory tree walked on several threads, its files still handed on in path order.
//!
//! The top levels of the tree are listed first, in order, which cuts it into a sequence of files
//! and subtrees. Threads take the subtrees in that order and walk each one by itself (in order,
//! as the serial walk would), running ahead of the reader by a bounded number of files; the
//! reader hands on the files of each piece in turn. What a walk of the whole tree knows from
//! above a subtree's root is found again by the subtree's own walk: the ignore files of the
//! directories above it (`parents`), the depth left. What it cannot find again (symbolic-link
//! loops under `-L`, the root's file system, the directories above a subtree without
//! `parents`) keeps such walks serial: see [`splittable`].

use super::{Candidate, Entry, EntryRules, Tally, TreeFilters, WalkOptions};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::sync::Mutex;

/// Levels of the tree listed at most to cut it.
const LEVELS: usize = 3;
/// Subtrees wanted per thread (pieces differ in size: several per thread even out the work).
const PIECES_PER_THREAD: usize = 4;
/// Files sent from a subtree's walk to the reader at a time, and batches in flight per subtree.
const BATCH: usize = 128;
const BATCHES_AHEAD: usize = 8;
/// Files walked and not yet read, per thread walking, past which no walk starts a new subtree
/// (the subtree being read always goes on). With one subtree ahead per thread and no count of
/// files, the reader waited on walks that could not start: on the 16-core machine, the Rust
/// corpus copied 16 times (3,200 small subtrees) was listed by `--files` in 219 ms with the
/// walking threads busy an eighth to a fifth of the time, twice `rg --files` (now 0.9×).
/// What waits stays bounded whatever the size of the tree: this many files, plus what each
/// subtree already started sends before its channel is full.
const WAITING_PER_THREAD: usize = 256;
/// Subtrees whose channels may be open ahead of the one being read, per thread walking: what
/// bounds the channels held when the subtrees are small (each holds its buffer from the start).
const AHEAD_PER_THREAD: usize = 16;

/// Whether a walk with these options gives the same files when cut into subtrees.
pub(super) fn splittable(opts: &WalkOptions) -> bool {
    let parents_read = opts.no_ignore || !opts.no_ignore_parent;
    !opts.follow && !opts.one_file_system && parents_read
}

/// A piece of the tree, in path order.
enum Piece {
    File(Candidate),
    /// What the listing skipped or met at this point (so that diagnostics keep the walk's order).
    Note(Tally),
    /// A subtree, walked from `root` down to `max_depth` levels; `job` is its index among the
    /// subtrees.
    Tree {
        root: PathBuf,
        max_depth: Option<usize>,
        job: usize,
    },
}

/// A subtree to walk, and where its files go (see [`Channels`]).
struct Job {
    root: PathBuf,
    max_depth: Option<usize>,
    tx: Option<mpsc::SyncSender<Msg>>,
}

/// What a subtree's walk sends to the reader.
enum Msg {
    Files(Vec<Candidate>),
    Done(Tally),
}

/// Walks `root` with `threads` threads, handing its files to `f` in path order (as
/// [`super::walk_serial`] would) and counting what was skipped in `tally`.
pub(super) fn walk(
    filters: &TreeFilters,
    root: &Path,
    threads: usize,
    rules: &EntryRules,
    tally: &mut Tally,
    f: &mut dyn FnMut(Candidate) -> bool,
) {
    let pieces = cut(filters, root, threads * PIECES_PER_THREAD, threads, rules);
    let mut jobs: Vec<Mutex<Option<Job>>> = Vec::new();
    for p in &pieces {
        if let Piece::Tree {
            root, max_depth, ..
        } = p
        {
            jobs.push(Mutex::new(Some(Job {
                root: root.clone(),
                max_depth: *max_depth,
                tx: None,
            })));
        }
    }
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let reading = Reading::new(threads * WAITING_PER_THREAD);
    let ahead = (threads * AHEAD_PER_THREAD).max(1);
    let mut channels = Channels {
        jobs: &jobs,
        receivers: (0..jobs.len()).map(|_| None).collect(),
        opened: 0,
        ahead,
    };
    // The reader starts at the first subtree.
    channels.open_near(0);
    let (jobs, next, stop, reading_ref) = (&jobs, &next, &stop, &reading);
    std::thread::scope(|scope| {
        for _ in 0..threads.min(jobs.len()) {
            scope.spawn(move || {
                // Subtrees are taken in order, so the first one the reader waits for is always
                // being walked: the reader never waits on a walk that cannot proceed. A
                // subtree is only started once the reader is within `ahead` of it and the
                // files waiting are fewer than the budget (see `Reading::wait_to_start`).
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= jobs.len() || stop.load(Ordering::Relaxed) {
                        return;
                    }
                    if !reading_ref.wait_to_start(i, ahead) {
                        return;
                    }
                    let job = jobs[i].lock().unwrap_or_else(|e| e.into_inner()).take();
                    if let Some(job) = job {
                        let tx = job.tx.expect("a subtree near the reader has its channel");
                        walk_subtree(filters, &job.root, job.max_depth, rules, &tx, reading_ref);
                    }
                }
            });
        }
        let completed = read(pieces, &mut channels, &reading, tally, f);
        if !completed {
            stop.store(true, Ordering::Relaxed);
        }
        reading.finish();
        // Dropping the receivers ends the walks still sending.
        drop(channels);
    });
}

/// Hands the pieces' files to `f` in order; `false` once `f` said to stop.
fn read(
    pieces: Vec<Piece>,
    channels: &mut Channels<'_>,
    reading: &Reading,
    tally: &mut Tally,
    f: &mut dyn FnMut(Candidate) -> bool,
) -> bool {
    for piece in pieces {
        match piece {
            Piece::File(c) => {
                if !f(c) {
                    return false;
                }
            }
            Piece::Note(t) => tally.append(t),
            Piece::Tree { job, .. } => {
                channels.open_near(job);
                reading.set(job);
                let rx = channels.receivers[job]
                    .take()
                    .expect("a subtree's channel is opened before the reader reaches it");
                for msg in rx.iter() {
                    match msg {
                        Msg::Files(files) => {
                            reading.took(files.len());
                            for c in files {
                                if !f(c) {
                                    return false;
                                }
                            }
                        }
                        Msg::Done(t) => tally.append(t),
                    }
                }
            }
        }
    }
    true
}

/// The channels from the subtrees' walks to the reader. A channel holds its buffer from the
/// start, so one is only opened once its subtree may be walked, within `ahead` of the reader
/// (opened for every subtree at once, the 1,456 subtrees of the Rust corpus copied 16 times,
/// `-j12`, held 1.7 MB for the whole walk), and the reader drops each after reading it.
struct Channels<'a> {
    jobs: &'a [Mutex<Option<Job>>],
    /// The receiving ends of the channels opened and not yet read, by job.
    receivers: Vec<Option<mpsc::Receiver<Msg>>>,
    /// Jobs below this have their channel.
    opened: usize,
    ahead: usize,
}

impl Channels<'_> {
    /// Opens the channels of the jobs that may be walked once the reader is at `job` (see
    /// [`Reading::wait_until_near`]), before the walks are told.
    fn open_near(&mut self, job: usize) {
        let end = job.saturating_add(self.ahead).min(self.jobs.len());
        while self.opened < end {
            let (tx, rx) = mpsc::sync_channel(BATCHES_AHEAD);
            if let Some(job) = self.jobs[self.opened]
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .as_mut()
            {
                job.tx = Some(tx);
            }
            self.receivers[self.opened] = Some(rx);
            self.opened += 1;
        }
    }
}

/// Where the reader is, for the walks to wait on before starting a subtree: the subtree it
/// reads (its job index; `usize::MAX` once it is done), and the files walked that it has not
/// read yet.
struct Reading {
    job: Mutex<usize>,
    moved: std::sync::Condvar,
    /// Files sent by the walks and not yet read.
    waiting: AtomicUsize,
    /// How many files may wait before no walk starts a subtree the reader is not at.
    budget: usize,
    /// Walks asleep in [`Reading::wait_to_start`] (a wake-up is a system call: only made for
    /// a sleeper).
    sleepers: AtomicUsize,
}

impl Reading {
    fn new(budget: usize) -> Self {
        Reading {
            job: Mutex::new(0),
            moved: std::sync::Condvar::new(),
            waiting: AtomicUsize::new(0),
            budget,
            sleepers: AtomicUsize::new(0),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, usize> {
        self.job.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The reader moved to subtree `job`.
    fn set(&self, job: usize) {
        *self.lock() = job;
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            self.moved.notify_all();
        }
    }

    /// The reader stopped (or read everything): no walk waits any more.
    fn finish(&self) {
        self.set(usize::MAX);
    }

    /// A walk sent `n` files.
    fn sent(&self, n: usize) {
        self.waiting.fetch_add(n, Ordering::SeqCst);
    }

    /// The reader took `n` files; the walks waiting for room are woken when it is made.
    fn took(&self, n: usize) {
        let before = self.waiting.fetch_sub(n, Ordering::SeqCst);
        if before >= self.budget
            && before - n < self.budget
            && self.sleepers.load(Ordering::SeqCst) > 0
        {
            drop(self.lock());
            self.moved.notify_all();
        }
    }

    /// Waits until subtree `job` may be walked: the reader is at it, or it is fewer than
    /// `ahead` subtrees on and fewer files than the budget wait. `false` once the reader
    /// finished. (The walk of the subtree being read never waits here, so the reader always
    /// gets its files.)
    fn wait_to_start(&self, job: usize, ahead: usize) -> bool {
        let mut at = self.lock();
        loop {
            if *at == usize::MAX {
                return false;
            }
            let near = job < at.saturating_add(ahead);
            // Counted as a sleeper before the files are looked at: a reader that takes files
            // after this sees the sleeper and wakes it (both orders are sequentially
            // consistent), and one that took them before left the count low enough here.
            self.sleepers.fetch_add(1, Ordering::SeqCst);
            let room = self.waiting.load(Ordering::SeqCst) < self.budget;
            if job <= *at || (near && room) {
                self.sleepers.fetch_sub(1, Ordering::SeqCst);
                return true;
            }
            at = self.moved.wait(at).unwrap_or_else(|e| e.into_inner());
            self.sleepers.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// Walks one subtree on this thread, sending its files in batches; stops when the reader is
/// gone.
fn walk_subtree(
    filters: &TreeFilters,
    root: &Path,
    max_depth: Option<usize>,
    rules: &EntryRules,
    tx: &mpsc::SyncSender<Msg>,
    reading: &Reading,
) {
    let mut tally = Tally::default();
    let mut batch = Vec::with_capacity(BATCH);
    let mut gone = false;
    super::walk_serial(
        filters,
        &[root.to_path_buf()],
        max_depth,
        rules,
        &mut tally,
        &mut |c| {
            batch.push(c);
            if batch.len() == BATCH {
                let full = std::mem::replace(&mut batch, Vec::with_capacity(BATCH));
                reading.sent(full.len());
                gone = tx.send(Msg::Files(full)).is_err();
            }
            !gone
        },
    );
    if gone {
        return;
    }
    if !batch.is_empty() {
        reading.sent(batch.len());
        if tx.send(Msg::Files(batch)).is_err() {
            return;
        }
    }
    let _ = tx.send(Msg::Done(tally));
}

/// Lists the top levels of `root` (at most [`LEVELS`], until there are `want` subtrees) into
/// pieces in path order, the directories of a level listed on up to `threads` threads.
fn cut(
    filters: &TreeFilters,
    root: &Path,
    want: usize,
    threads: usize,
    rules: &EntryRules,
) -> Vec<Piece> {
    let mut pieces = vec![Piece::Tree {
        root: root.to_path_buf(),
        max_depth: filters.opts.max_depth,
        job: 0,
    }];
    for _ in 0..LEVELS {
        let trees = pieces
            .iter()
            .filter(|p| matches!(p, Piece::Tree { .. }))
            .count();
        if trees >= want || trees == 0 {
            break;
        }
        pieces = list_level(filters, pieces, threads, rules);
    }
    let mut job = 0;
    for p in &mut pieces {
        if let Piece::Tree { job: j, .. } = p {
            *j = job;
            job += 1;
        }
    }
    pieces
}

/// Replaces each subtree of `pieces` by its listing (see [`list`]), in order. The listings are
/// made on up to `threads` threads: each reads the ignore files of every directory it lists,
/// and one thread listing the 16 directories of the Rust corpus copied 16 times kept the
/// 16-core machine waiting 25 ms before any walk began.
fn list_level(
    filters: &TreeFilters,
    pieces: Vec<Piece>,
    threads: usize,
    rules: &EntryRules,
) -> Vec<Piece> {
    let dirs: Vec<(&Path, Option<usize>)> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Tree {
                root, max_depth, ..
            } => Some((root.as_path(), *max_depth)),
            _ => None,
        })
        .collect();
    let listings: Vec<Mutex<Vec<Piece>>> = dirs.iter().map(|_| Mutex::new(Vec::new())).collect();
    let next = AtomicUsize::new(0);
    let list_next = || loop {
        let i = next.fetch_add(1, Ordering::Relaxed);
        let Some(&(dir, max_depth)) = dirs.get(i) else {
            return;
        };
        let mut out = Vec::new();
        list(filters, dir, max_depth, rules, &mut out);
        *listings[i].lock().unwrap_or_else(|e| e.into_inner()) = out;
    };
    let helpers = threads.min(dirs.len()).saturating_sub(1);
    std::thread::scope(|scope| {
        for _ in 0..helpers {
            scope.spawn(list_next);
        }
        list_next();
    });
    let mut listings = listings
        .into_iter()
        .map(|m| m.into_inner().unwrap_or_else(|e| e.into_inner()));
    let mut out = Vec::new();
    for piece in pieces {
        match piece {
            Piece::Tree { .. } => out.extend(listings.next().into_iter().flatten()),
            file => out.push(file),
        }
    }
    out
}

/// Appends the children of `dir` to `out`: files as they are, directories as subtrees one level
/// shallower (none once no depth is left to descend into them), and what it skipped or met as
/// notes where it met them.
fn list(
    filters: &TreeFilters,
    dir: &Path,
    max_depth: Option<usize>,
    rules: &EntryRules,
    out: &mut Vec<Piece>,
) {
    if max_depth == Some(0) {
        return;
    }
    let below = max_depth.map(|d| d - 1);
    for entry in filters.builder(&[dir.to_path_buf()], Some(1)).build() {
        let mut t = Tally::default();
        let entry = rules.entry(entry, &mut t);
        if t != Tally::default() {
            out.push(Piece::Note(t));
        }
        match entry {
            Entry::File(c) => out.push(Piece::File(c)),
            Entry::Dir(path) if below != Some(0) => out.push(Piece::Tree {
                root: path,
                max_depth: below,
                job: 0,
            }),
            Entry::Dir(_) | Entry::Nothing => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    /// Waits until `h` has finished (at most 5 s); if it has not, lets every walk go (so that
    /// the test fails rather than hangs) and says so.
    fn finished<T>(reading: &Reading, h: &std::thread::ScopedJoinHandle<'_, T>) -> bool {
        let t = Instant::now();
        while !h.is_finished() && t.elapsed() < Duration::from_secs(5) {
            std::thread::sleep(Duration::from_millis(1));
        }
        let done = h.is_finished();
        if !done {
            reading.finish();
        }
        done
    }

    fn asleep(reading: &Reading) {
        while reading.sleepers.load(Ordering::SeqCst) == 0 {
            std::thread::yield_now();
        }
        std::thread::sleep(Duration::from_millis(20));
    }

    #[test]
    fn a_walk_waits_for_room_and_the_reader_taking_files_wakes_it() {
        let reading = Reading::new(10);
        reading.sent(10);
        // The subtree being read starts whatever waits.
        assert!(reading.wait_to_start(0, 4));
        std::thread::scope(|s| {
            let h = s.spawn(|| reading.wait_to_start(1, 4));
            asleep(&reading);
            assert!(!h.is_finished(), "started with the budget full");
            reading.took(3);
            assert!(finished(&reading, &h), "not woken when room was made");
            assert!(h.join().unwrap());
        });
    }

    #[test]
    fn a_walk_too_far_ahead_waits_for_the_reader_and_ends_when_it_does() {
        let reading = Reading::new(100);
        std::thread::scope(|s| {
            let h = s.spawn(|| reading.wait_to_start(8, 4));
            asleep(&reading);
            assert!(!h.is_finished(), "started 8 subtrees ahead of the reader");
            reading.set(5);
            assert!(finished(&reading, &h), "not woken when the reader moved");
            assert!(h.join().unwrap());
            let h = s.spawn(|| reading.wait_to_start(20, 4));
            asleep(&reading);
            reading.finish();
            assert!(finished(&reading, &h));
            assert!(
                !h.join().unwrap(),
                "a walk started after the reader finished"
            );
        });
    }
}

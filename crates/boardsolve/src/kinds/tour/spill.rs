//! `count`'s states on disk: a square whose new states outgrow the memory budget writes
//! them, merged as far as the memory holds them, to files in a scratch folder, and merges
//! them from there (external-memory aggregation by hash).
//!
//! The new states of a square go to hash buckets (states.rs). While spilling, the buckets
//! have a fixed size that the budget allows, and the expansion stops before a state whose
//! new states one of them might not hold; each bucket is then merged (equal states summed)
//! and written out, all of them one after the other as one *run*, and the expansion goes
//! on. A bucket of one run and the same bucket of every other run hold the same hash range,
//! so once every state is expanded, the runs are merged bucket by bucket: read, summed,
//! written as the next square's input, which is read back a block at a time. A square whose
//! new states fit (all of them, merged, in memory) keeps them in memory, so a count spills
//! only over its widest squares.
//!
//! On disk a state takes its first word whole, the second (wide frontiers) and the limbs of
//! its count as varints: about 12 bytes for a 24-byte 8 x 8 state. Each file and each
//! bucket of a run keeps a checksum of what it was given, checked as it is read back: the
//! count is proven only if every state comes back as it went out. The folder is created at
//! the first spill, inside the one `--scratch` names, and removed with everything in it when
//! the count ends, whichever way it ends (an answer, a limit, Ctrl-C); before each write the
//! free space there is checked, and a count that would fill it stops as a memory limit.

use std::fs::File;
use std::io::Write;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;

use super::key::Key;
use super::states::{Buckets, Full, Memory, Slot, Ways, give_back, merge};
use crate::engine::{Clock, DiskMeter};

/// The bytes a file is read and written in.
const BUFFER: usize = 1 << 20;

/// Space left free on the scratch folder's file system.
const MARGIN: u64 = 256 << 20;

/// A spilled square's new states on disk at once, in copies of its merged states: the runs
/// (merged only within a run) and the merged states written from them, together held to
/// err high, as the projection itself may err low by the share its ratio misses.
const PROJECTED_COPIES: f64 = 1.5;

/// The longest record: the first word, a varint word, a limb count and 64 varint limbs.
const LONGEST: usize = 8 + 10 + 1 + 64 * 10;

/// What a count wrote to its scratch folder.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct SpillStats {
    /// The folder (removed at the end).
    pub dir: String,
    /// Squares whose new states went to disk, and the runs they wrote.
    pub squares: usize,
    pub runs: usize,
    /// The most bytes on disk at once, and the bytes written and read in all.
    pub peak: u64,
    pub written: u64,
    pub read: u64,
}

impl SpillStats {
    /// What several sweeps wrote, each to its own folder (named by the first): `None` if
    /// none wrote anything.
    pub fn sum(all: Vec<SpillStats>) -> Option<SpillStats> {
        let mut it = all.into_iter();
        let mut s = it.next()?;
        for o in it {
            s.squares += o.squares;
            s.runs += o.runs;
            s.peak = s.peak.max(o.peak);
            s.written += o.written;
            s.read += o.read;
        }
        Some(s)
    }
}

/// The scratch folder of one sweep: created at its first spill inside `parent`, and removed
/// with everything in it when dropped.
pub(super) struct Scratch {
    parent: PathBuf,
    dir: Option<PathBuf>,
    next_file: AtomicU64,
    on_disk: AtomicU64,
    peak: AtomicU64,
    written: AtomicU64,
    read: AtomicU64,
    /// The run's count of bytes on disk, for the progress line.
    meter: Option<DiskMeter>,
    pub squares: usize,
    pub runs: usize,
    /// Why the folder failed, for the note.
    pub failure: Option<String>,
}

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(m) = &self.meter {
            m.sub(self.on_disk());
        }
        if let Some(dir) = &self.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

impl Scratch {
    pub fn new(parent: &Path, meter: Option<DiskMeter>) -> Scratch {
        Scratch {
            parent: parent.to_path_buf(),
            dir: None,
            next_file: AtomicU64::new(0),
            on_disk: AtomicU64::new(0),
            peak: AtomicU64::new(0),
            written: AtomicU64::new(0),
            read: AtomicU64::new(0),
            meter,
            squares: 0,
            runs: 0,
            failure: None,
        }
    }

    /// What was written, once anything was.
    pub fn stats(&self) -> Option<SpillStats> {
        self.dir.as_ref()?;
        // A spill refused before its first write (no room for it) went nowhere: the note of
        // the failure says why.
        if self.written.load(Ordering::Relaxed) == 0 {
            return None;
        }
        Some(SpillStats {
            dir: self.dir_shown(),
            squares: self.squares,
            runs: self.runs,
            peak: self.peak.load(Ordering::Relaxed),
            written: self.written.load(Ordering::Relaxed),
            read: self.read.load(Ordering::Relaxed),
        })
    }

    /// The bytes of states on disk now.
    pub fn on_disk(&self) -> u64 {
        self.on_disk.load(Ordering::Relaxed)
    }

    /// The folder the spill goes to (or would go to), for notes.
    pub fn dir_shown(&self) -> String {
        self.dir
            .as_deref()
            .unwrap_or(&self.parent)
            .display()
            .to_string()
    }

    fn fail(&mut self, why: String) -> Full {
        self.failure.get_or_insert(why);
        Full::Disk
    }

    /// The folder, created on first use: a new one, so that two counts never share files.
    fn dir(&mut self) -> Result<PathBuf, Full> {
        if let Some(d) = &self.dir {
            return Ok(d.clone());
        }
        let pid = std::process::id();
        for i in 0..1000u32 {
            let d = self.parent.join(format!("boardsolve-spill-{pid}-{i}"));
            match std::fs::create_dir(&d) {
                Ok(()) => {
                    self.dir = Some(d.clone());
                    return Ok(d);
                }
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    let why = format!("cannot create a folder in {}: {e}", self.parent.display());
                    return Err(self.fail(why));
                }
            }
        }
        let why = format!("no free folder name in {}", self.parent.display());
        Err(self.fail(why))
    }

    /// Whether `bytes` more leave the file system its margin.
    fn check_room(&mut self, bytes: u64) -> Result<(), Full> {
        self.room_for(bytes, |dir| format!("{} needs", dir.display()))
    }

    /// Whether the folder has room for a square's states, about `bytes` by projection.
    fn check_projected(&mut self, bytes: f64) -> Result<(), Full> {
        let bytes = bytes.min(u64::MAX as f64) as u64;
        self.room_for(bytes, |dir| {
            format!(
                "the square's states (its runs and its merged states, projected from the \
                 square before) would take in {}",
                dir.display()
            )
        })
    }

    /// `Ok` if `bytes` more leave the margin free (or the system does not say); else the
    /// failure, `needs` naming what wants them.
    fn room_for(&mut self, bytes: u64, needs: impl FnOnce(&Path) -> String) -> Result<(), Full> {
        use crate::util::numbers::bytes as size;
        let dir = self.dir()?;
        match free_bytes(&dir) {
            Some(free) if free < bytes.saturating_add(MARGIN) => {
                let why = format!(
                    "{} about {}, more than the {} free there beyond the {} kept free",
                    needs(&dir),
                    size(bytes),
                    size(free.saturating_sub(MARGIN)),
                    size(MARGIN),
                );
                Err(self.fail(why))
            }
            _ => Ok(()),
        }
    }

    /// A new file of the folder.
    fn create(&mut self) -> Result<Piece, Full> {
        let dir = self.dir()?;
        let path = dir.join(format!(
            "{}.states",
            self.next_file.fetch_add(1, Ordering::Relaxed)
        ));
        match File::options()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => Ok(Piece {
                path,
                file,
                count: 0,
                bytes: 0,
                sum: 0,
            }),
            Err(e) => {
                let why = format!("cannot create {}: {e}", path.display());
                Err(self.fail(why))
            }
        }
    }

    fn wrote(&self, bytes: u64) {
        self.written.fetch_add(bytes, Ordering::Relaxed);
        let now = self.on_disk.fetch_add(bytes, Ordering::Relaxed) + bytes;
        self.peak.fetch_max(now, Ordering::Relaxed);
        if let Some(m) = &self.meter {
            m.add(bytes);
        }
    }

    fn remove(&self, piece: Piece) {
        self.on_disk.fetch_sub(piece.bytes, Ordering::Relaxed);
        if let Some(m) = &self.meter {
            m.sub(piece.bytes);
        }
        drop(piece.file);
        let _ = std::fs::remove_file(&piece.path);
    }
}

/// The free bytes of the file system holding `dir`, if the system says.
fn free_bytes(dir: &Path) -> Option<u64> {
    use std::os::unix::ffi::OsStrExt;
    let c = std::ffi::CString::new(dir.as_os_str().as_bytes()).ok()?;
    let mut st: libc::statvfs = unsafe { std::mem::zeroed() };
    // SAFETY: a valid C string and a zeroed struct the call fills.
    if unsafe { libc::statvfs(c.as_ptr(), &mut st) } != 0 {
        return None;
    }
    Some((st.f_bavail as u64).saturating_mul(st.f_frsize as u64))
}

/// One file of states.
pub(super) struct Piece {
    path: PathBuf,
    file: File,
    count: u64,
    bytes: u64,
    /// The checksum of its records (`checksum_term`).
    sum: u64,
}

/// States on disk: a square's merged states, in pieces (one a thread), with their number and
/// the bits of their largest count.
pub(super) struct Stored {
    pieces: Vec<Piece>,
    pub count: u64,
    pub bits: u32,
}

/// Where a square's states are.
pub(super) enum Frontier<K, T> {
    Memory(Vec<Slot<K, T>>),
    Disk(Stored),
}

impl Stored {
    /// The bytes its files take.
    fn bytes(&self) -> u64 {
        self.pieces.iter().map(|p| p.bytes).sum()
    }
}

impl<K: Key, T: Ways> Frontier<K, T> {
    pub fn len(&self) -> usize {
        match self {
            Frontier::Memory(v) => v.len(),
            Frontier::Disk(d) => d.count as usize,
        }
    }

    /// The bits of the largest count.
    pub fn bits(&self) -> u32 {
        match self {
            Frontier::Memory(v) => v.iter().map(|x| x.ways.bits()).max().unwrap_or(0),
            Frontier::Disk(d) => d.bits,
        }
    }

    /// Every state, a block at a time; the files are removed once read.
    pub fn for_each_block(
        self,
        scratch: Option<&mut Scratch>,
        mem: &Memory,
        mut f: impl FnMut(&[Slot<K, T>]),
    ) -> Result<(), Full> {
        match self {
            Frontier::Memory(v) => {
                f(&v);
                mem.release(&v);
                Ok(())
            }
            Frontier::Disk(d) => {
                let scratch = scratch.expect("states on disk have their folder");
                let mut reader = Reader::new(d, mem, 1 << 20)?;
                let mut block = Vec::new();
                while reader.next_block(&mut block, scratch)? {
                    f(&block);
                }
                mem.release(&block);
                reader.finish(scratch);
                Ok(())
            }
        }
    }
}

/// The states of a [`Stored`], decoded a block at a time.
struct Reader<'m> {
    stored: Stored,
    piece: usize,
    offset: u64,
    left: u64,
    /// The checksum of the current piece's records read so far, and whether the piece was
    /// checked against it once read whole.
    sum: u64,
    checked: bool,
    buf: Vec<u8>,
    at: usize,
    block: usize,
    mem: &'m Memory,
}

impl<'m> Reader<'m> {
    fn new(stored: Stored, mem: &'m Memory, block: usize) -> Result<Reader<'m>, Full> {
        let size = mem.limit().map_or(BUFFER, reader_buffer);
        let mut buf = Vec::new();
        mem.grow(&mut buf, size)?;
        let left = stored.pieces.first().map_or(0, |p| p.count);
        Ok(Reader {
            stored,
            piece: 0,
            offset: 0,
            left,
            sum: 0,
            checked: false,
            buf,
            at: 0,
            block,
            mem,
        })
    }

    /// The next block of states into `out` (emptied first): false when none are left.
    fn next_block<K: Key, T: Ways>(
        &mut self,
        out: &mut Vec<Slot<K, T>>,
        scratch: &mut Scratch,
    ) -> Result<bool, Full> {
        out.clear();
        self.mem.grow(out, self.block)?;
        while out.len() < self.block {
            if self.left == 0 {
                let Some(piece) = self.stored.pieces.get(self.piece) else {
                    break;
                };
                if !self.checked && self.sum != piece.sum {
                    let why = format!(
                        "{} changed on disk while the count ran: its states are not those \
                         written",
                        piece.path.display()
                    );
                    return Err(scratch.fail(why));
                }
                self.checked = true;
                if self.piece + 1 >= self.stored.pieces.len() {
                    break;
                }
                self.piece += 1;
                self.offset = 0;
                self.buf.clear();
                self.at = 0;
                self.sum = 0;
                self.checked = false;
                self.left = self.stored.pieces[self.piece].count;
                continue;
            }
            if self.buf.len() - self.at < LONGEST && !self.refill(scratch)? {
                let why = format!(
                    "{} ends before its states",
                    self.stored.pieces[self.piece].path.display()
                );
                return Err(scratch.fail(why));
            }
            match decode(&self.buf, &mut self.at) {
                Some((s, term)) => {
                    self.sum = self.sum.wrapping_add(term);
                    out.push(s);
                }
                None => {
                    let why = format!(
                        "{} holds a record that is not a state",
                        self.stored.pieces[self.piece].path.display()
                    );
                    return Err(scratch.fail(why));
                }
            }
            self.left -= 1;
        }
        Ok(!out.is_empty())
    }

    /// More bytes of the current piece after those not yet decoded: false at its end.
    fn refill(&mut self, scratch: &mut Scratch) -> Result<bool, Full> {
        self.buf.drain(..self.at);
        self.at = 0;
        let piece = &self.stored.pieces[self.piece];
        let len = self.buf.len();
        let room = self.buf.capacity() - len;
        let want = room.min((piece.bytes - self.offset) as usize);
        if want == 0 {
            return Ok(len > 0);
        }
        self.buf.resize(len + want, 0);
        if let Err(e) = piece.file.read_exact_at(&mut self.buf[len..], self.offset) {
            let why = format!("cannot read {}: {e}", piece.path.display());
            return Err(scratch.fail(why));
        }
        self.offset += want as u64;
        scratch.read.fetch_add(want as u64, Ordering::Relaxed);
        Ok(true)
    }

    fn finish(self, scratch: &Scratch) {
        self.mem.release(&self.buf);
        for p in self.stored.pieces {
            scratch.remove(p);
        }
    }
}

fn put(out: &mut Vec<u8>, mut x: u64) {
    while x >= 0x80 {
        out.push(x as u8 | 0x80);
        x >>= 7;
    }
    out.push(x as u8);
}

fn get(buf: &[u8], at: &mut usize) -> Option<u64> {
    let mut x = 0u64;
    for shift in (0..64).step_by(7) {
        let b = *buf.get(*at)?;
        *at += 1;
        if shift == 63 && b > 1 {
            return None;
        }
        x |= u64::from(b & 0x7f) << shift;
        if b & 0x80 == 0 {
            return Some(x);
        }
    }
    None
}

/// A state and its count as bytes: the first word whole, then (for a wide frontier) the
/// second word turned so that its top nibble (the ends of an open path) comes first, then
/// the count's limbs.
/// Returns the record's term of its file's checksum.
fn encode<K: Key, T: Ways>(s: &Slot<K, T>, out: &mut Vec<u8>, limbs: &mut [u64; 64]) -> u64 {
    let [lo, hi] = s.key.words();
    out.extend_from_slice(&lo.to_le_bytes());
    if K::BITS > 64 {
        put(out, hi.rotate_left(4));
    }
    let n = s.ways.limbs(limbs);
    out.push(n as u8);
    for &l in &limbs[..n] {
        put(out, l);
    }
    checksum_term(lo, hi, &limbs[..n])
}

/// A record's term of the checksum of the file or segment that holds it: the checksum is
/// the sum of its records' terms, so that the threads' shares and a bucket's records add
/// up in any order. It is taken from the values a record stands for, so that bytes read
/// back as other states, or other counts, than were written fail it, whatever changed them
/// (the disk, another program); it is no defence against someone who sets out to forge
/// the files.
fn checksum_term(lo: u64, hi: u64, limbs: &[u64]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h = (lo ^ K).wrapping_mul(K);
    h = (h.rotate_left(31) ^ hi).wrapping_mul(K);
    for &l in limbs {
        h = (h.rotate_left(31) ^ l).wrapping_mul(K);
    }
    // The finaliser of MurmurHash3, so that a change anywhere moves every bit.
    h ^= h >> 33;
    h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
    h ^= h >> 33;
    h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
    h ^ (h >> 33) ^ limbs.len() as u64
}

/// A record and its term of the checksum.
fn decode<K: Key, T: Ways>(buf: &[u8], at: &mut usize) -> Option<(Slot<K, T>, u64)> {
    let lo = u64::from_le_bytes(buf.get(*at..*at + 8)?.try_into().ok()?);
    *at += 8;
    let hi = if K::BITS > 64 {
        get(buf, at)?.rotate_right(4)
    } else {
        0
    };
    let n = *buf.get(*at)? as usize;
    *at += 1;
    let mut limbs = [0u64; 64];
    for l in limbs.get_mut(..n)? {
        *l = get(buf, at)?;
    }
    let term = checksum_term(lo, hi, &limbs[..n]);
    Some((
        Slot {
            key: K::from_words([lo, hi]),
            ways: T::from_limbs(&limbs[..n])?,
        },
        term,
    ))
}

/// What stopped a thread writing or reading states: the scratch folder (what it said), or
/// the memory or the clock.
type Trouble = Result<String, Full>;

/// Where bucket `b` of one run is: which piece, its bytes and its states.
#[derive(Clone, Copy, Default)]
struct Segment {
    piece: usize,
    offset: u64,
    bytes: u64,
    count: u64,
    sum: u64,
}

/// One run: its pieces (one a thread) and each bucket's segment in them.
struct RunFiles {
    pieces: Vec<Piece>,
    segments: Vec<Segment>,
}

/// Encoded states waiting to be written to a piece.
struct Writer<'a> {
    piece: &'a mut Piece,
    buf: Vec<u8>,
    limbs: [u64; 64],
}

impl<'a> Writer<'a> {
    fn new(piece: &'a mut Piece) -> Writer<'a> {
        Writer {
            piece,
            buf: Vec::with_capacity(BUFFER),
            limbs: [0; 64],
        }
    }

    fn push<K: Key, T: Ways>(&mut self, s: &Slot<K, T>) {
        let term = encode(s, &mut self.buf, &mut self.limbs);
        self.piece.sum = self.piece.sum.wrapping_add(term);
        self.piece.count += 1;
    }

    /// Write what is buffered once it is large, or with `all`.
    fn flush(&mut self, all: bool, scratch: &Scratch) -> Result<(), String> {
        if self.buf.is_empty() || (!all && self.buf.len() < BUFFER - LONGEST) {
            return Ok(());
        }
        self.piece
            .file
            .write_all(&self.buf)
            .map_err(|e| format!("cannot write {}: {e}", self.piece.path.display()))?;
        self.piece.bytes += self.buf.len() as u64;
        scratch.wrote(self.buf.len() as u64);
        self.buf.clear();
        Ok(())
    }
}

/// How a square spills: its buckets' number and size, and the states read at a time.
pub(super) struct Plan {
    pub buckets: usize,
    pub cap: usize,
    pub block: usize,
}

/// The buckets and blocks a square's spill takes, from the budget left: `None` when the
/// budget cannot hold even small ones.
pub(super) fn plan<K: Key, T: Ways>(
    mem: &Memory,
    threads: usize,
    expected: f64,
    disk: bool,
) -> Option<Plan> {
    let size = std::mem::size_of::<Slot<K, T>>() as u64;
    let limit = mem.limit()?;
    let left = limit.saturating_sub(mem.held());
    let t = threads as u64;
    // A block of input and the buffer it is read through.
    let block = if disk {
        (left / 16 / size).clamp(1 << 10, 1 << 22)
    } else {
        0
    };
    let reading = if disk { reader_buffer(limit) as u64 } else { 0 };
    let room = left.checked_sub(block * size + reading + left / 16)?;
    // Each thread merges a bucket of every thread's buckets at a time (a list that may take
    // twice its states, and a table of up to 16 bytes a state) while the buckets are full.
    let per_bucket = |n: u64| t * n * size + t * t * (2 * size + 16);
    // The most buckets, each of a few hundred states at least, so that a state's new
    // states always fit.
    let most = 1u64 << (63 - (room / per_bucket(256)).clamp(1, 1 << 12).leading_zeros());
    // But no more than hold about as many states as a bucket in memory (each bucket is a
    // stream of writes, and thousands of them thrash the caches and the TLB), unless the
    // square's states, merged from the runs at the end, need more to merge a bucket in one
    // pass in what the input's block and buffer leave free.
    let target = (Buckets::<K, T>::BUCKET as u64 / t).max(256);
    let mut few = most;
    while few > 1 && room / per_bucket(few) < target {
        few /= 2;
    }
    let pass = ((block * size + reading + left / 16) / t / (5 * size + 40)).max(1024);
    let merging = ((expected / pass as f64) as u64).max(1).next_power_of_two();
    let buckets = few.max(merging).min(most);
    let fits = room / per_bucket(buckets);
    // No more than the square is expected to need (with a margin): the rest of the budget
    // stays free for merging in memory when the square fits.
    let wanted = (expected * 1.25 / (buckets * t) as f64) as u64 + 64;
    (fits >= 64).then_some(Plan {
        buckets: buckets as usize,
        cap: fits.min(wanted) as usize,
        block: block as usize,
    })
}

/// The buffer states are read through: smaller under a small budget, but always room for a
/// few records.
fn reader_buffer(limit: u64) -> usize {
    ((limit / 16) as usize).clamp(4 * LONGEST, BUFFER)
}

/// Expand `block` (the states of `expand`'s caller) into `parts`, one share a thread,
/// writing the buckets out as a run whenever one may overflow.
#[allow(clippy::too_many_arguments)]
fn expand_block<K: Key, T: Ways, E>(
    block: &[Slot<K, T>],
    parts: &mut [Buckets<K, T>],
    runs: &mut Vec<RunFiles>,
    scratch: &mut Scratch,
    mem: &Memory,
    expand: &E,
) -> Result<(), Full>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    let threads = parts.len();
    let chunk = block.len().div_ceil(threads).max(1);
    let mut at: Vec<(usize, usize)> = (0..threads)
        .map(|t| {
            (
                (t * chunk).min(block.len()),
                ((t + 1) * chunk).min(block.len()),
            )
        })
        .collect();
    loop {
        let results: Vec<Result<(), Full>> = parts
            .par_iter_mut()
            .zip(at.par_iter_mut())
            .map(|(next, (from, to))| {
                if from == to {
                    return Ok(());
                }
                let r = expand(&block[*from..*to], next);
                *from += next.expanded;
                r
            })
            .collect();
        let mut spill = false;
        for r in results {
            match r {
                Ok(()) => {}
                Err(Full::Spill) => spill = true,
                Err(e) => return Err(e),
            }
        }
        if !spill {
            return Ok(());
        }
        runs.push(write_run(parts, false, scratch, mem)?);
    }
}

/// The buckets of `parts`, each merged across the parts (unless `raw`: when the memory has
/// no room left for merging), written out as one run; the buckets are emptied.
fn write_run<K: Key, T: Ways>(
    parts: &mut [Buckets<K, T>],
    raw: bool,
    scratch: &mut Scratch,
    mem: &Memory,
) -> Result<RunFiles, Full> {
    let threads = parts.len();
    let n = parts[0].n_buckets();
    let states = held(parts);
    scratch.check_room(states as u64 * std::mem::size_of::<Slot<K, T>>() as u64)?;
    let mut pieces = (0..threads)
        .map(|_| scratch.create())
        .collect::<Result<Vec<_>, _>>()?;
    let parts_ref = &*parts;
    let scr = &*scratch;
    let written: Vec<Result<Vec<(usize, Segment)>, Trouble>> = pieces
        .par_iter_mut()
        .enumerate()
        .map(|(t, piece)| {
            let mut w = Writer::new(piece);
            let (mut index, mut dense) = (Vec::new(), Vec::new());
            let mut segs = Vec::new();
            let mut result = Ok(());
            for b in (t..n).step_by(threads) {
                let lists: Vec<&Vec<Slot<K, T>>> = parts_ref.iter().map(|p| p.bucket(b)).collect();
                dense.clear();
                if !raw && let Err(e) = merge(&lists, &mut index, &mut dense, mem) {
                    result = Err(Err(e));
                    break;
                }
                let (offset, count, sum) = (
                    w.piece.bytes + w.buf.len() as u64,
                    w.piece.count,
                    w.piece.sum,
                );
                let mut failed = None;
                let merged = [&dense];
                let states: &[&Vec<Slot<K, T>>] = if raw { &lists } else { &merged };
                for s in states.iter().flat_map(|l| l.iter()) {
                    w.push(s);
                    if let Err(e) = w.flush(false, scr) {
                        failed = Some(e);
                        break;
                    }
                }
                if let Some(e) = failed {
                    result = Err(Ok(e));
                    break;
                }
                let bytes = w.piece.bytes + w.buf.len() as u64 - offset;
                segs.push((
                    b,
                    Segment {
                        piece: t,
                        offset,
                        bytes,
                        count: w.piece.count - count,
                        sum: w.piece.sum.wrapping_sub(sum),
                    },
                ));
                if let Err(e) = w.flush(false, scr) {
                    result = Err(Ok(e));
                    break;
                }
            }
            if result.is_ok()
                && let Err(e) = w.flush(true, scr)
            {
                result = Err(Ok(e));
            }
            mem.release(&index);
            mem.release(&dense);
            result.map(|_| segs)
        })
        .collect();
    let mut segments = vec![Segment::default(); n];
    let mut failed = None;
    for w in written {
        match w {
            Ok(segs) => {
                for (b, s) in segs {
                    segments[b] = s;
                }
            }
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    let run = RunFiles { pieces, segments };
    if let Some(e) = failed {
        remove_run(run, scratch);
        return Err(match e {
            Ok(why) => scratch.fail(why),
            Err(full) => full,
        });
    }
    for p in parts.iter_mut() {
        p.flushed();
    }
    // The threads' merge tables and lists are free again.
    give_back();
    scratch.runs += 1;
    Ok(run)
}

/// The states the buckets of `parts` hold.
fn held<K: Key, T: Ways>(parts: &[Buckets<K, T>]) -> usize {
    parts
        .iter()
        .map(|p| (0..p.n_buckets()).map(|b| p.bucket(b).len()).sum::<usize>())
        .sum()
}

fn remove_run(run: RunFiles, scratch: &Scratch) {
    for p in run.pieces {
        scratch.remove(p);
    }
}

/// A square's states on disk: `input`'s states expanded into `parts` (emptied and sized by
/// [`plan`] here), spilling runs as they fill, then merged bucket by bucket into the next
/// square's input. States that fit in memory once all are expanded stay there.
#[allow(clippy::too_many_arguments)]
pub(super) fn spill_square<'m, K: Key, T: Ways, E>(
    input: Frontier<K, T>,
    parts: &mut Vec<Buckets<'m, K, T>>,
    threads: usize,
    expected: f64,
    scratch: &mut Scratch,
    mem: &'m Memory,
    clock: &Clock,
    expand: E,
) -> Result<(Frontier<K, T>, T, usize), Full>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    for p in parts.iter_mut() {
        p.free();
    }
    // A large input in memory goes to disk first, leaving its memory to the buckets.
    let input = match input {
        Frontier::Memory(v) if mem.limit().is_some_and(|l| 3 * mem.held() > l) => {
            let stored = store(&v, threads, scratch)?;
            mem.release(&v);
            drop(v);
            Frontier::Disk(stored)
        }
        other => other,
    };
    // The square before's buckets, or the lists of a square that outgrew the memory, are
    // free: the spill's buckets are planned on a budget that the system must hold.
    give_back();
    let disk = matches!(input, Frontier::Disk(_));
    let Some(plan) = plan::<K, T>(mem, threads, expected, disk) else {
        return Err(Full::Memory);
    };
    // The square's new states on disk, projected from the square before: refused now if
    // the folder cannot hold them, rather than when it fills, maybe hours into the square.
    let per_state = match &input {
        Frontier::Disk(d) if d.count > 0 => d.bytes() as f64 / d.count as f64,
        _ => std::mem::size_of::<Slot<K, T>>() as f64,
    };
    scratch.check_projected(expected * per_state * PROJECTED_COPIES)?;
    scratch.squares += 1;
    parts.resize_with(threads, || Buckets::new(mem));
    parts.truncate(threads);
    for p in parts.iter_mut() {
        p.fix(plan.buckets, plan.cap)?;
    }
    let mut runs: Vec<RunFiles> = Vec::new();
    let expanded = expand_input(input, plan.block, parts, &mut runs, scratch, mem, &expand);
    let closed = parts
        .iter()
        .try_fold(T::default(), |a, p| a.add(p.closed))
        .ok_or(Full::Overflow);
    let made: usize = parts.iter().map(|p| p.total).sum();
    let result = expanded.and(closed).and_then(|closed| {
        if runs.is_empty() {
            // Everything fit: merged in memory, unless the merged list does not fit beside
            // the buckets.
            let mut out = Vec::new();
            match super::states::merge_parallel(parts, threads, mem, &mut out) {
                Ok(()) => return Ok((Frontier::Memory(out), closed, made)),
                Err(Full::Memory) => mem.release(&out),
                Err(e) => {
                    mem.release(&out);
                    return Err(e);
                }
            }
        }
        // The states still in the buckets are merged from there with the runs on disk,
        // rather than written out and read back as one more run, when the memory beside
        // the buckets merges each bucket at once; else they are written out, freeing theirs.
        let per_pass = pass_states::<K, T>(mem, threads);
        let in_place = (0..plan.buckets).all(|b| bucket_states(&runs, parts, b) <= per_pass);
        if !in_place {
            runs.push(write_run(parts, false, scratch, mem)?);
            for p in parts.iter_mut() {
                p.free();
            }
        }
        let last: &[Buckets<K, T>] = if in_place { parts } else { &[] };
        let stored = merge_runs(&runs, last, plan.buckets, threads, scratch, mem, clock)?;
        Ok((Frontier::Disk(stored), closed, made))
    });
    for p in parts.iter_mut() {
        p.free();
    }
    for run in runs {
        remove_run(run, scratch);
    }
    give_back();
    result
}

/// A square's new states, all of them in `parts`, written out as one run and merged into
/// the next square's input; the buckets' memory is given back.
pub(super) fn merge_on_disk<K: Key, T: Ways>(
    parts: &mut [Buckets<K, T>],
    scratch: &mut Scratch,
    mem: &Memory,
    clock: &Clock,
) -> Result<Frontier<K, T>, Full> {
    scratch.squares += 1;
    let n = parts[0].n_buckets();
    let threads = parts.len();
    let run = write_run(parts, true, scratch, mem);
    for p in parts.iter_mut() {
        p.free();
    }
    give_back();
    let run = run?;
    let stored = merge_runs::<K, T>(
        std::slice::from_ref(&run),
        &[],
        n,
        threads,
        scratch,
        mem,
        clock,
    );
    remove_run(run, scratch);
    stored.map(Frontier::Disk)
}

/// Every state of `input` expanded into `parts` (reading a disk's states `block` at a
/// time), runs written as the buckets fill; its memory and files are given back.
fn expand_input<K: Key, T: Ways, E>(
    input: Frontier<K, T>,
    block: usize,
    parts: &mut [Buckets<K, T>],
    runs: &mut Vec<RunFiles>,
    scratch: &mut Scratch,
    mem: &Memory,
    expand: &E,
) -> Result<(), Full>
where
    E: Fn(&[Slot<K, T>], &mut Buckets<K, T>) -> Result<(), Full> + Sync,
{
    match input {
        Frontier::Memory(v) => {
            let r = expand_block(&v, parts, runs, scratch, mem, expand);
            mem.release(&v);
            r
        }
        Frontier::Disk(d) => {
            let mut reader = Reader::new(d, mem, block)?;
            let mut states = Vec::new();
            let mut each = || -> Result<(), Full> {
                while reader.next_block(&mut states, scratch)? {
                    expand_block(&states, parts, runs, scratch, mem, expand)?;
                }
                Ok(())
            };
            let r = each();
            mem.release(&states);
            reader.finish(scratch);
            r
        }
    }
}

/// States in memory written to disk as they are (already merged).
fn store<K: Key, T: Ways>(
    states: &[Slot<K, T>],
    threads: usize,
    scratch: &mut Scratch,
) -> Result<Stored, Full> {
    scratch.check_room(std::mem::size_of_val(states) as u64)?;
    let mut pieces = (0..threads)
        .map(|_| scratch.create())
        .collect::<Result<Vec<_>, _>>()?;
    let chunk = states.len().div_ceil(threads).max(1);
    let scr = &*scratch;
    let failed: Option<String> = pieces
        .par_iter_mut()
        .zip(states.par_chunks(chunk))
        .map(|(piece, share)| {
            let mut w = Writer::new(piece);
            for s in share {
                w.push(s);
                w.flush(false, scr)?;
            }
            w.flush(true, scr)
        })
        .filter_map(Result::err)
        .collect::<Vec<_>>()
        .into_iter()
        .next();
    let bits = states.iter().map(|x| x.ways.bits()).max().unwrap_or(0);
    let stored = Stored {
        count: states.len() as u64,
        pieces,
        bits,
    };
    if let Some(why) = failed {
        for p in stored.pieces {
            scratch.remove(p);
        }
        return Err(scratch.fail(why));
    }
    Ok(stored)
}

/// The runs and the states still in `last`'s buckets (if any) merged bucket by bucket (a
/// thread every `threads`-th bucket) into the next square's input. A bucket merges in
/// passes over hash ranges when it would not fit the memory at once, but only without
/// `last`: the caller gives the buckets only where every bucket fits one pass.
#[allow(clippy::too_many_arguments)]
fn merge_runs<K: Key, T: Ways>(
    runs: &[RunFiles],
    last: &[Buckets<K, T>],
    n: usize,
    threads: usize,
    scratch: &mut Scratch,
    mem: &Memory,
    clock: &Clock,
) -> Result<Stored, Full> {
    let on_disk: u64 = runs.iter().flat_map(|r| &r.pieces).map(|p| p.bytes).sum();
    let size = std::mem::size_of::<Slot<K, T>>() as u64;
    // The merged states take at most what the runs take, and the buckets' states no more
    // on disk than in memory.
    scratch.check_room(on_disk + held(last) as u64 * size)?;
    let mut pieces = (0..threads)
        .map(|_| scratch.create())
        .collect::<Result<Vec<_>, _>>()?;
    let scr = &*scratch;
    let per_pass = pass_states::<K, T>(mem, threads).max(1024);
    let merged: Vec<Result<u32, Trouble>> = pieces
        .par_iter_mut()
        .enumerate()
        .map(|(t, piece)| {
            let mut w = Writer::new(piece);
            let (mut bytes, mut index) = (Vec::new(), Vec::new());
            let mut states: Vec<Slot<K, T>> = Vec::new();
            let mut out: Vec<Slot<K, T>> = Vec::new();
            let mut bits = 0;
            let mut result = Ok(());
            'buckets: for b in (t..n).step_by(threads) {
                let lists: Vec<&Vec<Slot<K, T>>> = last.iter().map(|p| p.bucket(b)).collect();
                let passes = if last.is_empty() {
                    bucket_states(runs, last, b).div_ceil(per_pass).max(1)
                } else {
                    1
                };
                for pass in 0..passes {
                    if clock.expired().is_some() {
                        result = Err(Err(Full::Stopped));
                        break 'buckets;
                    }
                    states.clear();
                    let range = (pass, passes);
                    if let Err(e) = read_bucket(runs, b, range, &mut bytes, &mut states, scr, mem) {
                        result = Err(e);
                        break 'buckets;
                    }
                    let mut all = vec![&states];
                    all.extend(&lists);
                    out.clear();
                    if let Err(e) = merge(&all, &mut index, &mut out, mem) {
                        result = Err(Err(e));
                        break 'buckets;
                    }
                    for s in &out {
                        bits = bits.max(s.ways.bits());
                        w.push(s);
                        if let Err(e) = w.flush(false, scr) {
                            result = Err(Ok(e));
                            break 'buckets;
                        }
                    }
                }
            }
            if result.is_ok()
                && let Err(e) = w.flush(true, scr)
            {
                result = Err(Ok(e));
            }
            mem.release(&bytes);
            mem.release(&states);
            mem.release(&index);
            mem.release(&out);
            result.map(|_| bits)
        })
        .collect();
    let count = pieces.iter().map(|p| p.count).sum();
    let mut stored = Stored {
        pieces: Vec::new(),
        count,
        bits: 0,
    };
    let mut failed = None;
    for m in merged {
        match m {
            Ok(bits) => stored.bits = stored.bits.max(bits),
            Err(e) => failed = failed.or(Some(e)),
        }
    }
    stored.pieces = std::mem::take(&mut pieces);
    if let Some(e) = failed {
        for p in stored.pieces {
            scratch.remove(p);
        }
        return Err(match e {
            Ok(why) => scratch.fail(why),
            Err(full) => full,
        });
    }
    Ok(stored)
}

/// The states a thread merges at once: a bucket merges in passes over hash ranges of its
/// states when all of them at once would not fit a thread's share of the memory left (a
/// small budget, many runs).
fn pass_states<K, T>(mem: &Memory, threads: usize) -> u64 {
    let size = std::mem::size_of::<Slot<K, T>>() as u64;
    let share = mem
        .limit()
        .map_or(u64::MAX, |l| l.saturating_sub(mem.held()) / threads as u64);
    // Its states, merged list and table, each of which may take twice what it holds (lists
    // double as they grow).
    share / (5 * size + 40)
}

/// The states of bucket `b` in all the runs and in the buckets of `last`.
fn bucket_states<K: Key, T: Ways>(runs: &[RunFiles], last: &[Buckets<K, T>], b: usize) -> u64 {
    let on_disk: u64 = runs.iter().map(|r| r.segments[b].count).sum();
    on_disk + last.iter().map(|p| p.bucket(b).len() as u64).sum::<u64>()
}

/// Bucket `b` of every run, decoded onto `states`: those whose hash falls in range `j` of
/// `k`.
fn read_bucket<K: Key, T: Ways>(
    runs: &[RunFiles],
    b: usize,
    (j, k): (u64, u64),
    bytes: &mut Vec<u8>,
    states: &mut Vec<Slot<K, T>>,
    scratch: &Scratch,
    mem: &Memory,
) -> Result<(), Trouble> {
    for run in runs {
        let seg = run.segments[b];
        if seg.count == 0 {
            continue;
        }
        let piece = &run.pieces[seg.piece];
        bytes.clear();
        mem.grow(bytes, seg.bytes as usize).map_err(Err)?;
        bytes.resize(seg.bytes as usize, 0);
        piece
            .file
            .read_exact_at(bytes, seg.offset)
            .map_err(|e| Ok(format!("cannot read {}: {e}", piece.path.display())))?;
        scratch.read.fetch_add(seg.bytes, Ordering::Relaxed);
        if k == 1 {
            mem.grow(states, seg.count as usize).map_err(Err)?;
        }
        let (mut at, mut sum) = (0, 0u64);
        for _ in 0..seg.count {
            let (s, term): (Slot<K, T>, u64) = decode(bytes, &mut at).ok_or_else(|| {
                Ok(format!(
                    "{} holds a record that is not a state",
                    piece.path.display()
                ))
            })?;
            sum = sum.wrapping_add(term);
            if k == 1 || (s.key.hash() >> 32) % k == j {
                if states.len() == states.capacity() {
                    mem.grow(states, 1).map_err(Err)?;
                }
                states.push(s);
            }
        }
        if at != bytes.len() {
            return Err(Ok(format!(
                "{} holds more than its states",
                piece.path.display()
            )));
        }
        if sum != seg.sum {
            return Err(Ok(format!(
                "{} changed on disk while the count ran: its states are not those written",
                piece.path.display()
            )));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::key::U128;
    use super::super::states::Wide;
    use super::*;

    #[test]
    fn a_square_projected_past_the_free_space_is_refused_before_it_writes() {
        let parent =
            std::env::temp_dir().join(format!("boardsolve-projected-{}", std::process::id()));
        std::fs::create_dir_all(&parent).unwrap();
        let mut scratch = Scratch::new(&parent, None);
        assert!(scratch.check_projected(1e6).is_ok());
        // More than any disk holds.
        assert!(matches!(scratch.check_projected(1e30), Err(Full::Disk)));
        let why = scratch.failure.clone().unwrap();
        assert!(why.contains("projected") && why.contains("free"), "{why}");
        assert_eq!(scratch.written.load(Ordering::Relaxed), 0);
        // Nothing went through the folder: no note says it did.
        assert!(scratch.stats().is_none());
        drop(scratch);
        // The sweep's folder goes with it.
        assert!(std::fs::read_dir(&parent).unwrap().next().is_none());
        std::fs::remove_dir(&parent).unwrap();
    }

    #[test]
    fn a_state_changed_on_disk_is_caught_by_its_checksum() {
        let parent =
            std::env::temp_dir().join(format!("boardsolve-checksum-{}", std::process::id()));
        std::fs::create_dir_all(&parent).unwrap();
        let mem = Memory::new(None);
        let states: Vec<Slot<u64, u64>> = (0..5_000u64)
            .map(|i| Slot {
                key: i.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1,
                ways: i + 1,
            })
            .collect();
        let read_back = |stored: Stored, scratch: &mut Scratch| {
            let mut back = Vec::new();
            let r = Frontier::<u64, u64>::Disk(stored)
                .for_each_block(Some(scratch), &mem, |b| back.extend_from_slice(b));
            r.map(|()| back)
        };
        // A byte of a state's key or of its count, changed where it still reads as a state.
        for at in [3u64, 9] {
            let mut scratch = Scratch::new(&parent, None);
            let stored = store(&states, 2, &mut scratch).unwrap();
            let back = read_back(stored, &mut scratch).unwrap();
            let pairs =
                |v: &[Slot<u64, u64>]| v.iter().map(|s| (s.key, s.ways)).collect::<Vec<_>>();
            assert_eq!(pairs(&back), pairs(&states));
            let stored = store(&states, 2, &mut scratch).unwrap();
            let piece = &stored.pieces[1];
            let mut byte = [0u8];
            piece.file.read_exact_at(&mut byte, at).unwrap();
            piece.file.write_all_at(&[byte[0] ^ 0x02], at).unwrap();
            assert!(matches!(read_back(stored, &mut scratch), Err(Full::Disk)));
            let why = scratch.failure.clone().unwrap();
            assert!(why.contains("changed on disk"), "{why}");
        }
        // A bucket of a run, read back for its merge.
        let mut scratch = Scratch::new(&parent, None);
        let mut parts = vec![Buckets::<u64, u64>::new(&mem)];
        parts[0].reset(8);
        for s in &states {
            parts[0].add(s.key, s.ways).unwrap();
        }
        let run = write_run(&mut parts, true, &mut scratch, &mem).unwrap();
        let (mut bytes, mut got): (_, Vec<Slot<u64, u64>>) = (Vec::new(), Vec::new());
        let runs = [run];
        for b in 0..8 {
            read_bucket(&runs, b, (0, 1), &mut bytes, &mut got, &scratch, &mem).unwrap();
        }
        assert_eq!(got.len(), states.len());
        let seg = runs[0].segments[5];
        assert!(seg.count > 0);
        runs[0].pieces[seg.piece]
            .file
            .write_all_at(&[0xff], seg.offset + 4)
            .unwrap();
        let Err(Ok(why)) = read_bucket(&runs, 5, (0, 1), &mut bytes, &mut got, &scratch, &mem)
        else {
            panic!("a changed bucket read back");
        };
        assert!(why.contains("changed on disk"), "{why}");
        drop((runs, scratch));
        assert!(std::fs::read_dir(&parent).unwrap().next().is_none());
        std::fs::remove_dir(&parent).unwrap();
    }

    #[test]
    fn records_read_back_as_written() {
        let mut buf = Vec::new();
        let mut limbs = [0; 64];
        let keys = [0u64, 1, u64::MAX, 0x0123_4567_89ab_cdef];
        for &k in &keys {
            for &w in &[0u64, 1, 127, 128, u64::MAX] {
                encode(&Slot { key: k, ways: w }, &mut buf, &mut limbs);
                let hi = U128::from_words([k, k.rotate_left(17)]);
                encode(
                    &Slot {
                        key: hi,
                        ways: (w as u128 * 3) << 40,
                    },
                    &mut buf,
                    &mut limbs,
                );
            }
        }
        let mut at = 0;
        for &k in &keys {
            for &w in &[0u64, 1, 127, 128, u64::MAX] {
                let (a, _): (Slot<u64, u64>, _) = decode(&buf, &mut at).unwrap();
                assert_eq!((a.key, a.ways), (k, w));
                let (b, _): (Slot<U128, u128>, _) = decode(&buf, &mut at).unwrap();
                assert_eq!(b.key.words(), [k, k.rotate_left(17)]);
                assert_eq!(b.ways, (w as u128 * 3) << 40);
            }
        }
        assert_eq!(at, buf.len());
        // A count too wide for the type it is read as is refused, not cut.
        let mut one = Vec::new();
        encode(
            &Slot {
                key: 5u64,
                ways: 1u128 << 100,
            },
            &mut one,
            &mut limbs,
        );
        assert!(decode::<u64, u64>(&one, &mut 0).is_none());
        let (w, _): (Slot<u64, Wide<3>>, _) = decode(&one, &mut 0).unwrap();
        assert_eq!(w.ways.bits(), 101);
        // Truncated records are refused.
        for cut in 0..one.len() {
            assert!(decode::<u64, u128>(&one[..cut], &mut 0).is_none());
        }
    }
}

//! SHA-256 of two messages at once. With the x86 SHA extensions, one message's rounds wait on
//! the SHA unit's latency; interleaving a second, independent message fills those waits
//! (1.45x the throughput of one stream on the benchmark machine). Search hashes many files
//! (checksums, each file carried beside the next: [`Partial`]) and many short messages (span
//! ids, in pairs). Without the extensions, or off x86_64, each message goes through
//! `sha2::compress256` in turn.

use sha2::digest::generic_array::GenericArray;

/// A SHA-256 block.
pub type Block = [u8; 64];

/// SHA-256's initial state.
pub const H0: [u32; 8] = [
    0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
];

/// Compresses `a` into `state_a` and `b` into `state_b` (the same number of blocks).
pub fn compress_pair(state_a: &mut [u32; 8], state_b: &mut [u32; 8], a: &[Block], b: &[Block]) {
    assert_eq!(
        a.len(),
        b.len(),
        "compress_pair takes as many blocks of each"
    );
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("sha")
        && std::arch::is_x86_feature_detected!("sse4.1")
        && std::arch::is_x86_feature_detected!("ssse3")
    {
        // SAFETY: the CPU has the features the function is compiled for (checked above); it
        // reads `a` and `b` and writes the two states only within their bounds.
        unsafe { shani::compress_pair(state_a, state_b, a, b) };
        return;
    }
    compress(state_a, a);
    compress(state_b, b);
}

/// Compresses `blocks` into `state`, one stream (sha2's own code, SHA extensions included).
pub fn compress(state: &mut [u32; 8], blocks: &[Block]) {
    let blocks: &[GenericArray<u8, _>] = bytemuck_blocks(blocks);
    sha2::compress256(state, blocks);
}

/// `[u8; 64]` blocks as sha2's `GenericArray<u8, U64>` blocks (the same layout).
fn bytemuck_blocks(blocks: &[Block]) -> &[GenericArray<u8, sha2::digest::typenum::U64>] {
    // GenericArray<u8, U64> is a transparent wrapper of [u8; 64]: the same size and alignment.
    let len = blocks.len();
    let ptr = blocks
        .as_ptr()
        .cast::<GenericArray<u8, sha2::digest::typenum::U64>>();
    // SAFETY: same layout (size 64, align 1), same length, borrowed for the same lifetime.
    unsafe { std::slice::from_raw_parts(ptr, len) }
}

/// A message's SHA-256 under way: its state after its first whole blocks. Messages are
/// advanced two at a time ([`Partial::advance_pair`]) as far as both have whole blocks, and
/// the one with blocks left goes on beside the next message: a run of messages of any lengths
/// is hashed two streams at once nearly all the way, where pairing them two by two leaves the
/// longer one's rest to one stream (search's file checksums: most of their bytes).
#[derive(Debug, Clone)]
pub struct Partial {
    state: [u32; 8],
    /// Bytes compressed (whole blocks).
    at: usize,
}

impl Partial {
    pub fn new() -> Partial {
        Partial { state: H0, at: 0 }
    }

    /// How many whole blocks of `message` are still to be compressed.
    pub fn whole_left(&self, message: &[u8]) -> usize {
        message.len() / 64 - self.at / 64
    }

    /// Compresses the next whole blocks of `a` and `b` side by side, as many as both have.
    pub fn advance_pair(pa: &mut Partial, a: &[u8], pb: &mut Partial, b: &[u8]) {
        let n = pa.whole_left(a).min(pb.whole_left(b));
        let blocks_a = &as_blocks(&a[pa.at..])[..n];
        let blocks_b = &as_blocks(&b[pb.at..])[..n];
        compress_pair(&mut pa.state, &mut pb.state, blocks_a, blocks_b);
        pa.at += n * 64;
        pb.at += n * 64;
    }

    /// The digest of `message` (the one advanced so far): its whole blocks left, then its
    /// padded tail, in one stream.
    pub fn finish(mut self, message: &[u8]) -> [u8; 32] {
        compress(&mut self.state, as_blocks(&message[self.at..]));
        let (tail, n) = padded_tail(message);
        compress(&mut self.state, &tail[..n]);
        digest_bytes(&self.state)
    }
}

impl Default for Partial {
    fn default() -> Partial {
        Partial::new()
    }
}

/// SHA-256 of messages that begin with one prefix (the path of a file): the prefix's whole
/// blocks are compressed once, each message's rest on the stack.
#[derive(Clone)]
pub struct Prefixed {
    /// The state after the prefix's whole blocks.
    state: [u32; 8],
    /// The prefix's bytes after them (fewer than 64).
    rest: Vec<u8>,
    /// The prefix's length.
    len: usize,
}

impl Prefixed {
    pub fn new(prefix: &[u8]) -> Prefixed {
        let whole = as_blocks(prefix);
        let mut state = H0;
        compress(&mut state, whole);
        Prefixed {
            state,
            rest: prefix[whole.len() * 64..].to_vec(),
            len: prefix.len(),
        }
    }

    /// The first 8 bytes of the digest of the prefix followed by `parts`.
    pub fn digest8(&self, parts: &[&[u8]]) -> [u8; 8] {
        let size = self.rest.len() + parts.iter().map(|p| p.len()).sum::<usize>();
        // The rest of the message, padded: on the stack unless it is long.
        let blocks = (size + 9).div_ceil(64);
        let mut stack = [0u8; 256];
        let mut heap = Vec::new();
        let buf: &mut [u8] = if blocks * 64 <= stack.len() {
            &mut stack[..blocks * 64]
        } else {
            heap.resize(blocks * 64, 0);
            &mut heap
        };
        let mut at = 0;
        for part in std::iter::once(&self.rest[..]).chain(parts.iter().copied()) {
            buf[at..at + part.len()].copy_from_slice(part);
            at += part.len();
        }
        buf[at] = 0x80;
        let bits = ((self.len - self.rest.len() + size) as u64) * 8;
        buf[blocks * 64 - 8..].copy_from_slice(&bits.to_be_bytes());
        let mut state = self.state;
        compress(&mut state, as_blocks(buf));
        let mut out = [0u8; 8];
        out[..4].copy_from_slice(&state[0].to_be_bytes());
        out[4..].copy_from_slice(&state[1].to_be_bytes());
        out
    }
}

/// The whole 64-byte blocks at the start of `message`.
fn as_blocks(message: &[u8]) -> &[Block] {
    let (blocks, _) = message.as_chunks::<64>();
    blocks
}

/// The last, partial block of `message` with SHA-256's padding and length: one or two
/// blocks, and how many.
fn padded_tail(message: &[u8]) -> ([Block; 2], usize) {
    let rest = &message[message.len() / 64 * 64..];
    let mut flat = [0u8; 128];
    flat[..rest.len()].copy_from_slice(rest);
    flat[rest.len()] = 0x80;
    let n = if rest.len() + 9 <= 64 { 1 } else { 2 };
    flat[64 * n - 8..64 * n].copy_from_slice(&((message.len() as u64) * 8).to_be_bytes());
    let mut blocks = [[0u8; 64]; 2];
    blocks[0].copy_from_slice(&flat[..64]);
    blocks[1].copy_from_slice(&flat[64..]);
    (blocks, n)
}

/// A final state as the digest's bytes.
fn digest_bytes(state: &[u32; 8]) -> [u8; 32] {
    let mut out = [0u8; 32];
    for (word, bytes) in state.iter().zip(out.chunks_exact_mut(4)) {
        bytes.copy_from_slice(&word.to_be_bytes());
    }
    out
}

#[cfg(target_arch = "x86_64")]
mod shani {
    //! The two-stream compression with the SHA extensions: the standard SHA-NI sequence
    //! (state as ABEF/CDGH, `sha256rnds2` two rounds at a time, `sha256msg1/2` for the
    //! message schedule), written once per stream and interleaved step by step.

    use super::Block;
    use std::arch::x86_64::*;

    /// SHA-256's round constants.
    const K: [u32; 64] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
        0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
        0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
        0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
        0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
        0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
        0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
        0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ];

    /// A state (a..h) as the two registers the rounds take: ABEF and CDGH.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn load(state: &[u32; 8]) -> (__m128i, __m128i) {
        // SAFETY: two unaligned 16-byte loads within the 32 bytes of `state`.
        let (dcba, hgfe) = unsafe {
            let p = state.as_ptr().cast::<__m128i>();
            (_mm_loadu_si128(p), _mm_loadu_si128(p.add(1)))
        };
        let cdab = _mm_shuffle_epi32(dcba, 0xB1);
        let efgh = _mm_shuffle_epi32(hgfe, 0x1B);
        (
            _mm_alignr_epi8(cdab, efgh, 8),
            _mm_blend_epi16(efgh, cdab, 0xF0),
        )
    }

    /// The inverse of [`load`].
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn store(state: &mut [u32; 8], abef: __m128i, cdgh: __m128i) {
        let feba = _mm_shuffle_epi32(abef, 0x1B);
        let dchg = _mm_shuffle_epi32(cdgh, 0xB1);
        let dcba = _mm_blend_epi16(feba, dchg, 0xF0);
        let hgef = _mm_alignr_epi8(dchg, feba, 8);
        // SAFETY: two unaligned 16-byte stores within the 32 bytes of `state`.
        unsafe {
            let p = state.as_mut_ptr().cast::<__m128i>();
            _mm_storeu_si128(p, dcba);
            _mm_storeu_si128(p.add(1), hgef);
        }
    }

    /// The 16 big-endian message words of a block, four per register.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    fn words(block: &Block) -> [__m128i; 4] {
        let swap = _mm_set_epi64x(0x0C0D_0E0F_0809_0A0B, 0x0405_0607_0001_0203);
        // SAFETY: four unaligned 16-byte loads within the 64 bytes of `block`.
        let raw = unsafe {
            let p = block.as_ptr().cast::<__m128i>();
            [
                _mm_loadu_si128(p),
                _mm_loadu_si128(p.add(1)),
                _mm_loadu_si128(p.add(2)),
                _mm_loadu_si128(p.add(3)),
            ]
        };
        raw.map(|w| _mm_shuffle_epi8(w, swap))
    }

    /// The next four message words from the previous sixteen.
    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    #[inline]
    fn schedule(w0: __m128i, w1: __m128i, w2: __m128i, w3: __m128i) -> __m128i {
        let t = _mm_add_epi32(_mm_sha256msg1_epu32(w0, w1), _mm_alignr_epi8(w3, w2, 4));
        _mm_sha256msg2_epu32(t, w3)
    }

    #[target_feature(enable = "sha,sse2,ssse3,sse4.1")]
    pub(super) fn compress_pair(
        state_a: &mut [u32; 8],
        state_b: &mut [u32; 8],
        a: &[Block],
        b: &[Block],
    ) {
        let (mut abef_a, mut cdgh_a) = load(state_a);
        let (mut abef_b, mut cdgh_b) = load(state_b);
        for (block_a, block_b) in a.iter().zip(b) {
            let saved = (abef_a, cdgh_a, abef_b, cdgh_b);
            let mut wa = words(block_a);
            let mut wb = words(block_b);
            // Four rounds per step: the schedule (from step 4 on), then two `sha256rnds2`
            // per stream, the streams' instructions side by side.
            macro_rules! step {
                ($i:expr) => {{
                    const I: usize = $i;
                    if I >= 4 {
                        let (i0, i1, i2, i3) = (I % 4, (I + 1) % 4, (I + 2) % 4, (I + 3) % 4);
                        wa[i0] = schedule(wa[i0], wa[i1], wa[i2], wa[i3]);
                        wb[i0] = schedule(wb[i0], wb[i1], wb[i2], wb[i3]);
                    }
                    let k = _mm_set_epi32(
                        K[4 * I + 3] as i32,
                        K[4 * I + 2] as i32,
                        K[4 * I + 1] as i32,
                        K[4 * I] as i32,
                    );
                    let ta = _mm_add_epi32(wa[I % 4], k);
                    let tb = _mm_add_epi32(wb[I % 4], k);
                    cdgh_a = _mm_sha256rnds2_epu32(cdgh_a, abef_a, ta);
                    cdgh_b = _mm_sha256rnds2_epu32(cdgh_b, abef_b, tb);
                    abef_a = _mm_sha256rnds2_epu32(abef_a, cdgh_a, _mm_shuffle_epi32(ta, 0x0E));
                    abef_b = _mm_sha256rnds2_epu32(abef_b, cdgh_b, _mm_shuffle_epi32(tb, 0x0E));
                }};
            }
            step!(0);
            step!(1);
            step!(2);
            step!(3);
            step!(4);
            step!(5);
            step!(6);
            step!(7);
            step!(8);
            step!(9);
            step!(10);
            step!(11);
            step!(12);
            step!(13);
            step!(14);
            step!(15);
            abef_a = _mm_add_epi32(abef_a, saved.0);
            cdgh_a = _mm_add_epi32(cdgh_a, saved.1);
            abef_b = _mm_add_epi32(abef_b, saved.2);
            cdgh_b = _mm_add_epi32(cdgh_b, saved.3);
        }
        store(state_a, abef_a, cdgh_a);
        store(state_b, abef_b, cdgh_b);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    fn message(len: usize, seed: u8) -> Vec<u8> {
        (0..len)
            .map(|i| (i as u8).wrapping_mul(31).wrapping_add(seed))
            .collect()
    }

    #[test]
    fn prefixed_messages_hash_as_sha2_does() {
        for prefix_len in [0, 1, 40, 63, 64, 65, 130] {
            let prefix = message(prefix_len, 5);
            let p = Prefixed::new(&prefix);
            for len_a in (0..300).chain([1000]) {
                let (a, b) = (message(len_a, 1), message(len_a / 3, 2));
                let whole = [&prefix[..], &a[..], b"\0", &b[..]].concat();
                let want = &Sha256::digest(&whole)[..8];
                assert_eq!(p.digest8(&[&a, b"\0", &b]), want, "{prefix_len} {len_a}");
            }
        }
    }

    /// Two messages advanced side by side, then finished each.
    fn pair(a: &[u8], b: &[u8]) -> ([u8; 32], [u8; 32]) {
        let (mut pa, mut pb) = (Partial::new(), Partial::new());
        Partial::advance_pair(&mut pa, a, &mut pb, b);
        (pa.finish(a), pb.finish(b))
    }

    #[test]
    fn pairs_hash_as_sha2_does() {
        // Every length around one and two blocks, paired with lengths that make the pair's
        // whole blocks and tails equal or not.
        for len_a in 0..200 {
            for len_b in [
                0,
                1,
                55,
                56,
                63,
                64,
                65,
                119,
                120,
                128,
                len_a,
                len_a + 64,
                1000,
            ] {
                let (a, b) = (message(len_a, 1), message(len_b, 7));
                let (da, db) = pair(&a, &b);
                assert_eq!(&da[..], &Sha256::digest(&a)[..], "{len_a} (with {len_b})");
                assert_eq!(&db[..], &Sha256::digest(&b)[..], "{len_b} (with {len_a})");
            }
        }
        let (a, b) = (message(1 << 20, 3), message((1 << 20) + 77, 9));
        let (da, db) = pair(&a, &b);
        assert_eq!(&da[..], &Sha256::digest(&a)[..]);
        assert_eq!(&db[..], &Sha256::digest(&b)[..]);
    }

    /// A run of messages hashed two streams at once, each going on beside the next as far as
    /// its whole blocks last, gives each its own digest.
    #[test]
    fn partials_carried_from_message_to_message_hash_as_sha2_does() {
        let lens = [
            0, 1, 63, 64, 65, 200, 5000, 128, 64, 3, 70_000, 129, 0, 1000,
        ];
        let messages: Vec<Vec<u8>> = (0..lens.len()).map(|i| message(lens[i], i as u8)).collect();
        let mut digests = vec![None; messages.len()];
        // The message with blocks left, carried to the next.
        let mut carry: Option<(usize, Partial)> = None;
        for (i, m) in messages.iter().enumerate() {
            let mut p = Partial::new();
            let Some((k, mut pk)) = carry.take() else {
                carry = Some((i, p));
                continue;
            };
            Partial::advance_pair(&mut pk, &messages[k], &mut p, m);
            if pk.whole_left(&messages[k]) == 0 {
                digests[k] = Some(pk.finish(&messages[k]));
                carry = Some((i, p));
            } else {
                assert_eq!(p.whole_left(m), 0);
                digests[i] = Some(p.finish(m));
                carry = Some((k, pk));
            }
        }
        if let Some((k, pk)) = carry {
            digests[k] = Some(pk.finish(&messages[k]));
        }
        for (m, d) in messages.iter().zip(&digests) {
            assert_eq!(&d.unwrap()[..], &Sha256::digest(m)[..], "{}", m.len());
        }
    }

    #[test]
    fn compress_pair_is_two_compressions() {
        let blocks: Vec<Block> = (0..5u8).map(|i| [i.wrapping_mul(97); 64]).collect();
        let others: Vec<Block> = (0..5u8).map(|i| [i ^ 0x5a; 64]).collect();
        let (mut a, mut b) = (H0, H0);
        compress_pair(&mut a, &mut b, &blocks, &others);
        let (mut a2, mut b2) = (H0, H0);
        compress(&mut a2, &blocks);
        compress(&mut b2, &others);
        assert_eq!((a, b), (a2, b2));
    }
}

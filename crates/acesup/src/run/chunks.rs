//! A run's games cut into chunks that take about the same time whatever a game
//! costs ([`AdaptiveChunks`]): the bindings look for Ctrl-C between two chunks.

use std::time::Duration;

/// The most games a thread plays between two checks for Ctrl-C by the bindings:
/// tens of milliseconds of random play-outs.
const CHUNK_PER_THREAD: u64 = 1 << 15;

/// How long a chunk of games between two checks for Ctrl-C should take.
const CHUNK_TIME: Duration = Duration::from_millis(40);

/// The chunks of a run of games, each played by one thread between two of its
/// checks for Ctrl-C, sized to take about [`CHUNK_TIME`] whatever a game costs: from one
/// game, a chunk doubles while chunks end in less than half that time and halves
/// when one takes more than twice as long, within one and [`CHUNK_PER_THREAD`]
/// games. A random play-out takes a microsecond and a montecarlo game a
/// millisecond, so no fixed size suits both. The sizes never change a result: a
/// game depends on its index alone.
pub(crate) struct AdaptiveChunks {
    next: u64,
    left: u128,
    size: u64,
    most: u64,
    /// Chunks given back ([`AdaptiveChunks::put_back`]), handed out again first.
    given_back: Vec<(u64, u64)>,
}

impl AdaptiveChunks {
    /// The chunks of `games` games from index `start` (modulo 2⁶⁴).
    pub(crate) fn new(start: u64, games: u128) -> AdaptiveChunks {
        AdaptiveChunks {
            next: start,
            left: games,
            size: 1,
            most: CHUNK_PER_THREAD,
            given_back: Vec::new(),
        }
    }

    /// The next chunk, (first index, count), or None when the run is covered.
    pub(crate) fn next_chunk(&mut self) -> Option<(u64, u64)> {
        self.take(u128::from(self.size))
    }

    /// The next chunk for one of `threads` threads that each take the next chunk as
    /// soon as they are done with one: at most a 2·`threads`-th part of the games
    /// left, so that the chunks shrink towards the end of the run and the threads'
    /// last chunks end close together (no thread waits long for another).
    pub(crate) fn next_chunk_among(&mut self, threads: usize) -> Option<(u64, u64)> {
        let share = self.left / (2 * threads.max(1) as u128);
        self.take(share.clamp(1, u128::from(self.size)))
    }

    /// The next chunk of at most `most` games, whatever the timings said.
    pub(crate) fn next_chunk_of(&mut self, most: u64) -> Option<(u64, u64)> {
        self.size = most;
        self.next_chunk()
    }

    /// A chunk given back if there is one, else the next `most` games or fewer.
    fn take(&mut self, most: u128) -> Option<(u64, u64)> {
        if let Some(chunk) = self.given_back.pop() {
            self.left -= u128::from(chunk.1);
            return Some(chunk);
        }
        if self.left == 0 {
            return None;
        }
        let count = self.left.min(most) as u64;
        let chunk = (self.next, count);
        self.next = self.next.wrapping_add(count);
        self.left -= u128::from(count);
        Some(chunk)
    }

    /// Take back a chunk handed out, (first index, count), to be handed out again.
    pub(crate) fn put_back(&mut self, chunk: (u64, u64)) {
        self.given_back.push(chunk);
        self.left += u128::from(chunk.1);
    }

    /// Whether every chunk has been handed out and none given back.
    pub(crate) fn is_done(&self) -> bool {
        self.left == 0
    }

    /// Adapt the size of the next chunks to the time the last one took.
    pub(crate) fn took(&mut self, elapsed: Duration) {
        if elapsed < CHUNK_TIME / 2 {
            self.size = (self.size * 2).min(self.most);
        } else if elapsed > CHUNK_TIME * 2 {
            self.size = (self.size / 2).max(1);
        }
    }
}

#[cfg(test)]
#[path = "../tests/run/chunks.rs"]
mod tests;

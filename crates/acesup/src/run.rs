//! Running work, whatever it is: where it runs (the calling thread or a pool of
//! threads, [`Pool`]), in chunks that take about the same time however costly an
//! item (`AdaptiveChunks`), as a stream of results in index order from threads
//! of its own ([`Stream`]), and how it is cancelled from outside ([`cancel`]).
//! Nothing here knows what a game is: `simulate` plays its games on these, and
//! the solver solves its deals on a stream.

pub mod cancel;
mod chunks;
mod pool;
mod stream;

pub(crate) use chunks::AdaptiveChunks;
pub use pool::{thread_count, Pool, MAX_THREADS};
pub use stream::{Next, Stream};

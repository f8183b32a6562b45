//! One parallel map for independent items (records, mostly): shared out in contiguous chunks,
//! one chunk per core, and put back in order, so that the result is the sequential one.

/// Below this many items the work runs on the calling thread. Starting and joining a thread
/// costs tens of microseconds, about what a small record's parse and analysis cost, so a
/// keystroke's one or two records are never worth a thread, and a file of thousands always is.
pub const SHARED_FROM: usize = 16;

/// `work` applied to contiguous chunks of `items`, one chunk per available core when there are
/// at least `SHARED_FROM` items, the results concatenated in the items' order. `work` sees a
/// whole chunk so that it can set up once per thread (a parser, a buffer). A panic of `work`
/// goes on in the caller, as it would without threads.
pub fn map_chunks<I: Sync, T: Send>(items: &[I], work: impl Fn(&[I]) -> Vec<T> + Sync) -> Vec<T> {
    let threads = cores();
    if threads <= 1 || items.len() < SHARED_FROM {
        return work(items);
    }
    let chunk = items.len().div_ceil(threads);
    let work = &work;
    std::thread::scope(|scope| {
        let handles: Vec<_> =
            items.chunks(chunk).map(|part| scope.spawn(move || work(part))).collect();
        handles
            .into_iter()
            .flat_map(|handle| {
                handle.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
            })
            .collect()
    })
}

/// The cores this process may use, asked once: on Linux the answer reads the process's
/// cgroup files, a dozen system calls, which a command checking 2,000 small files (each a
/// `map_chunks` of its records) paid 2,000 times.
fn cores() -> usize {
    static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, usize::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parallel_map_keeps_the_order_of_the_items() {
        for count in [0, 1, SHARED_FROM - 1, SHARED_FROM, 1000] {
            let items: Vec<usize> = (0..count).collect();
            let doubled = map_chunks(&items, |part| part.iter().map(|item| item * 2).collect());
            assert_eq!(doubled, items.iter().map(|item| item * 2).collect::<Vec<_>>());
        }
    }

    #[test]
    fn a_chunk_may_give_any_number_of_results() {
        let items: Vec<usize> = (0..100).collect();
        let repeated = map_chunks(&items, |part| {
            part.iter().flat_map(|&item| std::iter::repeat_n(item, item % 3)).collect()
        });
        let expected: Vec<usize> =
            items.iter().flat_map(|&item| std::iter::repeat_n(item, item % 3)).collect();
        assert_eq!(repeated, expected);
    }
}

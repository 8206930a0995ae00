//! Probe-and-store throughput of the tables: the single-threaded [`Table`] (alone, and behind a mutex so threads
//! can share it), [`DashTable`] and [`AtomicTable`], on one and two threads.
//!
//! Every table has 2^16 slots (or keys) and sees a fixed stream of 2^16 operations over 2^17 distinct random
//! keys, so tables fill up and replace. Each operation probes its key and, for a store operation, then stores an
//! entry for it. Two mixes: 10% and 50% stores. With two threads, the stream is split in two halves that a rayon
//! pool of two threads runs at once.

use std::hint::black_box;
use std::sync::Mutex;

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use khela_tt::{AtomicTable, Bound, ConcurrentTable, DashTable, Replacement, Table, TableEntry};
use rayon::prelude::*;

const SLOTS: usize = 1 << 16;
const OPS: usize = 1 << 16;
const KEYS: u64 = 1 << 17;
const POLICY: Replacement = Replacement::TwoTier;

/// One operation: probe `key`, then store an entry of depth `depth` if `store`.
#[derive(Clone, Copy)]
struct Op {
    key: u64,
    depth: u32,
    store: bool,
}

/// The fixed stream of operations, `stores_in_10` in ten of them storing.
fn ops(stores_in_10: u64) -> Vec<Op> {
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    (0..OPS)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let key = (state % KEYS).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            Op { key, depth: (state >> 32) as u32 % 12, store: (state >> 48) % 10 < stores_in_10 }
        })
        .collect()
}

fn entry(op: Op) -> TableEntry<u16> {
    TableEntry::new(f64::from(op.depth), Bound::Lower, op.depth, Some(op.key as u16))
}

/// Runs `ops` against a shared table, returning the number of hits.
fn run_shared<T: ConcurrentTable<Move = u16>>(table: &T, ops: &[Op]) -> usize {
    let mut hits = 0;
    for &op in ops {
        hits += usize::from(table.probe(op.key).is_some());
        if op.store {
            table.store(op.key, entry(op));
        }
    }
    hits
}

/// A single-threaded table behind one lock, as the baseline a shared table must beat.
struct Locked(Mutex<Table<u16>>);

impl ConcurrentTable for Locked {
    type Move = u16;

    fn probe(&self, key: u64) -> Option<TableEntry<u16>> {
        self.0.lock().unwrap().probe(key)
    }

    fn store(&self, key: u64, entry: TableEntry<u16>) {
        self.0.lock().unwrap().store(key, entry);
    }
}

fn tables(c: &mut Criterion) {
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    for stores_in_10 in [1, 5] {
        let ops = ops(stores_in_10);
        let mut group = c.benchmark_group(format!("probe_store/{}%_stores", stores_in_10 * 10));
        group.throughput(Throughput::Elements(OPS as u64));

        let mut table = Table::with_entries(SLOTS, POLICY);
        group.bench_function(BenchmarkId::new("Table", 1), |b| {
            b.iter(|| {
                let mut hits = 0;
                for &op in &ops {
                    hits += usize::from(table.probe(op.key).is_some());
                    if op.store {
                        table.store(op.key, entry(op));
                    }
                }
                black_box(hits)
            })
        });

        let locked = Locked(Mutex::new(Table::with_entries(SLOTS, POLICY)));
        let dash = DashTable::with_entries(SLOTS);
        let atomic = AtomicTable::with_entries(SLOTS, POLICY);
        bench_shared(&mut group, &pool, "Mutex<Table>", &locked, &ops);
        bench_shared(&mut group, &pool, "DashTable", &dash, &ops);
        bench_shared(&mut group, &pool, "AtomicTable", &atomic, &ops);
        group.finish();
    }
}

/// Benchmarks `table` on the bench thread and on two threads of `pool`.
fn bench_shared<T: ConcurrentTable<Move = u16>>(
    group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    pool: &rayon::ThreadPool,
    name: &str,
    table: &T,
    ops: &[Op],
) {
    group.bench_function(BenchmarkId::new(name, 1), |b| b.iter(|| black_box(run_shared(table, ops))));
    group.bench_function(BenchmarkId::new(name, 2), |b| {
        b.iter(|| {
            pool.install(|| black_box(ops.par_chunks(OPS / 2).map(|half| run_shared(table, half)).sum::<usize>()))
        })
    });
}

criterion_group!(benches, tables);
criterion_main!(benches);

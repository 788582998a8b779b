// The 2009 Jython synchronization benchmark (Tobias Ivarsson), in plain Java 8+.
// One sample = the original's measured phase for one function: a fixed pool of THREADS threads runs
// TASKS tasks; a task times ROUNDS rounds of CALLS calls of f(5, 10) and keeps its fastest round; the
// sample is the sum of the TASKS minima for TASKS x CALLS calls.  Each task sums every result into a
// local and returns sum / (ROUNDS x CALLS), so that the JIT cannot drop the calls.
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntFunction;

import versus.Helper;

public class SynchBench {
    static final int THREADS = Integer.parseInt(Helper.param("threads", "3"));
    static final int TASKS = Integer.parseInt(Helper.param("tasks", "40"));
    static final int ROUNDS = Integer.parseInt(Helper.param("rounds", "5"));
    static final int CALLS = Integer.parseInt(Helper.param("calls", "10000"));
    static final int WARMUP_CALLS = Integer.parseInt(Helper.param("warmup_calls", "20000"));

    interface Adder {
        int apply(int a, int b);
    }

    static int counter;
    // The arguments are read from volatile fields on every call, as f(5, 10) in a dynamic language is
    // opaque to its JIT: constants would let C2 fold the whole loop of `adder` into one multiply.
    static volatile int five = 5;
    static volatile int ten = 10;
    static final Object MONITOR = new Object();
    static final ReentrantLock LOCK = new ReentrantLock();
    static final AtomicInteger ATOMIC = new AtomicInteger();

    static int adder(int a, int b) {
        return a + b;
    }

    static int countingAdder(int a, int b) {
        counter++;
        return a + b;
    }

    static int synchronizedCountingAdder(int a, int b) {
        synchronized (MONITOR) {
            counter++;
        }
        return a + b;
    }

    static int atomicCountingAdder(int a, int b) {
        ATOMIC.incrementAndGet();
        return a + b;
    }

    /** Each task's own monitor and counter: synchronizedCountingAdder with no contention at all. */
    static final class Own {
        final Object monitor = new Object();
        int counter;

        int synchronizedCountingAdder(int a, int b) {
            synchronized (monitor) {
                counter++;
            }
            return a + b;
        }
    }

    static int lockCountingAdder(int a, int b) {
        LOCK.lock();
        try {
            counter++;
        } finally {
            LOCK.unlock();
        }
        return a + b;
    }

    /** Times ROUNDS rounds of CALLS calls; returns {fastest round in ns, sum of results / calls}. */
    static long[] task(Adder f) {
        long best = Long.MAX_VALUE;
        long sum = 0;
        for (int round = 0; round < ROUNDS; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < CALLS; i++) {
                sum += f.apply(five, ten);
            }
            long elapsed = System.nanoTime() - start;
            if (elapsed < best) {
                best = elapsed;
            }
        }
        return new long[] {best, sum / ((long) ROUNDS * CALLS)};
    }

    static final Map<Object, Boolean> WARMED = new java.util.IdentityHashMap<>();

    /** The original's warm-up, once per process: WARMUP_CALLS calls on the main thread. */
    static void warm(Object key, Adder f) {
        if (WARMED.containsKey(key)) {
            return;
        }
        long sink = 0;
        for (int i = 0; i < WARMUP_CALLS; i++) {
            sink += f.apply(5, 10);
        }
        if (sink == 42) {
            System.out.println("unlikely");
        }
        WARMED.put(key, true);
    }

    static Helper.Case measure(Adder f, String counted) {
        return ctx -> {
            warm(f, f);
            return pool(ctx, t -> f, counted, null);
        };
    }

    /** One call site, so that the warm-up and the tasks call through the same lambda class. */
    static Adder adderOf(Own own) {
        return own::synchronizedCountingAdder;
    }

    /** Each task makes its own monitor and counter, in the pool thread that runs it. */
    static Helper.Case uncontended() {
        return ctx -> {
            warm(Own.class, adderOf(new Own()));
            Own[] own = new Own[TASKS];
            return pool(ctx, t -> {
                own[t] = new Own();
                return adderOf(own[t]);
            }, "lock", own);
        };
    }

    /** One pool run of TASKS tasks, task t calling make.apply(t). own: the uncontended tasks' counters. */
    static Helper.Sample pool(Helper.Context ctx, IntFunction<Adder> make, String counted, Own[] own)
            throws Exception {
        counter = 0;
        ATOMIC.set(0);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        long ns = 0;
        long resultSum = 0;
        try {
            List<Future<long[]>> futures = new ArrayList<>();
            for (int t = 0; t < TASKS; t++) {
                final int index = t;
                futures.add(pool.submit(() -> task(make.apply(index))));
            }
            for (Future<long[]> future : futures) {
                long[] result = future.get();
                ns += result[0];
                resultSum += result[1];
            }
        } finally {
            pool.shutdownNow();
        }
        long calls = (long) TASKS * ROUNDS * CALLS;
        Object check;
        if (counted.equals("atomic")) {
            check = ATOMIC.get();
        } else if (counted.equals("lock")) {
            long sum = counter;
            if (own != null) {
                sum = 0;
                for (Own o : own) {
                    sum += o.counter;
                }
            }
            check = sum;
        } else {
            check = resultSum;
            if (counted.equals("unsynchronized")) {
                ctx.metric("lost_updates", calls - counter, "count");
            }
        }
        return new Helper.Sample(ns, (long) TASKS * CALLS, check);
    }

    public static void main(String[] args) {
        Map<String, Helper.Case> cases = new LinkedHashMap<>();
        cases.put("adder", measure(SynchBench::adder, "none"));
        cases.put("counting_adder", measure(SynchBench::countingAdder, "unsynchronized"));
        cases.put("synchronized_counting_adder", measure(SynchBench::synchronizedCountingAdder, "lock"));
        cases.put("uncontended_synchronized_counting_adder", uncontended());
        cases.put("atomic_counting_adder", measure(SynchBench::atomicCountingAdder, "atomic"));
        cases.put("lock_counting_adder", measure(SynchBench::lockCountingAdder, "lock"));
        Helper.run(cases);
    }
}

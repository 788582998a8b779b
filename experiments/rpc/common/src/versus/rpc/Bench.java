package versus.rpc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.BrokenBarrierException;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import versus.Helper;

/**
 * How every client of this experiment is measured, whatever its transport (plain Java, shared by the 2008 and
 * today's Maven projects, which cannot share a class path otherwise).
 *
 * <p>Before its first sample a process run warms up by count: {@code warmup_round_trips} round trips (20,000)
 * on its connection, untimed, so that HotSpot has compiled each stack's hot path (C2 compiles a method
 * after some 10,000 calls; a warmup by time gave a stack at 1 ms a round trip only ~800). A stack whose
 * round trips are so slow that the count does not fit in {@code warmup_max_ms} (the 2008 socket on Linux's
 * defaults, 89 ms each) stops there once it has settled: the medians of its last four blocks of round
 * trips within 5% of each other. The run reports {@code warmup_round_trips} and {@code warmup_settled}
 * (1 or 0) as metrics.
 *
 * <p>A sample is a batch of round trips on one connection at concurrency 1, as many as fit in
 * VERSUS_MIN_SAMPLE_NS (the sample sizes itself and reports the count as its inner); each round trip is also
 * timed on its own so that the process run can report its latency percentiles. The check is the count of
 * responses that differed from the expected MediaContent, so the experiment's {@code check = "0"} fails on a
 * single wrong answer (a missing one fails the run with an exception). After the last measured sample the run measures throughput at concurrency
 * {@code concurrency} (each thread with its own client connection) for {@code throughput_ms}, outside the
 * sample's time: percentiles and throughput are metrics, one value per process run.
 */
public final class Bench {
    private Bench() {
    }

    /** One client connection: each round trip sends the request and says whether the response was the expected one. */
    public interface Link extends AutoCloseable {
        boolean roundTrip() throws Exception;

        @Override
        default void close() throws Exception {
        }
    }

    /** Opens a client connection to the server on 127.0.0.1:VERSUS_PORT. */
    @FunctionalInterface
    public interface Linker {
        Link open(int port) throws Exception;
    }

    public static int port() {
        String text = System.getenv("VERSUS_PORT");
        if (text == null || text.isEmpty()) {
            throw new IllegalStateException("VERSUS_PORT is not set: run this client through `versus run rpc`, "
                    + "which starts the case's server on a free loopback port");
        }
        return Integer.parseInt(text.trim());
    }

    static long envLong(String name, long defaultValue) {
        String text = System.getenv(name);
        return text == null || text.trim().isEmpty() ? defaultValue : Long.parseLong(text.trim());
    }

    /** The helper case that measures one transport. Nothing is opened until the case runs. */
    public static Helper.Case measure(Linker linker) {
        return new Measured(linker);
    }

    static final int WARMING = 0;
    static final int MEASURING = 1;
    static final int STOPPING = 2;

    static final class Measured implements Helper.Case {
        private final Linker linker;
        private Link link;
        private long[] latencies = new long[1024];
        private int recorded;
        private long measuredSamples;
        private long warmupTrips;
        private boolean warmupSettled;

        Measured(Linker linker) {
            this.linker = linker;
        }

        @Override
        public Helper.Sample run(Helper.Context ctx) throws Exception {
            if (link == null) {
                link = linker.open(port());
                warmUp(ctx);
            }
            // The sample sizes itself: round trips until VERSUS_MIN_SAMPLE_NS have passed. A fixed count chosen by
            // a cold first process would leave later processes' warmup too short for the JIT.
            long minNs = envLong("VERSUS_MIN_SAMPLE_NS", Helper.DEFAULT_MIN_SAMPLE_NS);
            boolean record = !ctx.warmup();
            long trips = 0;
            long matched = 0;
            long start = System.nanoTime();
            long deadline = start + minNs;
            long after;
            do {
                long before = System.nanoTime();
                if (link.roundTrip()) {
                    matched++;
                }
                after = System.nanoTime();
                trips++;
                if (record) {
                    if (recorded == latencies.length) {
                        latencies = Arrays.copyOf(latencies, latencies.length * 2);
                    }
                    latencies[recorded++] = after - before;
                }
            } while (after - deadline < 0);
            long elapsed = after - start;
            if (record && ++measuredSamples == envLong("VERSUS_SAMPLES", Helper.DEFAULT_SAMPLES)) {
                long[] sorted = Arrays.copyOf(latencies, recorded);
                Arrays.sort(sorted);
                ctx.metric("latency_p50_us", percentile(sorted, 0.50) / 1e3, "us");
                ctx.metric("latency_p90_us", percentile(sorted, 0.90) / 1e3, "us");
                ctx.metric("latency_p99_us", percentile(sorted, 0.99) / 1e3, "us");
                ctx.metric("round_trips", recorded, "count");
                ctx.metric("warmup_round_trips", warmupTrips, "count");
                ctx.metric("warmup_settled", warmupSettled ? 1 : 0, "count");
                throughput(ctx);
            }
            return new Helper.Sample(elapsed, trips, trips - matched);
        }

        /**
         * Untimed round trips until warmup_round_trips are done, or, past warmup_max_ms, until the last
         * {@value #SETTLE_BLOCKS} blocks' median round trips lie within {@value #SETTLE_SPREAD} of each other
         * (and at the latest at twice warmup_max_ms, reported as not settled). A block is
         * {@value #BLOCK_TRIPS} round trips or {@value #BLOCK_MS} ms, whichever ends first.
         */
        private void warmUp(Helper.Context ctx) throws Exception {
            long count = Long.parseLong(ctx.param("warmup_round_trips", "20000"));
            long maxNs = Long.parseLong(ctx.param("warmup_max_ms", "30000")) * 1_000_000L;
            long start = System.nanoTime();
            List<Long> blocks = new ArrayList<>();
            long[] block = new long[BLOCK_TRIPS];
            while (warmupTrips < count) {
                long blockEnd = System.nanoTime() + BLOCK_MS * 1_000_000L;
                int n = 0;
                long after;
                do {
                    long before = System.nanoTime();
                    if (!link.roundTrip()) {
                        throw new IllegalStateException("a response during the warmup differed from the expected MediaContent");
                    }
                    after = System.nanoTime();
                    block[n++] = after - before;
                    warmupTrips++;
                } while (n < BLOCK_TRIPS && after - blockEnd < 0 && warmupTrips < count);
                long[] sorted = Arrays.copyOf(block, n);
                Arrays.sort(sorted);
                blocks.add(sorted[n / 2]);
                long elapsed = System.nanoTime() - start;
                if (elapsed > maxNs && settled(blocks)) {
                    break;
                }
                if (elapsed > 2 * maxNs) {
                    break;
                }
            }
            warmupSettled = warmupTrips >= count || settled(blocks);
            System.out.println(String.format(Locale.ROOT, "warmup: %d round trips in %.1f s%s", warmupTrips,
                    (System.nanoTime() - start) / 1e9, warmupSettled ? "" : ", not settled"));
        }

        /** Round trips per second with `concurrency` threads, each on its own connection, until a deadline. */
        private void throughput(Helper.Context ctx) throws Exception {
            int threads = Integer.parseInt(ctx.param("concurrency", "8"));
            long measureMs = Long.parseLong(ctx.param("throughput_ms", "1000"));
            long warmMs = Math.max(50, measureMs / 4);
            AtomicInteger phase = new AtomicInteger(WARMING);
            AtomicLong trips = new AtomicLong();
            AtomicLong wrong = new AtomicLong();
            List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
            CyclicBarrier ready = new CyclicBarrier(threads + 1);
            int port = port();
            List<Thread> workers = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                Thread worker = new Thread(() -> {
                    try (Link mine = linker.open(port)) {
                        ready.await();
                        long done = 0;
                        while (true) {
                            if (phase.get() == STOPPING) {
                                break;
                            }
                            boolean ok = mine.roundTrip();
                            if (phase.get() == MEASURING) { // counted when it ends inside the measured window
                                done++;
                            }
                            if (!ok) {
                                wrong.incrementAndGet();
                            }
                        }
                        trips.addAndGet(done);
                    } catch (Throwable error) {
                        failures.add(error);
                        ready.reset();
                    }
                }, "client-" + t);
                worker.setDaemon(true);
                workers.add(worker);
                worker.start();
            }
            try {
                ready.await();
            } catch (BrokenBarrierException broken) { // a worker could not connect: report why
                phase.set(STOPPING);
                throw new IllegalStateException("a client at concurrency " + threads + " failed to start",
                        failures.isEmpty() ? broken : failures.get(0));
            }
            Thread.sleep(warmMs);
            long start = System.nanoTime();
            phase.set(MEASURING);
            Thread.sleep(measureMs);
            phase.set(STOPPING);
            long elapsed = System.nanoTime() - start;
            for (Thread worker : workers) {
                worker.join(60_000);
            }
            if (!failures.isEmpty()) {
                throw new IllegalStateException("throughput at concurrency " + threads + " failed", failures.get(0));
            }
            if (wrong.get() > 0) {
                throw new IllegalStateException(wrong.get() + " responses at concurrency " + threads
                        + " differed from the expected MediaContent");
            }
            ctx.metric("throughput_rps", trips.get() * 1e9 / elapsed, "1/s");
            System.out.println(String.format(Locale.ROOT, "concurrency %d: %d round trips in %.3f s", threads,
                    trips.get(), elapsed / 1e9));
        }
    }

    static final int BLOCK_TRIPS = 1000;
    static final long BLOCK_MS = 250;
    static final int SETTLE_BLOCKS = 4;
    static final double SETTLE_SPREAD = 0.05;

    /** The last SETTLE_BLOCKS block medians lie within SETTLE_SPREAD of each other. */
    static boolean settled(List<Long> medians) {
        if (medians.size() < SETTLE_BLOCKS) {
            return false;
        }
        List<Long> last = medians.subList(medians.size() - SETTLE_BLOCKS, medians.size());
        long low = Collections.min(last);
        long high = Collections.max(last);
        return high <= low * (1 + SETTLE_SPREAD);
    }

    /** The value at quantile q of sorted values (nearest rank). */
    static double percentile(long[] sorted, double q) {
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(q * sorted.length);
        return sorted[Math.max(0, Math.min(sorted.length - 1, rank - 1))];
    }
}

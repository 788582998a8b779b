package versus;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongFunction;

/**
 * versus protocol v1 helper for Java programs (see docs/protocol.md). Java 8 source level, no dependencies.
 *
 * <pre>
 * Map&lt;String, versus.Helper.Case&gt; cases = new LinkedHashMap&lt;&gt;();
 * cases.put("adder", versus.Helper.timed(n -&gt; total));                  // timed: gets inner
 * cases.put("pool", ctx -&gt; new versus.Helper.Sample(ns, inner, check)); // manual: times itself
 * versus.Helper.run(cases);
 * </pre>
 *
 * Cases are listed in the map's iteration order (use a LinkedHashMap). The clock is System.nanoTime.
 */
public final class Helper {
    public static final int PROTOCOL_VERSION = 1;
    public static final long DEFAULT_MIN_SAMPLE_NS = 100_000_000L;
    public static final int DEFAULT_WARMUP = 1;
    public static final int DEFAULT_SAMPLES = 3;
    public static final long MAX_INNER = 1L << 40;
    public static final String CLOCK = "System.nanoTime";

    private Helper() {
    }

    /** A case: returns one sample for ctx.inner iterations (which a manual case may ignore). */
    @FunctionalInterface
    public interface Case {
        Sample run(Context ctx) throws Exception;
    }

    /** One timed measurement: ns for inner iterations, and the check value (null for none). */
    public static final class Sample {
        public final long ns;
        public final long inner;
        public final Object check;

        public Sample(long ns, long inner, Object check) {
            this.ns = ns;
            this.inner = inner;
            this.check = check;
        }

        public Sample(long ns, long inner) {
            this(ns, inner, null);
        }
    }

    /** What a case gets: inner, the case name, whether it is a warmup sample, params and metrics. */
    public static final class Context {
        public final String caseName;
        public final long inner;
        public final boolean warmup;
        final List<Object[]> metrics = new ArrayList<>();

        Context(String caseName, long inner, boolean warmup) {
            this.caseName = caseName;
            this.inner = inner;
            this.warmup = warmup;
        }

        public long inner() {
            return inner;
        }

        public String caseName() {
            return caseName;
        }

        public boolean warmup() {
            return warmup;
        }

        public String param(String name, String defaultValue) {
            return Helper.param(name, defaultValue);
        }

        public String param(String name) {
            return Helper.param(name);
        }

        /** A metric of this sample (sent for measured samples only); value is a Number. */
        public void metric(String name, Number value, String unit) {
            metrics.add(new Object[] {name, value, unit});
        }
    }

    /** A timed case: the helper times body.apply(inner), which returns the check value or null. */
    public static Case timed(LongFunction<Object> body) {
        return ctx -> {
            long inner = ctx.inner;
            long start = System.nanoTime();
            Object result = body.apply(inner);
            long elapsed = System.nanoTime() - start;
            return new Sample(elapsed, inner, result);
        };
    }

    /** The experiment parameter VERSUS_PARAM_&lt;NAME&gt;, or defaultValue. */
    public static String param(String name, String defaultValue) {
        String value = System.getenv("VERSUS_PARAM_" + name.toUpperCase(java.util.Locale.ROOT));
        return value == null ? defaultValue : value;
    }

    /** The parameter VERSUS_PARAM_&lt;NAME&gt;; one the run does not pass is an error naming those it does. */
    public static String param(String name) {
        String value = param(name, null);
        if (value != null) {
            return value;
        }
        java.util.List<String> known = new java.util.ArrayList<>();
        for (String key : System.getenv().keySet()) {
            if (key.startsWith("VERSUS_PARAM_")) {
                known.add(key.substring("VERSUS_PARAM_".length()).toLowerCase(java.util.Locale.ROOT));
            }
        }
        java.util.Collections.sort(known);
        throw new IllegalArgumentException("unknown parameter '" + name + "': this run passes "
                + (known.isEmpty() ? "no parameters" : String.join(", ", known))
                + "; give param a default to make it optional");
    }

    public static long now() {
        return System.nanoTime();
    }

    // ---------------------------------------------------------------- JSON

    static String jsonString(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char ch = text.charAt(i); // UTF-16 units: a supplementary character is already a surrogate pair
            switch (ch) {
                case '"': out.append("\\\""); break;
                case '\\': out.append("\\\\"); break;
                case '\n': out.append("\\n"); break;
                case '\r': out.append("\\r"); break;
                case '\t': out.append("\\t"); break;
                default:
                    if (ch < 0x20 || ch >= 0x7F) {
                        out.append(String.format("\\u%04x", (int) ch));
                    } else {
                        out.append(ch);
                    }
            }
        }
        return out.append('"').toString();
    }

    static String json(Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean) {
            return value.toString();
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            return Double.isNaN(d) || Double.isInfinite(d) ? "null" : Double.toString(d);
        }
        if (value instanceof Number) {
            return value.toString();
        }
        return jsonString(value.toString());
    }

    /** Writes one protocol line from key, value, key, value... */
    public static void emit(Object... keyValues) {
        StringBuilder out = new StringBuilder("@versus {");
        for (int i = 0; i < keyValues.length; i += 2) {
            if (i > 0) {
                out.append(',');
            }
            out.append(jsonString(String.valueOf(keyValues[i]))).append(':').append(json(keyValues[i + 1]));
        }
        out.append('}');
        System.out.println(out);
        System.out.flush();
    }

    // ---------------------------------------------------------------- running

    static final class UsageError extends Exception {
        UsageError(String message) {
            super(message);
        }
    }

    static long envLong(String name, long defaultValue, long minimum) throws UsageError {
        String text = System.getenv(name);
        if (text == null || text.trim().isEmpty()) {
            return defaultValue;
        }
        long value;
        try {
            value = Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            throw new UsageError(name + "=\"" + text + "\" is not an integer");
        }
        if (value < minimum) {
            throw new UsageError(name + "=\"" + text + "\" must be >= " + minimum);
        }
        return value;
    }

    static final class Result {
        final Sample sample;
        final Context ctx;

        Result(Sample sample, Context ctx) {
            this.sample = sample;
            this.ctx = ctx;
        }
    }

    static Result call(String name, Case kase, long inner, boolean warmup) throws Exception {
        Context ctx = new Context(name, inner, warmup);
        Sample sample = kase.run(ctx);
        if (sample == null) {
            throw new IllegalStateException("case \"" + name + "\" returned null, not a Helper.Sample");
        }
        return new Result(sample, ctx);
    }

    static void report(String name, Result result, boolean warmup) {
        Sample sample = result.sample;
        emit("type", "sample", "case", name, "ns", Math.max(0L, sample.ns), "inner", sample.inner, "warmup", warmup);
        if (sample.check != null) {
            emit("type", "check", "case", name, "value", String.valueOf(sample.check));
        }
        if (!warmup) {
            for (Object[] metric : result.ctx.metrics) {
                emit("type", "metric", "case", name, "name", metric[0], "value", metric[1], "unit", metric[2]);
            }
        }
    }

    /**
     * Doubles inner until a sample takes >= minNs (a sample that reaches it is measured once more and the
     * faster is used), then scales it to the target (minNs + 10%), re-measuring and re-scaling up to 3 times
     * while a sample falls short (the JIT warming up). When the case sizes itself (it ignores ctx.inner),
     * its probe is returned in first[0] to be reported as the first sample, and inner 0 is returned.
     */
    static long calibrate(String name, Case kase, long minNs, boolean firstWarmup, Result[] first) throws Exception {
        long inner = 1;
        Result result;
        while (true) {
            result = call(name, kase, inner, firstWarmup);
            if (result.sample.inner != inner) {
                first[0] = result;
                return 0;
            }
            if (inner >= MAX_INNER) {
                break;
            }
            if (result.sample.ns >= minNs) {
                Result again = call(name, kase, inner, firstWarmup);
                if (again.sample.ns < result.sample.ns) {
                    result = again;
                }
                if (result.sample.ns >= minNs / 2) {
                    break;
                }
            }
            inner *= 2;
        }
        double target = minNs * 1.1;
        for (int i = 0; i < 3; i++) {
            if (result.sample.ns > 0) {
                inner = Math.max(1L, Math.min(MAX_INNER, Math.round(inner * target / result.sample.ns)));
            }
            result = call(name, kase, inner, firstWarmup);
            if (result.sample.ns >= minNs) {
                break;
            }
        }
        System.out.println("calibrated " + name + ": inner=" + inner + " (last probe " + result.sample.ns + " ns)");
        return inner;
    }

    static void hello() {
        String impl = System.getProperty("java.vm.name") + " " + System.getProperty("java.vm.version") + " ("
                + System.getProperty("java.vendor") + ")";
        emit("v", PROTOCOL_VERSION, "type", "hello", "runtime", "java", "version",
                System.getProperty("java.version"), "clock", CLOCK, "impl", impl);
    }

    /** Runs the case VERSUS_CASE as the environment says, speaking protocol v1 on stdout. Exits on errors. */
    public static void run(Map<String, Case> cases) {
        Map<String, Case> ordered = new LinkedHashMap<>(cases);
        String names = String.join(", ", ordered.keySet());
        String listText = System.getenv("VERSUS_LIST");
        boolean listing = listText != null && !listText.trim().isEmpty() && !listText.trim().equals("0");
        String name = null;
        Case kase = null;
        long warmup = 0;
        long samples = 0;
        long inner = 0;
        long minNs = 0;
        try {
            String protocol = System.getenv("VERSUS_PROTOCOL");
            if (protocol != null && !protocol.trim().equals("1")) {
                throw new UsageError("VERSUS_PROTOCOL=\"" + protocol + "\" is not supported (this helper speaks 1)");
            }
            if (!listing) {
                name = System.getenv("VERSUS_CASE");
                if (name == null || name.isEmpty()) {
                    throw new UsageError("VERSUS_CASE is not set (cases: " + names + ")");
                }
                kase = ordered.get(name);
                if (kase == null) {
                    throw new UsageError("VERSUS_CASE=\"" + name + "\" is not a case of this program (cases: "
                            + names + ")");
                }
                warmup = envLong("VERSUS_WARMUP", DEFAULT_WARMUP, 0);
                samples = envLong("VERSUS_SAMPLES", DEFAULT_SAMPLES, 0);
                inner = envLong("VERSUS_INNER", 0, 0);
                minNs = envLong("VERSUS_MIN_SAMPLE_NS", DEFAULT_MIN_SAMPLE_NS, 1);
            }
        } catch (UsageError e) {
            System.out.flush();
            System.err.println("versus.Helper: " + e.getMessage());
            System.err.flush();
            System.exit(2);
        }

        hello();
        if (listing) {
            for (String caseName : ordered.keySet()) {
                emit("type", "case", "name", caseName);
            }
            emit("type", "end");
            return;
        }

        try {
            Result[] first = new Result[1];
            if (inner == 0 && warmup + samples > 0) {
                inner = calibrate(name, kase, minNs, warmup > 0, first);
            }
            for (long index = 0; index < warmup + samples; index++) {
                boolean isWarmup = index < warmup;
                Result result;
                if (first[0] != null) {
                    result = first[0];
                    first[0] = null;
                } else {
                    result = call(name, kase, inner, isWarmup);
                }
                report(name, result, isWarmup);
            }
        } catch (Throwable error) {
            System.out.flush();
            System.err.println("versus.Helper: case \"" + name + "\" failed:");
            error.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        emit("type", "end");
    }
}

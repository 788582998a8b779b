package serialization.bench;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

import serialization.model.MediaContent;

/**
 * The 2008 benchmark's operations for one serializer, as JMH benchmarks that every serializer inherits
 * (JMH generates `Protobuf.serialize`, `Thrift.serialize`, … from these methods; a case's command names
 * one). T is the serializer's own object: generated classes for protobuf and Thrift, the plain Java
 * objects for Java serialization, Jackson, Kryo, ….
 *
 * <ul>
 *   <li>create: build the serializer's object from the value (the 2008 "create");</li>
 *   <li>serialize: a freshly built object, never serialized before, to a byte array;</li>
 *   <li>deserialize: a byte array to the serializer's full object, then read every field (the same work
 *       for every serializer: lazily decoded strings are decoded, FlatBuffers is copied out);</li>
 *   <li>roundtrip: serialize a fresh object, then deserialize (jvm-serializers' "total");</li>
 *   <li>reserialize: the same object again and again (jvm-serializers' "+same"; what this class measured
 *       as serialize before): protobuf's messages memoize their size, and 2.x its strings' UTF-8 bytes, so
 *       this shows what a benchmark that reuses one object would credit them with;</li>
 *   <li>read_two: from the bytes, read two fields only (media.uri and the first image's uri): what lazy
 *       formats are for; reported apart, never as "deserialize".</li>
 * </ul>
 *
 * <p>Why serialize starts from fresh objects: an object that has been serialized once may carry what its
 * serializer computed (protobuf's memoized size, 2.x's cached UTF-8 bytes), which no program that builds
 * and sends a message once gets. Each invocation of serialize and roundtrip takes a {@link Fresh} batch of
 * {@value #BATCH} objects built untimed for it (JMH's invocation-level setup, whose per-invocation cost is
 * spread over the batch) and serializes each once.
 *
 * <p>Before timing, {@link #setup} round-trips every value (Values.CHECKED: the four timed ones and the
 * harder sparse and empty ones) through the serializer and compares each with the original; after timing,
 * {@link #check} compares the last result of the timed loop with the value. Both go into one versus check
 * line, printed when the trial ends: "ok", or the first difference, which fails the process run. The
 * serialize and roundtrip arms also report the size of the value's bytes and of their deflate (zlib level
 * 6) compression as metrics.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public abstract class Bench<T> {
    /** Fresh objects per invocation of serialize and roundtrip. */
    public static final int BATCH = 64;

    /** The bench whose trial is running, for {@link Fresh} (JMH runs one benchmark per fork, on one thread). */
    private static Bench<?> current;

    /** Which value the timed loop uses: standard, 2008, unicode or large (data/media-NAME.json). */
    @Param("standard")
    public String value;

    protected MediaContent input;
    protected T object;
    protected byte[] bytes;
    private String operation;
    private String problem;
    private Object last;

    /** The serializer's object for a value; what "create" times. */
    protected abstract T build(MediaContent value);

    protected abstract byte[] encode(T object) throws Exception;

    /** The serializer's full object from bytes (fields may still be undecoded; {@link #touch} reads them). */
    protected abstract T decode(byte[] bytes) throws Exception;

    /** Read every field of a decoded object into the blackhole. */
    protected abstract void touch(T object, Blackhole blackhole);

    /** The value an object carries, for the checks (never timed). */
    protected abstract MediaContent toValue(T object);

    /** read_two: media.uri and the first image's uri from the bytes. The default decodes everything first. */
    protected String[] readTwo(byte[] bytes) throws Exception {
        MediaContent value = toValue(decode(bytes));
        return new String[] {value.media.uri, value.images.get(0).uri};
    }

    /**
     * Why an object could not count as never serialized (a memoized size, cached bytes), or null. The
     * default knows of no such state; protobuf's serializers look at the message's memoized size.
     */
    public String serializedBefore(T object) {
        return null;
    }

    /** The round trips of every value: null if all come back equal, else the first difference (see Checks). */
    public String verify() {
        return Checks.roundTrips(this::build, this::encode, this::decode, this::toValue);
    }

    /** The serialized bytes of a value (for Verify's size table and CrossLanguage). */
    public byte[] bytesOf(MediaContent value) throws Exception {
        return encode(build(value));
    }

    /** The value that bytes decode to (for CrossLanguage). */
    public MediaContent valueOf(byte[] bytes) throws Exception {
        return toValue(decode(bytes));
    }

    /** A new, never serialized object of the timed value (what {@link Fresh} holds). */
    public T fresh() {
        return build(input);
    }

    /** The objects one invocation of serialize or roundtrip serializes, each once: built untimed, per invocation. */
    @State(Scope.Thread)
    public static class Fresh {
        public final Object[] objects = new Object[BATCH];

        @Setup(Level.Invocation)
        public void build() {
            Bench<?> bench = current;
            for (int i = 0; i < BATCH; i++) {
                objects[i] = bench.fresh();
            }
        }
    }

    @Setup(Level.Trial)
    public void setup(BenchmarkParams params) throws Exception {
        String benchmark = params.getBenchmark();
        operation = benchmark.substring(benchmark.lastIndexOf('.') + 1);
        problem = verify();
        prepare();
    }

    /** The timed value, its object and its bytes; this bench becomes the one {@link Fresh} builds for. */
    public void prepare() throws Exception {
        input = serialization.model.Values.named(value);
        object = build(input);
        bytes = encode(build(input));
        current = this;
    }

    /** A fresh object, untyped (for checks outside JMH). */
    public Object freshObject() {
        return fresh();
    }

    @Benchmark
    public Object create() {
        return last = build(input);
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    @SuppressWarnings("unchecked")
    public void serialize(Fresh fresh, Blackhole blackhole) throws Exception {
        Object[] objects = fresh.objects;
        byte[] result = null;
        for (int i = 0; i < BATCH; i++) {
            result = encode((T) objects[i]);
            blackhole.consume(result);
        }
        last = result;
    }

    @Benchmark
    public Object reserialize() throws Exception {
        return last = encode(object);
    }

    @Benchmark
    public void deserialize(Blackhole blackhole) throws Exception {
        T decoded = decode(bytes);
        touch(decoded, blackhole);
        last = decoded;
    }

    @Benchmark
    @OperationsPerInvocation(BATCH)
    @SuppressWarnings("unchecked")
    public void roundtrip(Fresh fresh, Blackhole blackhole) throws Exception {
        Object[] objects = fresh.objects;
        T decoded = null;
        for (int i = 0; i < BATCH; i++) {
            decoded = decode(encode((T) objects[i]));
            touch(decoded, blackhole);
        }
        last = decoded;
    }

    @Benchmark
    public Object read_two() throws Exception {
        return last = readTwo(bytes);
    }

    /** The last result of the timed loop must still be the value (or its bytes); one check line either way. */
    @TearDown(Level.Trial)
    @SuppressWarnings("unchecked")
    public void check() throws Exception {
        String found = problem;
        if (found == null && last == null) {
            found = "the timed loop produced no result";
        }
        if (found == null) {
            switch (operation) {
                case "serialize":
                case "reserialize":
                    found = Checks.sameBytes(bytes, (byte[]) last);
                    break;
                case "read_two":
                    String[] two = (String[]) last;
                    found = two[0].equals(input.media.uri) && two[1].equals(input.images.get(0).uri) ? null
                            : "read_two read " + two[0] + " and " + two[1];
                    break;
                default:
                    found = serialization.model.Diff.first(input, toValue((T) last));
            }
        }
        // Printed here, not in setup: JMH prints the first warmup iteration's header before the setup runs,
        // and a line printed then would split that header from its time.
        if (operation.equals("serialize") || operation.equals("roundtrip") || operation.equals("reserialize")) {
            Checks.metric("size", bytes.length, "bytes");
            Checks.metric("deflate_size", Checks.deflatedSize(bytes), "bytes");
        }
        Checks.check(found == null ? "ok" : value + ": " + found);
    }
}

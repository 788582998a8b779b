package versus.strings;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.Blackhole;

/**
 * The Java arms of the strings experiment's codec cases: one op is one pass over every tag value
 * of the dataset (encode) or over every payload (decode), as one iteration of the Rust program's
 * {@code encode} and {@code decode} cases. After the trial it prints the versus check: the number
 * of payloads that do not decode back to their string, plus 1 if the last timed pass's digest
 * differs from the untimed one. It must be 0.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class Codec {
    @Param({"monaco"})
    public String dataset;

    @Param({"short13"})
    public String mode;

    /** The store cases' parameter (fsync after an import); the harness passes it to every arm. Unused here. */
    @Param({"0"})
    public String fsync;

    private Codecs codecs;
    private long expectedEncode, expectedDecode, roundtripWrong;
    private long last = Long.MIN_VALUE;

    static Path extract(String dataset) {
        String file;
        switch (dataset) {
            case "delaware": file = "delaware-latest.osm.pbf"; break;
            case "helsinki": file = "Helsinki.osm.pbf"; break;
            case "monaco": file = "monaco-latest.osm.pbf"; break;
            default: throw new IllegalArgumentException("unknown dataset " + dataset + " (delaware, helsinki, monaco)");
        }
        String cache = System.getenv("VERSUS_CACHE");
        Path base = cache != null && !cache.isEmpty() ? Paths.get(cache) : Paths.get(System.getProperty("user.home"), ".cache", "versus");
        Path path = base.resolve("osm").resolve(file);
        if (!Files.isRegularFile(path)) {
            throw new IllegalStateException(path + ": no OSM extract; fetch the extracts first with "
                + "`make -C subjects/shortstring data` (or subjects/shortstring/fetch-data.sh)");
        }
        return path;
    }

    static Codecs load(String dataset, String mode) throws Exception {
        String[] strings = Pbf.tagValues(extract(dataset));
        if (strings.length == 0) throw new IllegalStateException(dataset + ": no tag values");
        return Codecs.of(mode, strings);
    }

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        codecs = load(dataset, mode);
        expectedEncode = codecs.encodeAll();
        expectedDecode = codecs.decodeAll(s -> { });
        roundtripWrong = codecs.roundtripWrong();
    }

    @Benchmark
    public long encode() {
        return last = codecs.encodeAll();
    }

    @Benchmark
    public long decode(Blackhole bh) {
        return last = codecs.decodeAll(bh::consume);
    }

    @TearDown(Level.Trial)
    public void check(BenchmarkParams params) {
        boolean encoding = params.getBenchmark().endsWith(".encode");
        long expected = encoding ? expectedEncode : expectedDecode;
        long bad = roundtripWrong + (last == expected ? 0 : 1);
        System.out.println("@versus {\"type\":\"check\",\"case\":\"" + (encoding ? "encode" : "decode")
            + "\",\"value\":\"" + bad + "\"}");
    }
}

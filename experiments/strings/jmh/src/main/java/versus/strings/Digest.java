package versus.strings;

/**
 * Prints, for each dataset and mode, what the Rust program reports as metrics of its codec cases,
 * computed here with Neo4j's jars: strings, payloads, payload_digest (low 48 bits) and
 * decoded_utf8_bytes. tests/test_strings.py compares the two.
 *
 * <pre>java -cp experiments/strings/jmh/target/benchmarks.jar versus.strings.Digest monaco [MODE…]</pre>
 */
public final class Digest {
    private Digest() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Digest DATASET [MODE...]  (modes: dyn13 short13 b19 view16)");
            System.exit(2);
        }
        String[] modes = args.length > 1 ? java.util.Arrays.copyOfRange(args, 1, args.length)
                                         : new String[] {"dyn13", "short13", "b19", "view16"};
        for (String mode : modes) {
            Codecs c = Codec.load(args[0], mode);
            System.out.println(args[0] + " " + mode + " strings=" + c.strings.length + " payloads=" + c.payloads()
                + " payload_digest=" + (c.payloadDigest() & ((1L << 48) - 1))
                + " decoded_utf8_bytes=" + c.decodedUtf8Bytes() + " roundtrip_wrong=" + c.roundtripWrong());
        }
    }
}

package serialization.bench;

import java.util.Arrays;
import java.util.zip.Deflater;

import serialization.model.Diff;
import serialization.model.MediaContent;
import serialization.model.Values;

/** The correctness checks every serializer passes before it is timed, and the versus lines they print. */
public final class Checks {
    private Checks() {
    }

    public interface Build<T> {
        T apply(MediaContent value) throws Exception;
    }

    public interface Encode<T> {
        byte[] apply(T object) throws Exception;
    }

    public interface Decode<T> {
        T apply(byte[] bytes) throws Exception;
    }

    public interface ToValue<T> {
        MediaContent apply(T object) throws Exception;
    }

    /**
     * null if every value of {@link Values#CHECKED} (the four timed ones and the harder sparse and empty
     * ones) comes back equal from build → encode → decode, else where the first one differs.
     */
    public static <T> String roundTrips(Build<T> build, Encode<T> encode, Decode<T> decode, ToValue<T> toValue) {
        for (String name : Values.CHECKED) {
            MediaContent value = Values.named(name);
            try {
                byte[] first = encode.apply(build.apply(value));
                T decoded = decode.apply(first);
                String difference = Diff.first(value, toValue.apply(decoded));
                if (difference != null) {
                    return name + ": " + difference;
                }
                // The decoded object must serialize again to as many bytes: nothing was added or lost.
                byte[] second = encode.apply(decoded);
                if (second.length != first.length) {
                    return name + ": " + first.length + " bytes, but its round trip serializes to " + second.length;
                }
            } catch (Exception | StackOverflowError e) {
                return name + ": " + e;
            }
        }
        return null;
    }

    public static String sameBytes(byte[] expected, byte[] actual) {
        return Arrays.equals(expected, actual) ? null
                : "the timed loop serialized " + actual.length + " bytes unlike the " + expected.length + " of the setup";
    }

    /** Size after deflate (zlib format, default level 6), what a compressing transport would send. */
    public static int deflatedSize(byte[] bytes) {
        Deflater deflater = new Deflater(Deflater.DEFAULT_COMPRESSION);
        deflater.setInput(bytes);
        deflater.finish();
        byte[] out = new byte[bytes.length + 64];
        int size = 0;
        while (!deflater.finished()) {
            size += deflater.deflate(out);
        }
        deflater.end();
        return size;
    }

    public static void metric(String name, double value, String unit) {
        System.out.println("@versus {\"type\":\"metric\",\"case\":\"serialization\",\"name\":\"" + name + "\",\"value\":"
                + (value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value))
                + ",\"unit\":\"" + unit + "\"}");
    }

    public static void check(String value) {
        System.out.println("@versus {\"type\":\"check\",\"case\":\"serialization\",\"value\":\"" + escape(value) + "\"}");
    }

    /** JSON string contents, ASCII only (non-ASCII as \\u escapes, so no console encoding can garble it). */
    static String escape(String text) {
        StringBuilder out = new StringBuilder();
        for (char c : text.toCharArray()) {
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || c > 0x7e) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.toString();
    }
}

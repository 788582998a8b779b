package versus.strings;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * One mode's string encoding over a dataset's tag values, as the Rust program's codec cases do:
 * short13 = format A (neo4j-kernel 1.3 ShortString), b19 = format B (1.9 LongerShortString),
 * dyn13 = the 1.3 dynamic store's UTF-16BE bytes, view16 = UTF-8 bytes. Digests are the same as
 * Rust's: an encode pass sums every payload long (bytes: length + last byte), a decode pass sums
 * what it decoded.
 */
abstract class Codecs {
    final String[] strings;
    /** Index of the original string of each payload. */
    int[] originals;

    Codecs(String[] strings) {
        this.strings = strings;
    }

    static Codecs of(String mode, String[] strings) {
        switch (mode) {
            case "short13": return new A(strings);
            case "b19": return new B(strings);
            case "dyn13": return new Bytes(strings, StandardCharsets.UTF_16BE);
            case "view16": return new Bytes(strings, StandardCharsets.UTF_8);
            default: throw new IllegalArgumentException("unknown mode " + mode + " (dyn13, short13, b19, view16)");
        }
    }

    /** One timed encode pass over every string; its digest. */
    abstract long encodeAll();

    /** One timed decode pass over every payload, each result to {@code sink}; the sum of their lengths. */
    abstract long decodeAll(Consumer<String> sink);

    /** The decoded string of payload {@code i} (untimed checks). */
    abstract String decodeOne(int i);

    abstract int payloads();

    /** Payloads that do not decode back to their original string. */
    long roundtripWrong() {
        long wrong = 0;
        for (int i = 0; i < payloads(); i++) {
            if (!strings[originals[i]].equals(decodeOne(i))) wrong++;
        }
        return wrong;
    }

    /** Total UTF-8 bytes of the decoded payloads (compared with Rust's decoded_utf8_bytes). */
    long decodedUtf8Bytes() {
        long n = 0;
        for (int i = 0; i < payloads(); i++) n += decodeOne(i).getBytes(StandardCharsets.UTF_8).length;
        return n;
    }

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException) return (RuntimeException) t;
        if (t instanceof Error) throw (Error) t;
        return new RuntimeException(t);
    }

    static final class A extends Codecs {
        final long[] payloads;

        A(String[] strings) {
            super(strings);
            long[] p = new long[strings.length];
            int[] o = new int[strings.length];
            int n = 0;
            try {
                for (int i = 0; i < strings.length; i++) {
                    Object record = (Object) Neo4j.A.NEW_RECORD.invokeExact();
                    if ((boolean) Neo4j.A.ENCODE.invokeExact(strings[i], record)) {
                        p[n] = (long) Neo4j.A.PAYLOAD.invokeExact(record);
                        o[n++] = i;
                    }
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            payloads = Arrays.copyOf(p, n);
            originals = Arrays.copyOf(o, n);
        }

        @Override
        long encodeAll() {
            long sum = 0;
            try {
                for (String s : strings) {
                    Object record = (Object) Neo4j.A.NEW_RECORD.invokeExact();
                    if ((boolean) Neo4j.A.ENCODE.invokeExact(s, record)) sum += (long) Neo4j.A.PAYLOAD.invokeExact(record);
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            return sum;
        }

        @Override
        long decodeAll(Consumer<String> sink) {
            long sum = 0;
            try {
                for (long p : payloads) {
                    String s = (String) Neo4j.A.DECODE.invokeExact(p);
                    sink.accept(s);
                    sum += s.length();
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            return sum;
        }

        @Override
        String decodeOne(int i) {
            try {
                return (String) Neo4j.A.DECODE.invokeExact(payloads[i]);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        long roundtripWrong() {
            long wrong = 0;
            for (int i = 0; i < payloads(); i++) {
                String s = strings[originals[i]];
                // The jar's own lossy case (format A's UTF8 form drops leading U+0000) is not judged,
                // as on the Rust side.
                if (s.startsWith("\0")) continue;
                if (!s.equals(decodeOne(i))) wrong++;
            }
            return wrong;
        }

        @Override
        int payloads() {
            return payloads.length;
        }
    }

    static final class B extends Codecs {
        /** PropertyBlocks holding each payload, ready to decode. */
        final Object[] blocks;
        final long[][] longs;

        B(String[] strings) {
            super(strings);
            List<Object> b = new ArrayList<>();
            List<long[]> l = new ArrayList<>();
            int[] o = new int[strings.length];
            int n = 0;
            try {
                for (int i = 0; i < strings.length; i++) {
                    Object block = (Object) Neo4j.B.NEW_BLOCK.invokeExact();
                    if ((boolean) Neo4j.B.ENCODE.invokeExact(0, strings[i], block, Neo4j.B.PAYLOAD_BYTES)) {
                        long[] values = ((long[]) Neo4j.B.BLOCKS.invokeExact(block)).clone();
                        Object fresh = (Object) Neo4j.B.NEW_BLOCK.invokeExact();
                        Neo4j.B.SET_BLOCKS.invokeExact(fresh, values.clone());
                        b.add(fresh);
                        l.add(values);
                        o[n++] = i;
                    }
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            blocks = b.toArray();
            longs = l.toArray(new long[0][]);
            originals = Arrays.copyOf(o, n);
        }

        @Override
        long encodeAll() {
            long sum = 0;
            try {
                for (String s : strings) {
                    Object block = (Object) Neo4j.B.NEW_BLOCK.invokeExact();
                    if ((boolean) Neo4j.B.ENCODE.invokeExact(0, s, block, Neo4j.B.PAYLOAD_BYTES)) {
                        for (long v : (long[]) Neo4j.B.BLOCKS.invokeExact(block)) sum += v;
                    }
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            return sum;
        }

        @Override
        long decodeAll(Consumer<String> sink) {
            long sum = 0;
            try {
                for (Object block : blocks) {
                    String s = (String) Neo4j.B.DECODE.invokeExact(block);
                    sink.accept(s);
                    sum += s.length();
                }
            } catch (Throwable t) {
                throw rethrow(t);
            }
            return sum;
        }

        @Override
        String decodeOne(int i) {
            try {
                return (String) Neo4j.B.DECODE.invokeExact(blocks[i]);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        int payloads() {
            return blocks.length;
        }
    }

    /** The dynamic stores' plain encodings, by the JDK. */
    static final class Bytes extends Codecs {
        final java.nio.charset.Charset charset;
        final byte[][] payloads;

        Bytes(String[] strings, java.nio.charset.Charset charset) {
            super(strings);
            this.charset = charset;
            payloads = new byte[strings.length][];
            originals = new int[strings.length];
            for (int i = 0; i < strings.length; i++) {
                payloads[i] = strings[i].getBytes(charset);
                originals[i] = i;
            }
        }

        static long digest(byte[] b) {
            return b.length + (b.length == 0 ? 0 : b[b.length - 1] & 0xFF);
        }

        @Override
        long encodeAll() {
            long sum = 0;
            for (String s : strings) sum += digest(s.getBytes(charset));
            return sum;
        }

        @Override
        long decodeAll(Consumer<String> sink) {
            long sum = 0;
            for (byte[] b : payloads) {
                String s = new String(b, charset);
                sink.accept(s);
                sum += s.length();
            }
            return sum;
        }

        @Override
        String decodeOne(int i) {
            return new String(payloads[i], charset);
        }

        @Override
        int payloads() {
            return payloads.length;
        }
    }

    /** The digest of every payload, as Rust's payload_digest metric. */
    long payloadDigest() {
        long sum = 0;
        if (this instanceof A) {
            for (long p : ((A) this).payloads) sum += p;
        } else if (this instanceof B) {
            for (long[] l : ((B) this).longs) for (long v : l) sum += v;
        } else {
            for (byte[] b : ((Bytes) this).payloads) sum += Bytes.digest(b);
        }
        return sum;
    }
}

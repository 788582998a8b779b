package versus.strings;

import java.io.BufferedInputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Every tag value of an OSM {@code .osm.pbf} file, in file order: a small reader of the PBF format
 * (length-prefixed BlobHeader and Blob messages; zlib or raw PrimitiveBlocks) for the Java side of
 * the strings experiment, so that it reads the same strings as the Rust side without a dependency.
 */
final class Pbf {
    private Pbf() {}

    /** Protocol-buffer wire reading over a byte range. */
    static final class Wire {
        final byte[] b;
        int pos;
        final int end;

        Wire(byte[] b, int from, int to) {
            this.b = b;
            this.pos = from;
            this.end = to;
        }

        Wire(byte[] b) {
            this(b, 0, b.length);
        }

        boolean more() {
            return pos < end;
        }

        long varint() throws IOException {
            long v = 0;
            for (int shift = 0; shift < 64; shift += 7) {
                if (pos >= end) throw new IOException("truncated varint");
                int x = b[pos++];
                v |= (long) (x & 0x7F) << shift;
                if (x >= 0) return v;
            }
            throw new IOException("varint too long");
        }

        /** The [from, to) of a length-delimited field's bytes; advances past them. */
        Wire sub() throws IOException {
            int n = (int) varint();
            if (n < 0 || pos + n > end) throw new IOException("truncated field");
            Wire w = new Wire(b, pos, pos + n);
            pos += n;
            return w;
        }

        byte[] bytes() throws IOException {
            Wire w = sub();
            byte[] out = new byte[w.end - w.pos];
            System.arraycopy(b, w.pos, out, 0, out.length);
            return out;
        }

        void skip(int wireType) throws IOException {
            switch (wireType) {
                case 0: varint(); break;
                case 1: pos += 8; break;
                case 2: sub(); break;
                case 5: pos += 4; break;
                default: throw new IOException("wire type " + wireType);
            }
        }

        /** A repeated varint field, packed (wire type 2) or not (0), appended to {@code into}. */
        void varints(int wireType, List<Long> into) throws IOException {
            if (wireType == 2) {
                Wire w = sub();
                while (w.more()) into.add(w.varint());
            } else {
                into.add(varint());
            }
        }
    }

    static String[] tagValues(Path file) throws IOException {
        List<String> out = new ArrayList<>();
        try (DataInputStream in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16))) {
            while (true) {
                int headerLength;
                try {
                    headerLength = in.readInt();
                } catch (EOFException e) {
                    break;
                }
                byte[] header = new byte[headerLength];
                in.readFully(header);
                String type = "";
                int dataSize = 0;
                Wire h = new Wire(header);
                while (h.more()) {
                    int key = (int) h.varint();
                    if (key >>> 3 == 1 && (key & 7) == 2) type = new String(h.bytes(), StandardCharsets.UTF_8);
                    else if (key >>> 3 == 3 && (key & 7) == 0) dataSize = (int) h.varint();
                    else h.skip(key & 7);
                }
                byte[] blob = new byte[dataSize];
                in.readFully(blob);
                if (type.equals("OSMData")) primitiveBlock(unblob(blob), out);
            }
        }
        return out.toArray(new String[0]);
    }

    private static byte[] unblob(byte[] blob) throws IOException {
        Wire w = new Wire(blob);
        byte[] raw = null, zlib = null;
        int rawSize = -1;
        while (w.more()) {
            int key = (int) w.varint();
            switch (key >>> 3) {
                case 1: raw = w.bytes(); break;
                case 2: rawSize = (int) w.varint(); break;
                case 3: zlib = w.bytes(); break;
                default:
                    if (key >>> 3 > 3 && (key & 7) == 2) throw new IOException("unsupported blob compression (field " + (key >>> 3) + ")");
                    w.skip(key & 7);
            }
        }
        if (raw != null) return raw;
        if (zlib == null || rawSize < 0) throw new IOException("blob without data");
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(zlib);
            byte[] out = new byte[rawSize];
            int n = 0;
            while (n < rawSize && !inflater.finished()) {
                int got = inflater.inflate(out, n, rawSize - n);
                if (got == 0 && (inflater.needsInput() || inflater.needsDictionary())) break;
                n += got;
            }
            if (n != rawSize) throw new IOException("zlib blob: " + n + " of " + rawSize + " bytes");
            return out;
        } catch (DataFormatException e) {
            throw new IOException(e);
        } finally {
            inflater.end();
        }
    }

    private static void primitiveBlock(byte[] data, List<String> out) throws IOException {
        List<String> table = new ArrayList<>();
        List<Wire> groups = new ArrayList<>();
        Wire w = new Wire(data);
        while (w.more()) {
            int key = (int) w.varint();
            if (key >>> 3 == 1 && (key & 7) == 2) {
                Wire t = w.sub();
                while (t.more()) {
                    int k = (int) t.varint();
                    if (k >>> 3 == 1 && (k & 7) == 2) table.add(new String(t.bytes(), StandardCharsets.UTF_8));
                    else t.skip(k & 7);
                }
            } else if (key >>> 3 == 2 && (key & 7) == 2) {
                groups.add(w.sub());
            } else {
                w.skip(key & 7);
            }
        }
        for (Wire g : groups) {
            while (g.more()) {
                int key = (int) g.varint();
                int field = key >>> 3;
                if ((key & 7) != 2) {
                    g.skip(key & 7);
                } else if (field == 1 || field == 3 || field == 4) { // Node, Way, Relation: vals = 3
                    Wire e = g.sub();
                    List<Long> vals = new ArrayList<>();
                    while (e.more()) {
                        int k = (int) e.varint();
                        if (k >>> 3 == 3) e.varints(k & 7, vals);
                        else e.skip(k & 7);
                    }
                    for (long v : vals) out.add(table.get((int) v));
                } else if (field == 2) { // DenseNodes: keys_vals = 10, "k v k v … 0" per node
                    Wire d = g.sub();
                    List<Long> kv = new ArrayList<>();
                    while (d.more()) {
                        int k = (int) d.varint();
                        if (k >>> 3 == 10) d.varints(k & 7, kv);
                        else d.skip(k & 7);
                    }
                    for (int i = 0; i < kv.size(); i++) {
                        if (kv.get(i) == 0) continue; // end of one node's tags
                        out.add(table.get((int) (long) kv.get(i + 1)));
                        i++;
                    }
                } else {
                    g.skip(2);
                }
            }
        }
    }
}

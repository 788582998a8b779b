// Runs Neo4j's own short-string codecs over a batch of strings, in one JVM.
//
// Usage: java ShortStringOracle NEO4J_1_3_JAR NEO4J_1_9_JAR IN OUT
// IN: one string per line, as hex of its UTF-8 bytes.
// OUT: per input line, tab-separated:
//   A payload (16 hex digits) or "-" if not short
//   the 1.3 jar's decode of that payload (hex UTF-8), "-" or "!" + error
//   B longs (16 hex digits each, comma-separated) or "-"
//   the 1.9 jar's decode of those longs (hex UTF-8), "-" or "!" + error
//
// Both jars define classes of the same names, so each gets its own class
// loader and is reached by reflection.
import java.io.*;
import java.lang.reflect.*;
import java.net.*;
import java.nio.charset.StandardCharsets;

public class ShortStringOracle {
    static final String PKG = "org.neo4j.kernel.impl.nioneo.store.";

    public static void main(String[] args) throws Exception {
        if (args.length != 4) {
            System.err.println("usage: ShortStringOracle NEO4J_1_3_JAR NEO4J_1_9_JAR IN OUT");
            System.exit(2);
        }
        ClassLoader parent = ShortStringOracle.class.getClassLoader().getParent();
        ClassLoader l13 = new URLClassLoader(new URL[] {new File(args[0]).toURI().toURL()}, parent);
        ClassLoader l19 = new URLClassLoader(new URL[] {new File(args[1]).toURI().toURL()}, parent);

        Class<?> shortString = Class.forName(PKG + "ShortString", true, l13);
        Class<?> propertyRecord = Class.forName(PKG + "PropertyRecord", true, l13);
        Method encA = shortString.getDeclaredMethod("encode", String.class, propertyRecord);
        Method decA = shortString.getDeclaredMethod("decode", long.class);
        encA.setAccessible(true);
        decA.setAccessible(true);
        Constructor<?> newRecord = propertyRecord.getConstructor(long.class);
        Method getPropBlock = propertyRecord.getMethod("getPropBlock");

        Class<?> lss = Class.forName(PKG + "LongerShortString", true, l19);
        Class<?> propertyBlock = Class.forName(PKG + "PropertyBlock", true, l19);
        Method encB = lss.getMethod("encode", int.class, String.class, propertyBlock, int.class);
        Method decB = lss.getMethod("decode", propertyBlock);
        Constructor<?> newBlock = propertyBlock.getConstructor();
        Method getBlocks = propertyBlock.getMethod("getValueBlocks");
        Method setBlocks = propertyBlock.getMethod("setValueBlocks", long[].class);

        long n = 0;
        try (BufferedReader in = new BufferedReader(new InputStreamReader(new FileInputStream(args[2]), StandardCharsets.US_ASCII), 1 << 16);
             BufferedWriter out = new BufferedWriter(new OutputStreamWriter(new FileOutputStream(args[3]), StandardCharsets.US_ASCII), 1 << 16)) {
            StringBuilder sb = new StringBuilder();
            for (String line; (line = in.readLine()) != null; n++) {
                String s = new String(unhex(line), StandardCharsets.UTF_8);
                sb.setLength(0);

                Object record = newRecord.newInstance(1L);
                if ((Boolean) encA.invoke(null, s, record)) {
                    long v = (Long) getPropBlock.invoke(record);
                    sb.append(String.format("%016X", v)).append('\t');
                    try {
                        sb.append(hex((String) decA.invoke(null, v)));
                    } catch (InvocationTargetException e) {
                        sb.append('!').append(clean(e.getCause()));
                    }
                } else {
                    sb.append("-\t-");
                }
                sb.append('\t');

                Object block = newBlock.newInstance();
                if ((Boolean) encB.invoke(null, 0, s, block, 32)) {
                    long[] longs = (long[]) getBlocks.invoke(block);
                    for (int i = 0; i < longs.length; i++) {
                        if (i > 0) sb.append(',');
                        sb.append(String.format("%016X", longs[i]));
                    }
                    sb.append('\t');
                    Object fresh = newBlock.newInstance();
                    setBlocks.invoke(fresh, (Object) longs.clone());
                    try {
                        sb.append(hex((String) decB.invoke(null, fresh)));
                    } catch (InvocationTargetException e) {
                        sb.append('!').append(clean(e.getCause()));
                    }
                } else {
                    sb.append("-\t-");
                }
                out.write(sb.toString());
                out.newLine();
            }
        }
        System.err.println("oracle: " + n + " strings through neo4j-kernel 1.3 and 1.9");
    }

    static String clean(Throwable t) {
        return String.valueOf(t).replaceAll("[\\t\\r\\n]", " ");
    }

    static byte[] unhex(String s) {
        byte[] b = new byte[s.length() / 2];
        for (int i = 0; i < b.length; i++) {
            b[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
        }
        return b;
    }

    static final char[] DIGITS = "0123456789abcdef".toCharArray();

    static String hex(String s) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        char[] c = new char[2 * b.length];
        for (int i = 0; i < b.length; i++) {
            c[2 * i] = DIGITS[(b[i] >> 4) & 0xF];
            c[2 * i + 1] = DIGITS[b[i] & 0xF];
        }
        return new String(c);
    }
}

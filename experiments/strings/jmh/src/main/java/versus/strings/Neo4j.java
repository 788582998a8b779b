package versus.strings;

import java.io.File;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * Neo4j's own short-string codecs, reached in the jars that {@code mvn package} copied into
 * {@code target/neo4j/}. neo4j-kernel 1.3 and 1.9 define classes of the same names, so each jar
 * gets its own class loader. Each codec is held in static final MethodHandles, which the JIT treats
 * as constants and inlines like a direct call (plain reflection would charge Neo4j for
 * {@code Method.invoke}).
 */
final class Neo4j {
    private Neo4j() {}

    static final String PKG = "org.neo4j.kernel.impl.nioneo.store.";

    /** The folder of the copied jars: {@code neo4j/} beside benchmarks.jar (or $VERSUS_NEO4J_JARS). */
    static Path jarFolder() {
        String override = System.getenv("VERSUS_NEO4J_JARS");
        if (override != null && !override.isEmpty()) return Paths.get(override);
        try {
            Path jar = Paths.get(Neo4j.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            return jar.getParent().resolve("neo4j");
        } catch (Exception e) {
            throw new IllegalStateException("cannot locate benchmarks.jar", e);
        }
    }

    static ClassLoader loader(String version) {
        File jar = jarFolder().resolve("neo4j-kernel-" + version + ".jar").toFile();
        if (!jar.isFile()) {
            throw new IllegalStateException(jar + " is missing: build the benchmarks with `mvn package` "
                + "(it copies org.neo4j:neo4j-kernel:" + version + " there)");
        }
        try {
            return new URLClassLoader(new URL[] {jar.toURI().toURL()}, ClassLoader.getPlatformClassLoader());
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    static MethodHandle handle(Method m, MethodType type) throws IllegalAccessException {
        m.setAccessible(true);
        return MethodHandles.lookup().unreflect(m).asType(type);
    }

    static MethodHandle handle(Constructor<?> c, MethodType type) throws IllegalAccessException {
        c.setAccessible(true);
        return MethodHandles.lookup().unreflectConstructor(c).asType(type);
    }

    /** neo4j-kernel 1.3: {@code ShortString.encode(String, PropertyRecord)}, {@code decode(long)}. */
    static final class A {
        private A() {}

        static final MethodHandle NEW_RECORD; // () Object: new PropertyRecord(1)
        static final MethodHandle ENCODE; // (String, Object) boolean
        static final MethodHandle PAYLOAD; // (Object) long: record.getPropBlock()
        static final MethodHandle DECODE; // (long) String
        static final String VERSION = "1.3";

        static {
            try {
                ClassLoader l = loader(VERSION);
                Class<?> shortString = Class.forName(PKG + "ShortString", true, l);
                Class<?> record = Class.forName(PKG + "PropertyRecord", true, l);
                NEW_RECORD = MethodHandles.insertArguments(
                    handle(record.getConstructor(long.class), MethodType.methodType(Object.class, long.class)), 0, 1L);
                ENCODE = handle(shortString.getDeclaredMethod("encode", String.class, record),
                    MethodType.methodType(boolean.class, String.class, Object.class));
                PAYLOAD = handle(record.getMethod("getPropBlock"), MethodType.methodType(long.class, Object.class));
                DECODE = handle(shortString.getDeclaredMethod("decode", long.class),
                    MethodType.methodType(String.class, long.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * neo4j-kernel 1.9: {@code LongerShortString.encode(int keyId, String, PropertyBlock, int
     * payloadSize)} with key id 0 and the store's 32-byte payload, {@code decode(PropertyBlock)}.
     */
    static final class B {
        private B() {}

        static final MethodHandle NEW_BLOCK; // () Object
        static final MethodHandle ENCODE; // (int, String, Object, int) boolean
        static final MethodHandle BLOCKS; // (Object) long[]
        static final MethodHandle SET_BLOCKS; // (Object, long[]) void
        static final MethodHandle DECODE; // (Object) String
        static final int PAYLOAD_BYTES = 32;
        static final String VERSION = "1.9";

        static {
            try {
                ClassLoader l = loader(VERSION);
                Class<?> lss = Class.forName(PKG + "LongerShortString", true, l);
                Class<?> block = Class.forName(PKG + "PropertyBlock", true, l);
                NEW_BLOCK = handle(block.getConstructor(), MethodType.methodType(Object.class));
                ENCODE = handle(lss.getMethod("encode", int.class, String.class, block, int.class),
                    MethodType.methodType(boolean.class, int.class, String.class, Object.class, int.class));
                BLOCKS = handle(block.getMethod("getValueBlocks"), MethodType.methodType(long[].class, Object.class));
                SET_BLOCKS = handle(block.getMethod("setValueBlocks", long[].class),
                    MethodType.methodType(void.class, Object.class, long[].class));
                DECODE = handle(lss.getMethod("decode", block), MethodType.methodType(String.class, Object.class));
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }
}

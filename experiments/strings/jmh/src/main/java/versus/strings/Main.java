package versus.strings;

import java.io.File;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * benchmarks.jar's entry point: JMH's own Main, after waiting for JMH's machine-wide lock.
 *
 * <p>JMH refuses to start while another JMH run holds {@code $java.io.tmpdir/jmh.lock} ("Another JMH
 * instance might be running"), which on a shared machine fails a process run for nothing. This
 * waits for that lock instead, holds it for the whole run (so two JMH runs still never overlap),
 * and tells JMH not to take it again.
 */
public final class Main {
    private Main() {}

    public static void main(String[] args) throws Exception {
        File lockFile = new File(System.getProperty("java.io.tmpdir"), "jmh.lock");
        RandomAccessFile raf = new RandomAccessFile(lockFile, "rw");
        FileChannel channel = raf.getChannel();
        FileLock lock = channel.tryLock();
        if (lock == null) {
            System.out.println("# waiting for " + lockFile + " (another JMH run holds it)");
            lock = channel.lock();
        }
        System.setProperty("jmh.ignoreLock", "true");
        org.openjdk.jmh.Main.main(args); // the lock is released when this JVM exits
    }
}

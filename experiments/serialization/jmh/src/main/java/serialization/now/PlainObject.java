package serialization.now;

import java.util.concurrent.TimeUnit;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import serialization.bench.Checks;
import serialization.model.Media;

/** The post's "Some perspective": a plain object from its default constructor, no field set. */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PlainObject {
    /** Declared so that the experiment's value parameter is accepted; a plain object has no value. */
    @Param("standard")
    public String value;

    private Media last;

    @Benchmark
    public Object create() {
        return last = new Media();
    }

    @TearDown(Level.Trial)
    public void check() {
        boolean empty = last != null && last.equals(new Media()) && last.uri == null && last.persons == null;
        Checks.check(empty ? "ok" : "the plain object is not a new, empty Media: " + last);
    }
}

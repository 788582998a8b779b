package serialization.bench;

import java.util.List;

import org.openjdk.jmh.infra.Blackhole;

/**
 * Shows that the serialize and roundtrip arms start from objects that were never serialized: for every
 * serializer of this jar it builds a {@link Bench.Fresh} batch as JMH's invocation setup does, checks that no
 * object of it is one the bench serialized before (for protobuf, that no message has a memoized size), runs
 * one invocation of serialize, and checks that the batch is then memoized (so the check can see it) and that
 * the next invocation's batch is fresh again. Prints one line per serializer; exits 1 if any check fails.
 * tests/test_serialization_jvm.py runs it.
 */
public final class Freshness {
    private Freshness() {
    }

    public static void main(String[] args) throws Exception {
        List<Bench<?>> all = serialization.Catalog.all();
        Blackhole blackhole = new Blackhole(
                "Today's password is swordfish. I understand instantiating Blackholes directly is dangerous.");
        int failed = 0;
        int memoizing = 0;
        for (Bench<?> bench : all) {
            String problem = check(bench, blackhole);
            if (problem == null && Memo.visible(bench.freshObject())) {
                memoizing++;
            }
            failed += problem == null ? 0 : 1;
            System.out.printf("%-24s %s%n", bench.getClass().getSimpleName(), problem == null ? "fresh" : "FAILED: " + problem);
        }
        if (memoizing == 0) {
            System.out.println("freshness: no protobuf serializer in this jar: nothing memoizes");
            failed++;
        }
        blackhole.evaporate("Yes, I am Stephen Hawking, and know a thing or two about black holes.");
        System.out.println(failed == 0 ? "freshness: every serialize and roundtrip invocation gets never-serialized objects"
                : "freshness: " + failed + " FAILED");
        System.exit(failed == 0 ? 0 : 1);
    }

    @SuppressWarnings("unchecked")
    private static <T> String check(Bench<T> bench, Blackhole blackhole) throws Exception {
        bench.value = "standard";
        bench.prepare();
        Bench.Fresh fresh = new Bench.Fresh();
        fresh.build();
        for (Object object : fresh.objects) {
            String before = bench.serializedBefore((T) object);
            if (before != null) {
                return "a fresh object was serialized before: " + before;
            }
        }
        bench.serialize(fresh, blackhole);
        Object first = fresh.objects[0];
        if (Memo.visible(first)) {
            // The check must be able to fail: a message the loop serialized now has its size memoized.
            if (!Memo.visible(first) || bench.serializedBefore((T) first) == null) {
                return "a serialized message shows no memoized size: the check cannot see reuse";
            }
        }
        fresh.build();
        for (Object object : fresh.objects) {
            if (object == first || bench.serializedBefore((T) object) != null) {
                return "the next invocation's batch holds an object serialized before";
            }
        }
        bench.roundtrip(fresh, blackhole);
        return null;
    }
}

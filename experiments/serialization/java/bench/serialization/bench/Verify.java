package serialization.bench;

import java.util.List;

import serialization.model.MediaContent;
import serialization.model.Values;

/**
 * Every serializer of this jar, once on every value (Values.CHECKED), without timing: the round trip must
 * give back an equal value. Prints one line per serializer with its sizes (raw and deflated) for each value
 * and exits 1 if any serializer fails. `make test` runs it (tests/test_serialization_jvm.py); so can anyone:
 * {@code java -cp target/benchmarks.jar serialization.bench.Verify} in experiments/serialization.
 * Class names as arguments verify those serializers instead of the catalog's (the tests plant lossy ones).
 */
public final class Verify {
    private Verify() {
    }

    public static void main(String[] args) throws Exception {
        List<Bench<?>> all = new java.util.ArrayList<>();
        for (String name : args) {
            all.add((Bench<?>) Class.forName(name).getDeclaredConstructor().newInstance());
        }
        if (all.isEmpty()) {
            all = serialization.Catalog.all();
        }
        System.out.printf("%-24s %s%n", "serializer", String.join(" ", Values.CHECKED.stream()
                .map(n -> String.format("%15s", n + " (deflated)")).toArray(String[]::new)));
        int failed = 0;
        for (Bench<?> bench : all) {
            String name = bench.getClass().getSimpleName();
            String problem = bench.verify();
            if (problem != null) {
                failed++;
                System.out.printf("%-24s FAILED: %s%n", name, problem);
                continue;
            }
            StringBuilder line = new StringBuilder(String.format("%-24s", name));
            for (String value : Values.CHECKED) {
                MediaContent content = Values.named(value);
                byte[] bytes = bench.bytesOf(content);
                line.append(String.format(" %15s", bytes.length + " (" + Checks.deflatedSize(bytes) + ")"));
            }
            System.out.println(line);
        }
        System.out.println(failed == 0 ? "verify: all " + all.size() + " serializers round-trip all " + Values.CHECKED.size() + " values"
                : "verify: " + failed + " of " + all.size() + " serializers FAILED");
        System.exit(failed == 0 ? 0 : 1);
    }
}

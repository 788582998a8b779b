import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the Java helper's clock back to back. */
public class Resolution {
    public static void main(String[] args) throws Exception {
        Map<String, versus.Helper.Case> cases = new LinkedHashMap<>();
        cases.put("clock", ctx -> {
            int reads = Integer.parseInt(ctx.param("reads", "100000"));
            long[] stamps = new long[reads];
            for (int i = 0; i < reads; i++) stamps[i] = versus.Helper.now();
            long[] steps = new long[reads - 1];
            long min = Long.MAX_VALUE;
            for (int i = 0; i < reads - 1; i++) {
                steps[i] = stamps[i + 1] - stamps[i];
                if (steps[i] > 0 && steps[i] < min) min = steps[i];
            }
            Arrays.sort(steps);
            ctx.metric("min_step_ns", min == Long.MAX_VALUE ? 0 : min, "ns");
            ctx.metric("median_step_ns", steps[steps.length / 2], "ns");
            return new versus.Helper.Sample(stamps[reads - 1] - stamps[0], reads - 1, String.valueOf(reads));
        });
        versus.Helper.run(cases);
    }
}

// A tiny program for tests/test_helpers.py: every feature of versus.Helper, Java 8+.
import java.util.LinkedHashMap;
import java.util.Map;

import versus.Helper;

public class HelperProg {
    static long addLoop(long n) {
        long total = 0;
        for (long i = 0; i < n; i++) {
            total += i & 7;
        }
        return total;
    }

    public static void main(String[] args) {
        Map<String, Helper.Case> cases = new LinkedHashMap<>();
        cases.put("add", Helper.timed(HelperProg::addLoop));
        cases.put("manual", ctx -> {
            long start = System.nanoTime();
            long inner = ctx.inner == 0 ? 10 : ctx.inner;
            long total = addLoop(inner);
            long ns = System.nanoTime() - start;
            ctx.metric("na\u00efve \"q\" \u2603 \uD83D\uDE00", 242, "bytes");
            ctx.metric("ratio", 0.5, "1");
            return new Helper.Sample(ns, inner, ctx.param("expect", "none") + ":" + total);
        });
        cases.put("self_sized", ctx -> {
            long start = System.nanoTime();
            long total = addLoop(1000);
            return new Helper.Sample(System.nanoTime() - start, 1000, total > 0);
        });
        cases.put("boom", Helper.timed(n -> {
            throw new IllegalArgumentException("boom from the test program");
        }));
        cases.put("typo", ctx -> new Helper.Sample(1, 1, ctx.param("expectt")));
        Helper.run(cases);
    }
}

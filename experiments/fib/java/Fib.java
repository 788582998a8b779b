// The two fib algorithms of Charles Nutter's "The Fastest Ruby Platform?" (2006), in Java, written as
// the post wrote them in Ruby.  fib_recursive uses int (fib(30) fits); fib_iterative uses BigInteger.
// n is read from a parameter at run time, so the JIT cannot fold a call into a constant.
import java.math.BigInteger;
import java.util.LinkedHashMap;
import java.util.Map;

import versus.Helper;

public class Fib {
    static final int RECURSIVE_N = Integer.parseInt(Helper.param("recursive_n", "30"));
    static final int ITERATIVE_N = Integer.parseInt(Helper.param("iterative_n", "500000"));
    // untimed calls of fib_recursive before its first sample, so that the JIT has compiled fib
    static final int WARMUP_CALLS = Integer.parseInt(Helper.param("warmup_calls", "5"));
    static final BigInteger TEN_TO_20 = BigInteger.TEN.pow(20);

    static int fibRecursive(int n) {
        if (n < 2) {
            return n;
        } else {
            return fibRecursive(n - 2) + fibRecursive(n - 1);
        }
    }

    static BigInteger fibIterative(int n) {
        BigInteger i = BigInteger.ZERO;
        BigInteger j = BigInteger.ONE;
        int cur = 1;
        while (cur <= n) {
            BigInteger k = i;
            i = j;
            j = k.add(j);
            cur += 1;
        }
        return i;
    }

    /** The last 20 decimal digits, zero-padded. */
    static String last20(BigInteger value) {
        return String.format("%020d", value.mod(TEN_TO_20));
    }

    public static void main(String[] args) {
        if ("fib_recursive".equals(System.getenv("VERSUS_CASE"))) {
            for (int r = 0; r < WARMUP_CALLS; r++) fibRecursive(RECURSIVE_N);
        }
        Map<String, Helper.Case> cases = new LinkedHashMap<>();
        cases.put("fib_recursive", Helper.timed(inner -> {
            int result = 0;
            for (long r = 0; r < inner; r++) result = fibRecursive(RECURSIVE_N);
            return result;
        }));
        cases.put("fib_iterative", Helper.timed(inner -> {
            BigInteger result = null;
            for (long r = 0; r < inner; r++) result = fibIterative(ITERATIVE_N);
            return last20(result);
        }));
        Helper.run(cases);
    }
}

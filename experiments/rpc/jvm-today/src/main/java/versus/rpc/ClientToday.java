package versus.rpc;

import java.util.LinkedHashMap;
import java.util.Map;

import versus.Helper;

/** Today's clients, one case each, against the server the harness started for the case (VERSUS_PORT). */
public final class ClientToday {
    private ClientToday() {
    }

    public static void main(String[] args) {
        SerialFilter.install();
        // The JDK keeps at most 5 idle HTTP connections per server by default; Spring's HttpInvoker client
        // (HttpURLConnection) needs one per thread at the experiment's concurrency.
        System.setProperty("http.maxConnections", Helper.param("concurrency", "8"));
        Map<String, Helper.Case> cases = new LinkedHashMap<>();
        cases.put("socket", Bench.measure(port -> SocketRpc.client(port, SocketRpc.STYLE_TODAY)));
        cases.put("http", Bench.measure(HttpToday::http1));
        cases.put("http2", Bench.measure(HttpToday::http2));
        cases.put("spring", Bench.measure(port -> SpringRpc.client(port, false)));
        cases.put("grpc", Bench.measure(GrpcRpc::client));
        cases.put("grpc_direct", Bench.measure(GrpcRpc::client));
        Helper.run(cases);
    }
}

package versus.rpc;

import java.util.LinkedHashMap;
import java.util.Map;

import versus.Helper;

/** The 2008 clients, one case each, against the server the harness started for the case (VERSUS_PORT). */
public final class Client2008 {
    private Client2008() {
    }

    public static void main(String[] args) {
        SerialFilter.install();
        Map<String, Helper.Case> cases = new LinkedHashMap<>();
        cases.put("socket_2008", Bench.measure(port -> SocketRpc.client(port, SocketRpc.STYLE_2008)));
        cases.put("socket_2008_nodelay", Bench.measure(port -> SocketRpc.client(port, SocketRpc.STYLE_2008_NODELAY)));
        cases.put("socket_2008_quickack", Bench.measure(port -> SocketRpc.client(port, SocketRpc.STYLE_2008_QUICKACK)));
        cases.put("http_2008", Bench.measure(port -> Http2008.client(port, true)));
        cases.put("http_2008_nostale", Bench.measure(port -> Http2008.client(port, false)));
        cases.put("spring_2008", Bench.measure(port -> SpringRpc.client(port, true)));
        Helper.run(cases);
    }
}

package versus.rpc;

import javax.servlet.http.HttpServlet;

import org.mortbay.jetty.Server;
import org.mortbay.jetty.nio.SelectChannelConnector;
import org.mortbay.jetty.servlet.Context;
import org.mortbay.jetty.servlet.ServletHolder;

/** The 2008 servers, one per case, on 127.0.0.1:VERSUS_PORT; the harness starts and stops them. */
public final class Server2008 {
    private Server2008() {
    }

    public static void main(String[] args) throws Exception {
        SerialFilter.install();
        String name = args.length > 0 ? args[0] : System.getenv("VERSUS_CASE");
        int port = Bench.port();
        switch (String.valueOf(name)) {
            case "socket_2008":
                SocketRpc.serve(port, SocketRpc.STYLE_2008);
                break;
            case "socket_2008_nodelay":
                SocketRpc.serve(port, SocketRpc.STYLE_2008_NODELAY);
                break;
            case "socket_2008_quickack":
                SocketRpc.serve(port, SocketRpc.STYLE_2008_QUICKACK);
                break;
            case "http_2008":
            case "http_2008_nostale":
                jetty(port, Http2008.servlet());
                break;
            case "spring_2008":
                jetty(port, SpringRpc.servlet(true));
                break;
            default:
                System.err.println("Server2008: no server for case " + name
                        + " (cases: socket_2008, socket_2008_nodelay, socket_2008_quickack, http_2008, http_2008_nostale, spring_2008)");
                System.exit(2);
        }
    }

    /** Jetty 6 with its default NIO connector, as its jetty.xml configured it, serving one servlet at /rpc. */
    static void jetty(int port, HttpServlet servlet) throws Exception {
        Server server = new Server();
        SelectChannelConnector connector = new SelectChannelConnector();
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        Context context = new Context(server, "/", Context.NO_SESSIONS);
        context.addServlet(new ServletHolder(servlet), "/rpc");
        server.start();
        System.out.println("Jetty " + Server.getVersion() + " on 127.0.0.1:" + port);
        server.join();
    }
}

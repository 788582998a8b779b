package versus.rpc;

import javax.servlet.http.HttpServlet;

import org.eclipse.jetty.ee8.servlet.ServletContextHandler;
import org.eclipse.jetty.ee8.servlet.ServletHolder;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/** Today's servers, one per case, on 127.0.0.1:VERSUS_PORT; the harness starts and stops them. */
public final class ServerToday {
    private ServerToday() {
    }

    public static void main(String[] args) throws Exception {
        SerialFilter.install();
        String name = args.length > 0 ? args[0] : System.getenv("VERSUS_CASE");
        int port = Bench.port();
        switch (String.valueOf(name)) {
            case "socket":
                SocketRpc.serve(port, SocketRpc.STYLE_TODAY);
                break;
            case "http":
            case "http2":
                jetty(port, HttpToday.handler());
                break;
            case "spring":
                jetty(port, servletContext(SpringRpc.servlet(false)));
                break;
            case "grpc":
                GrpcRpc.serve(port, false);
                break;
            case "grpc_direct":
                GrpcRpc.serve(port, true);
                break;
            default:
                System.err.println("ServerToday: no server for case " + name + " (cases: socket, http, http2, spring, grpc, grpc_direct)");
                System.exit(2);
        }
    }

    /** Jetty 12 speaking HTTP/1.1 and, on the same port, HTTP/2 in clear text (h2c). */
    static void jetty(int port, Handler handler) throws Exception {
        Server server = new Server();
        HttpConfiguration config = new HttpConfiguration();
        ServerConnector connector = new ServerConnector(server, new HttpConnectionFactory(config),
                new HTTP2CServerConnectionFactory(config));
        connector.setHost("127.0.0.1");
        connector.setPort(port);
        server.addConnector(connector);
        server.setHandler(handler);
        server.start();
        System.out.println("Jetty " + Server.getVersion() + " on 127.0.0.1:" + port);
        server.join();
    }

    /** Spring 5.3 speaks javax.servlet: the servlet runs in Jetty 12's EE8 environment. */
    static Handler servletContext(HttpServlet servlet) {
        ServletContextHandler context = new ServletContextHandler(ServletContextHandler.NO_SESSIONS);
        context.setContextPath("/");
        context.addServlet(new ServletHolder(servlet), "/rpc");
        return context.get();
    }
}

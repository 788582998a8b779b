package versus.rpc;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.ObjectInputFilter;
import java.io.ObjectOutputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.HashMap;

/**
 * The allow-list of classes any ObjectInputStream of this experiment's processes may read (the JVM-wide
 * filter of jdk.serialFilter, installed by every server's and client's main before anything else). Spring's
 * HttpInvoker deserializes whatever a request carries, so its exporter would run a deserialization gadget
 * sent by any local process while a run is live; with the filter it reads only the service's own objects:
 * Spring's invocation and result, the MediaContent model, their strings, boxed numbers, lists and enums,
 * and the exceptions a failed call returns. Everything else, and anything deeper, larger or longer than
 * this value needs, is rejected before an instance is made.
 *
 * <p>{@code java -cp program.jar versus.rpc.SerialFilter probe PORT} checks a live spring server: a request
 * carrying a class outside the list must fail, and a real call must still succeed (tests/test_rpc.py).
 */
public final class SerialFilter {
    static final String PATTERN = String.join(";",
            "maxdepth=20", "maxrefs=10000", "maxbytes=10000000", "maxarray=100000",
            "org.springframework.remoting.support.RemoteInvocation",
            "org.springframework.remoting.support.RemoteInvocationResult",
            "serialization.model.*",
            "java.lang.String", "java.lang.Number", "java.lang.Integer", "java.lang.Long", "java.lang.Enum",
            "java.lang.Class", "java.lang.Object", "java.util.ArrayList",
            "java.lang.Throwable", "java.lang.Exception", "java.lang.RuntimeException",
            "java.lang.IllegalArgumentException", "java.lang.IllegalStateException", "java.lang.StackTraceElement",
            "java.util.Collections$EmptyList", "java.util.Collections$UnmodifiableList",
            "java.util.Collections$UnmodifiableCollection", "java.util.Collections$UnmodifiableRandomAccessList",
            "!*");

    private SerialFilter() {
    }

    /** Installs the filter JVM-wide, once; a filter already set (jdk.serialFilter on the command line) stays. */
    public static void install() {
        if (ObjectInputFilter.Config.getSerialFilter() == null) {
            ObjectInputFilter.Config.setSerialFilter(ObjectInputFilter.Config.createFilter(PATTERN));
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 2 || !args[0].equals("probe")) {
            System.err.println("usage: SerialFilter probe PORT   (a spring case's server on 127.0.0.1:PORT)");
            System.exit(2);
        }
        install();
        int port = Integer.parseInt(args[1]);
        HashMap<String, String> forbidden = new HashMap<>();
        forbidden.put("not", "allowed");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(forbidden);
        }
        HttpURLConnection post = (HttpURLConnection) new URL("http://127.0.0.1:" + port + "/rpc").openConnection();
        post.setDoOutput(true);
        post.setRequestMethod("POST");
        post.setRequestProperty("Content-Type", "application/x-java-serialized-object");
        try (OutputStream body = post.getOutputStream()) {
            body.write(bytes.toByteArray());
        }
        int status = post.getResponseCode();
        try (InputStream answer = status < 400 ? post.getInputStream() : post.getErrorStream()) {
            if (answer != null) {
                answer.readAllBytes();
            }
        }
        if (status < 400) {
            System.out.println("probe: the server answered " + status + " to a java.util.HashMap: NOT filtered");
            System.exit(1);
        }
        boolean ok = SpringRpc.client(port, true).roundTrip();
        System.out.println("probe: java.util.HashMap refused (HTTP " + status + "); a MediaContent call "
                + (ok ? "succeeded" : "FAILED"));
        System.exit(ok ? 0 : 1);
    }
}

package versus.rpc;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Arrays;

import serialization.model.MediaContent;
import serialization.protobuf.MediaProtos;

/**
 * Protobuf over a plain TCP socket, framed as the 2008 code framed it: the request is an int method index, an
 * int length and the message's bytes; the response an int length and the bytes. How each side writes is its
 * {@link Style}: the 2008 code wrote each int and the bytes straight to the socket (one system call, and with
 * Nagle's algorithm on, possibly one wait for an ACK, each) and built a new message per call.
 */
public final class SocketRpc {
    private SocketRpc() {
    }

    /**
     * How both sides write and acknowledge: buffered or not, TCP_NODELAY or not, TCP_QUICKACK set again after
     * every read or not, a new message per call or one built once.
     */
    public static final class Style {
        final boolean buffered;
        final boolean noDelay;
        final boolean quickAck;
        final boolean fresh;

        public Style(boolean buffered, boolean noDelay, boolean quickAck, boolean fresh) {
            this.buffered = buffered;
            this.noDelay = noDelay;
            this.quickAck = quickAck;
            this.fresh = fresh;
        }
    }

    /** 2008 on Linux's defaults: unbuffered DataOutputStreams, Nagle on, delayed ACKs, a new message per call. */
    public static final Style STYLE_2008 = new Style(false, false, false, true);
    /** The 2008 code with TCP_NODELAY on both ends, to show what Nagle's algorithm cost it. */
    public static final Style STYLE_2008_NODELAY = new Style(false, true, false, true);
    /**
     * The 2008 code as Mac OS X ran it: Nagle still on, but every segment acknowledged at once. xnu's
     * tcp_input.c acknowledges a segment that carries PSH without delay, and every write of this code ends
     * in one; Linux has no such rule, so each side sets TCP_QUICKACK again after every read (Linux clears it
     * by itself), which sends the ACK at once.
     */
    public static final Style STYLE_2008_QUICKACK = new Style(false, false, true, true);
    /** Today: buffered streams flushed once per message, TCP_NODELAY, messages built once. */
    public static final Style STYLE_TODAY = new Style(true, true, false, false);

    static DataInputStream input(Socket socket, Style style) throws IOException {
        InputStream in = socket.getInputStream();
        if (style.quickAck) {
            in = new QuickAck(socket, in);
        }
        return new DataInputStream(style.buffered ? new BufferedInputStream(in, 1 << 16) : in);
    }

    /** Sets TCP_QUICKACK on its socket again after every read (jdk.net.ExtendedSocketOptions, Linux). */
    static final class QuickAck extends java.io.FilterInputStream {
        private final Socket socket;

        QuickAck(Socket socket, InputStream in) throws IOException {
            super(in);
            this.socket = socket;
            quickAck();
        }

        private void quickAck() throws IOException {
            socket.setOption(jdk.net.ExtendedSocketOptions.TCP_QUICKACK, true);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            quickAck();
            return b;
        }

        @Override
        public int read(byte[] buffer, int offset, int length) throws IOException {
            int n = super.read(buffer, offset, length);
            quickAck();
            return n;
        }
    }

    static DataOutputStream output(Socket socket, Style style) throws IOException {
        OutputStream out = socket.getOutputStream();
        return new DataOutputStream(style.buffered ? new BufferedOutputStream(out, 1 << 16) : out);
    }

    public static Bench.Link client(int port, Style style) throws IOException {
        MediaContent value = Protos.value();
        MediaProtos.MediaContent built = Protos.message(value);
        byte[] expected = built.toByteArray();
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        socket.setTcpNoDelay(style.noDelay);
        DataInputStream in = input(socket, style);
        DataOutputStream out = output(socket, style);
        return new Bench.Link() {
            @Override
            public boolean roundTrip() throws IOException {
                MediaProtos.MediaContent request = style.fresh ? Protos.message(value) : built;
                byte[] bytes = request.toByteArray();
                out.writeInt(0);
                out.writeInt(bytes.length);
                out.write(bytes);
                out.flush();
                byte[] answer = new byte[in.readInt()];
                in.readFully(answer);
                MediaProtos.MediaContent response = MediaProtos.MediaContent.parseFrom(answer);
                return response.hasMedia() && Arrays.equals(answer, expected);
            }

            @Override
            public void close() throws IOException {
                socket.close();
            }
        };
    }

    /** Serves each connection on its own thread until the process is stopped. */
    public static void serve(int port, Style style) throws IOException {
        MediaContent value = Protos.value();
        MediaProtos.MediaContent built = Protos.message(value);
        byte[] expected = built.toByteArray();
        ServerSocket listener = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
        System.out.println("socket server on 127.0.0.1:" + port);
        while (true) {
            Socket socket = listener.accept();
            Thread connection = new Thread(() -> {
                try (Socket open = socket) {
                    open.setTcpNoDelay(style.noDelay);
                    DataInputStream in = input(open, style);
                    DataOutputStream out = output(open, style);
                    while (true) {
                        int index;
                        try {
                            index = in.readInt();
                        } catch (EOFException closed) {
                            return; // the client is done (or it was the harness probing the port)
                        }
                        byte[] bytes = new byte[in.readInt()];
                        in.readFully(bytes);
                        MediaProtos.MediaContent request = MediaProtos.MediaContent.parseFrom(bytes);
                        if (index != 0 || !request.hasMedia() || !Arrays.equals(bytes, expected)) {
                            System.out.println("a request differed from the expected MediaContent: closing");
                            return; // the client fails on the closed connection
                        }
                        byte[] answer = (style.fresh ? Protos.message(value) : built).toByteArray();
                        out.writeInt(answer.length);
                        out.write(answer);
                        out.flush();
                    }
                } catch (IOException error) {
                    System.out.println("connection failed: " + error);
                }
            }, "connection");
            connection.setDaemon(true);
            connection.start();
        }
    }
}

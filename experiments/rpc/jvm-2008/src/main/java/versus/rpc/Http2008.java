package versus.rpc;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Arrays;

import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.apache.commons.httpclient.HttpClient;
import org.apache.commons.httpclient.methods.ByteArrayRequestEntity;
import org.apache.commons.httpclient.methods.PostMethod;

import serialization.model.MediaContent;
import serialization.protobuf.MediaProtos;

/**
 * Protobuf over HTTP as the 2008 post did it: commons-httpclient 3.1 with one HttpClient per connection reused
 * and a new PostMethod per call, whose body is the socket framing (an int method index, an int length, the
 * bytes); a servlet on Jetty 6 that answers with an int length and a freshly built message, written through a
 * DataOutputStream on the response stream and flushed.
 */
final class Http2008 {
    private Http2008() {
    }

    /**
     * staleCheck: commons-httpclient checks by default, before each request on a kept-alive connection, that the
     * server has not closed it, by reading with a 1 ms timeout: a wait of about a millisecond per call.
     */
    static Bench.Link client(int port, boolean staleCheck) {
        MediaContent value = Protos.value();
        byte[] expected = Protos.message(value).toByteArray();
        HttpClient client = new HttpClient();
        client.getHttpConnectionManager().getParams().setStaleCheckingEnabled(staleCheck);
        String url = "http://127.0.0.1:" + port + "/rpc";
        return () -> {
            PostMethod post = new PostMethod(url);
            try {
                ByteArrayOutputStream body = new ByteArrayOutputStream();
                DataOutputStream out = new DataOutputStream(body);
                byte[] bytes = Protos.message(value).toByteArray();
                out.writeInt(0);
                out.writeInt(bytes.length);
                out.write(bytes);
                out.flush();
                post.setRequestEntity(new ByteArrayRequestEntity(body.toByteArray()));
                if (client.executeMethod(post) != 200) {
                    throw new IOException("HTTP " + post.getStatusLine());
                }
                DataInputStream in = new DataInputStream(post.getResponseBodyAsStream());
                byte[] answer = new byte[in.readInt()];
                in.readFully(answer);
                MediaProtos.MediaContent response = MediaProtos.MediaContent.parseFrom(answer);
                return response.hasMedia() && Arrays.equals(answer, expected);
            } finally {
                post.releaseConnection();
            }
        };
    }

    static HttpServlet servlet() {
        MediaContent value = Protos.value();
        byte[] expected = Protos.message(value).toByteArray();
        return new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void doPost(HttpServletRequest request, HttpServletResponse response) throws IOException {
                DataInputStream in = new DataInputStream(request.getInputStream());
                int index = in.readInt();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                MediaProtos.MediaContent parsed = MediaProtos.MediaContent.parseFrom(bytes);
                if (index != 0 || !parsed.hasMedia() || !Arrays.equals(bytes, expected)) {
                    response.sendError(400, "the request differed from the expected MediaContent");
                    return;
                }
                byte[] answer = Protos.message(value).toByteArray();
                DataOutputStream out = new DataOutputStream(response.getOutputStream());
                out.writeInt(answer.length);
                out.write(answer);
                out.flush();
            }
        };
    }
}

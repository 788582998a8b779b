package versus.rpc;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.classic.methods.HttpPost;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.core5.http.ContentType;
import org.apache.hc.core5.http.io.entity.ByteArrayEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.io.Content;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Request;
import org.eclipse.jetty.server.Response;
import org.eclipse.jetty.util.Callback;

import serialization.model.MediaContent;
import serialization.protobuf.MediaProtos;

/**
 * Protobuf over HTTP today: the body is the message itself (HTTP frames it), POSTed with Apache HttpClient 5,
 * either its classic client on a kept-alive HTTP/1.1 connection or its async client speaking HTTP/2 in clear
 * text (h2c, prior knowledge); served by a Jetty 12 core handler, no servlet layer.
 */
final class HttpToday {
    static final ContentType PROTOBUF = ContentType.create("application/x-protobuf");

    private HttpToday() {
    }

    static Bench.Link http1(int port) {
        MediaProtos.MediaContent request = Protos.message(Protos.value());
        byte[] expected = request.toByteArray();
        CloseableHttpClient client = HttpClients.createDefault(); // pooled, keep-alive, TCP_NODELAY
        String url = "http://127.0.0.1:" + port + "/rpc";
        return new Bench.Link() {
            @Override
            public boolean roundTrip() throws IOException {
                HttpPost post = new HttpPost(url);
                post.setEntity(new ByteArrayEntity(request.toByteArray(), PROTOBUF));
                byte[] answer = client.execute(post, response -> {
                    if (response.getCode() != 200) {
                        throw new IOException("HTTP " + response.getCode());
                    }
                    return EntityUtils.toByteArray(response.getEntity());
                });
                return MediaProtos.MediaContent.parseFrom(answer).hasMedia() && Arrays.equals(answer, expected);
            }

            @Override
            public void close() throws IOException {
                client.close();
            }
        };
    }

    static Bench.Link http2(int port) {
        MediaProtos.MediaContent request = Protos.message(Protos.value());
        byte[] expected = request.toByteArray();
        CloseableHttpAsyncClient client = HttpAsyncClients.createHttp2Default();
        client.start();
        String url = "http://127.0.0.1:" + port + "/rpc";
        return new Bench.Link() {
            @Override
            public boolean roundTrip() throws Exception {
                SimpleHttpRequest post = SimpleHttpRequest.create("POST", url);
                post.setBody(request.toByteArray(), PROTOBUF);
                SimpleHttpResponse response = client.execute(post, null).get(30, TimeUnit.SECONDS);
                if (response.getCode() != 200) {
                    throw new IOException("HTTP " + response.getCode());
                }
                if (response.getVersion().getMajor() != 2) {
                    throw new IOException("expected HTTP/2, got " + response.getVersion());
                }
                byte[] answer = response.getBodyBytes();
                return MediaProtos.MediaContent.parseFrom(answer).hasMedia() && Arrays.equals(answer, expected);
            }

            @Override
            public void close() {
                client.close(CloseMode.IMMEDIATE);
            }
        };
    }

    /** Reads the request, checks it, answers with the message built once (serialized per call). */
    static Handler handler() {
        MediaContent value = Protos.value();
        MediaProtos.MediaContent built = Protos.message(value);
        byte[] expected = built.toByteArray();
        return new Handler.Abstract() {
            @Override
            public boolean handle(Request request, Response response, Callback callback) throws Exception {
                ByteBuffer body = Content.Source.asByteBuffer(request);
                byte[] bytes = new byte[body.remaining()];
                body.get(bytes);
                if (!MediaProtos.MediaContent.parseFrom(bytes).hasMedia() || !Arrays.equals(bytes, expected)) {
                    Response.writeError(request, response, callback, 400, "the request differed from the expected MediaContent");
                    return true;
                }
                byte[] answer = built.toByteArray();
                response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/x-protobuf");
                response.getHeaders().put(HttpHeader.CONTENT_LENGTH, answer.length);
                response.write(true, ByteBuffer.wrap(answer), callback);
                return true;
            }
        };
    }
}

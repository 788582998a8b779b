package versus.rpc;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import javax.servlet.ServletException;
import javax.servlet.http.HttpServlet;
import javax.servlet.http.HttpServletRequest;
import javax.servlet.http.HttpServletResponse;

import org.springframework.remoting.httpinvoker.HttpInvokerProxyFactoryBean;
import org.springframework.remoting.httpinvoker.HttpInvokerServiceExporter;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * Spring's HttpInvoker: a proxy of {@link MediaService} that Java-serializes each call over HTTP POST, and the
 * exporter that deserializes it in a servlet. One source for Spring 2.5.6 and 5.3 (the API did not change);
 * each setup puts the servlet on its own Jetty. HttpInvoker deserializes whatever Java objects it is sent
 * (why Spring 6 removed it): the servers bind to 127.0.0.1 only.
 */
public final class SpringRpc {
    private SpringRpc() {
    }

    /** A client proxy of the service at http://127.0.0.1:port/rpc, with Spring's default request executor. */
    public static Bench.Link client(int port, boolean fresh) throws Exception {
        MediaContent value = Protos.value();
        HttpInvokerProxyFactoryBean factory = new HttpInvokerProxyFactoryBean();
        factory.setServiceUrl("http://127.0.0.1:" + port + "/rpc");
        factory.setServiceInterface(MediaService.class);
        factory.afterPropertiesSet();
        MediaService service = (MediaService) factory.getObject();
        return () -> {
            MediaContent response = service.exchange(fresh ? copy(value) : value);
            return value.equals(response);
        };
    }

    /** The exporter in a servlet; a request that is not the expected value fails the call. */
    public static HttpServlet servlet(boolean fresh) throws Exception {
        MediaContent value = Protos.value();
        HttpInvokerServiceExporter exporter = new HttpInvokerServiceExporter();
        exporter.setService((MediaService) request -> {
            if (!value.equals(request)) {
                throw new IllegalArgumentException("the request differed from the expected MediaContent");
            }
            return fresh ? copy(value) : value;
        });
        exporter.setServiceInterface(MediaService.class);
        exporter.afterPropertiesSet();
        return new HttpServlet() {
            private static final long serialVersionUID = 1L;

            @Override
            protected void service(HttpServletRequest request, HttpServletResponse response)
                    throws ServletException, IOException {
                exporter.handleRequest(request, response);
            }
        };
    }

    /** A new object graph equal to value, as the 2008 code created a new object per call. */
    static MediaContent copy(MediaContent value) {
        Media m = value.media;
        List<Image> images = new ArrayList<>();
        for (Image i : value.images) {
            images.add(new Image(i.uri, i.title, i.width, i.height, i.size));
        }
        return new MediaContent(new Media(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.bitrate,
                new ArrayList<>(m.persons), m.player, m.copyright), images);
    }
}

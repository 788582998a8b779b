package serialization.thrift;

import java.io.ByteArrayOutputStream;

import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolFactory;
import org.apache.thrift.transport.TIOStreamTransport;
import org.apache.thrift.transport.TMemoryInputTransport;

/**
 * To and from byte arrays the way libthrift's TSerializer and TDeserializer do it (one reused buffer,
 * transport and protocol per codec; not thread-safe), for the Thrift classes of either project: those
 * Debian's thrift-compiler generates (today's) and java/thrift-2008's hand-written ones, which have the
 * same fields and methods. The same source compiles against libthrift 0.6.1 and 0.2x.
 */
public final class ThriftCodec {
    private final ByteArrayOutputStream buffer = new ByteArrayOutputStream();
    private final TProtocol writer;
    private final TMemoryInputTransport input;
    private final TProtocol reader;

    public ThriftCodec(TProtocolFactory factory) throws Exception {
        writer = factory.getProtocol(new TIOStreamTransport(buffer));
        input = new TMemoryInputTransport();
        reader = factory.getProtocol(input);
    }

    public byte[] serialize(MediaContent content) throws Exception {
        buffer.reset();
        content.write(writer);
        return buffer.toByteArray();
    }

    public MediaContent deserialize(byte[] bytes) throws Exception {
        try {
            input.reset(bytes);
            MediaContent content = new MediaContent();
            content.read(reader);
            return content;
        } finally {
            reader.reset();
        }
    }

    /** Thrift's objects from the value ("create"), as a user fills generated classes: setters, addTo*. */
    public static MediaContent fromValue(serialization.model.MediaContent value) {
        MediaContent content = new MediaContent();
        for (serialization.model.Image v : value.images) {
            Image image = new Image().setUri(v.uri).setTitle(v.title);
            if (v.width != null) {
                image.setWidth(v.width);
            }
            if (v.height != null) {
                image.setHeight(v.height);
            }
            if (v.size != null) {
                image.setSize(v.size == serialization.model.Image.Size.SMALL ? Size.SMALL : Size.LARGE);
            }
            content.addToImage(image);
        }
        serialization.model.Media m = value.media;
        Media media = new Media().setUri(m.uri).setTitle(m.title).setFormat(m.format).setCopyright(m.copyright);
        if (m.width != null) {
            media.setWidth(m.width);
        }
        if (m.height != null) {
            media.setHeight(m.height);
        }
        if (m.duration != null) {
            media.setDuration(m.duration);
        }
        if (m.size != null) {
            media.setSize(m.size);
        }
        if (m.bitrate != null) {
            media.setBitrate(m.bitrate);
        }
        for (String person : m.persons) {
            media.addToPerson(person);
        }
        if (m.player != null) {
            media.setPlayer(m.player == serialization.model.Media.Player.JAVA ? Player.JAVA : Player.FLASH);
        }
        return content.setMedia(media);
    }

    /** The value a Thrift object carries (for checks, untimed). */
    public static serialization.model.MediaContent toValue(MediaContent content) {
        java.util.List<serialization.model.Image> images = new java.util.ArrayList<>();
        if (content.image != null) {
            for (Image i : content.image) {
                images.add(new serialization.model.Image(i.uri, i.title, i.isSetWidth() ? i.width : null,
                        i.isSetHeight() ? i.height : null,
                        i.size == null ? null : serialization.model.Image.Size.valueOf(i.size.name())));
            }
        }
        Media m = content.media;
        if (m == null) {
            return new serialization.model.MediaContent(null, images);
        }
        return new serialization.model.MediaContent(new serialization.model.Media(m.uri, m.title,
                m.isSetWidth() ? m.width : null, m.isSetHeight() ? m.height : null, m.format,
                m.isSetDuration() ? m.duration : null, m.isSetSize() ? m.size : null, m.isSetBitrate() ? m.bitrate : null,
                m.person == null ? new java.util.ArrayList<String>() : new java.util.ArrayList<>(m.person),
                m.player == null ? null : serialization.model.Media.Player.valueOf(m.player.name()), m.copyright), images);
    }
}


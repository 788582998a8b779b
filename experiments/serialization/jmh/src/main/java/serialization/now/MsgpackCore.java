package serialization.now;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import org.msgpack.core.MessageBufferPacker;
import org.msgpack.core.MessagePack;
import org.msgpack.core.MessageUnpacker;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * MessagePack with msgpack-core used directly (no Jackson): a map per object with the value files' field
 * names, every key present, unset fields as nil, enums by name: the bytes Jackson's msgpack and Python's
 * msgpack write for the same value. One reused packer.
 */
public class MsgpackCore extends Pojo {
    private final MessageBufferPacker packer = MessagePack.newDefaultBufferPacker();

    @Override
    protected byte[] encode(MediaContent content) throws IOException {
        MessageBufferPacker p = packer;
        p.clear();
        p.packMapHeader(2);
        p.packString("media");
        Media m = content.media;
        p.packMapHeader(11);
        text(p, "uri", m.uri);
        text(p, "title", m.title);
        integer(p, "width", m.width);
        integer(p, "height", m.height);
        text(p, "format", m.format);
        integer(p, "duration", m.duration);
        integer(p, "size", m.size);
        integer(p, "bitrate", m.bitrate);
        p.packString("persons");
        p.packArrayHeader(m.persons.size());
        for (String person : m.persons) {
            p.packString(person);
        }
        text(p, "player", m.player == null ? null : m.player.name());
        text(p, "copyright", m.copyright);
        p.packString("images");
        p.packArrayHeader(content.images.size());
        for (Image i : content.images) {
            p.packMapHeader(5);
            text(p, "uri", i.uri);
            text(p, "title", i.title);
            integer(p, "width", i.width);
            integer(p, "height", i.height);
            text(p, "size", i.size == null ? null : i.size.name());
        }
        return p.toByteArray();
    }

    private static void text(MessageBufferPacker p, String key, String value) throws IOException {
        p.packString(key);
        if (value == null) {
            p.packNil();
        } else {
            p.packString(value);
        }
    }

    private static void integer(MessageBufferPacker p, String key, Number value) throws IOException {
        p.packString(key);
        if (value == null) {
            p.packNil();
        } else {
            p.packLong(value.longValue());
        }
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws IOException {
        try (MessageUnpacker u = MessagePack.newDefaultUnpacker(bytes)) {
            MediaContent content = new MediaContent(null, new ArrayList<>());
            for (int k = u.unpackMapHeader(); k > 0; k--) {
                String key = u.unpackString();
                if (key.equals("media")) {
                    content.media = media(u);
                } else if (key.equals("images")) {
                    for (int n = u.unpackArrayHeader(); n > 0; n--) {
                        content.images.add(image(u));
                    }
                } else {
                    throw new IOException("unknown key " + key);
                }
            }
            return content;
        }
    }

    private static Media media(MessageUnpacker u) throws IOException {
        Media m = new Media();
        for (int k = u.unpackMapHeader(); k > 0; k--) {
            String key = u.unpackString();
            switch (key) {
                case "uri": m.uri = text(u); break;
                case "title": m.title = text(u); break;
                case "width": m.width = int32(u); break;
                case "height": m.height = int32(u); break;
                case "format": m.format = text(u); break;
                case "duration": m.duration = int64(u); break;
                case "size": m.size = int64(u); break;
                case "bitrate": m.bitrate = int32(u); break;
                case "persons":
                    int n = u.unpackArrayHeader();
                    List<String> persons = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        persons.add(u.unpackString());
                    }
                    m.persons = persons;
                    break;
                case "player":
                    String player = text(u);
                    m.player = player == null ? null : Media.Player.valueOf(player);
                    break;
                case "copyright": m.copyright = text(u); break;
                default: throw new IOException("unknown media key " + key);
            }
        }
        return m;
    }

    private static Image image(MessageUnpacker u) throws IOException {
        Image i = new Image();
        for (int k = u.unpackMapHeader(); k > 0; k--) {
            String key = u.unpackString();
            switch (key) {
                case "uri": i.uri = text(u); break;
                case "title": i.title = text(u); break;
                case "width": i.width = int32(u); break;
                case "height": i.height = int32(u); break;
                case "size":
                    String size = text(u);
                    i.size = size == null ? null : Image.Size.valueOf(size);
                    break;
                default: throw new IOException("unknown image key " + key);
            }
        }
        return i;
    }

    private static String text(MessageUnpacker u) throws IOException {
        return u.tryUnpackNil() ? null : u.unpackString();
    }

    private static Integer int32(MessageUnpacker u) throws IOException {
        return u.tryUnpackNil() ? null : u.unpackInt();
    }

    private static Long int64(MessageUnpacker u) throws IOException {
        return u.tryUnpackNil() ? null : u.unpackLong();
    }
}

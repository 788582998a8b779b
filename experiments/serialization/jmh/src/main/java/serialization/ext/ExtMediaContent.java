package serialization.ext;

import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.ArrayList;
import java.util.List;

import org.openjdk.jmh.infra.Blackhole;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * MediaContent that writes its own fields (Externalizable): a bit mask of the fields that are set, then
 * each set field with DataOutput's writeUTF/writeInt/writeLong, the media and images inline (no
 * descriptor per nested object). Java serialization still frames it: magic, one class descriptor.
 */
public final class ExtMediaContent implements Externalizable {
    private static final long serialVersionUID = 1L;
    private static final Media.Player[] PLAYERS = Media.Player.values();
    private static final Image.Size[] SIZES = Image.Size.values();

    public String uri;
    public String title;
    public Integer width;
    public Integer height;
    public String format;
    public Long duration;
    public Long size;
    public Integer bitrate;
    public List<String> persons;
    public Media.Player player;
    public String copyright;
    public List<ExtImage> images;

    /** Externalizable needs a public no-argument constructor. */
    public ExtMediaContent() {
    }

    public static ExtMediaContent fromValue(MediaContent value) {
        ExtMediaContent c = new ExtMediaContent();
        Media m = value.media;
        c.uri = m.uri;
        c.title = m.title;
        c.width = m.width;
        c.height = m.height;
        c.format = m.format;
        c.duration = m.duration;
        c.size = m.size;
        c.bitrate = m.bitrate;
        c.persons = new ArrayList<>(m.persons);
        c.player = m.player;
        c.copyright = m.copyright;
        c.images = new ArrayList<>(value.images.size());
        for (Image i : value.images) {
            c.images.add(new ExtImage(i.uri, i.title, i.width, i.height, i.size));
        }
        return c;
    }

    public MediaContent toValue() {
        List<Image> list = new ArrayList<>();
        for (ExtImage i : images) {
            list.add(new Image(i.uri, i.title, i.width, i.height, i.size));
        }
        return new MediaContent(new Media(uri, title, width, height, format, duration, size, bitrate,
                new ArrayList<>(persons), player, copyright), list);
    }

    public void touch(Blackhole bh) {
        bh.consume(uri);
        bh.consume(title);
        bh.consume(width);
        bh.consume(height);
        bh.consume(format);
        bh.consume(duration);
        bh.consume(size);
        bh.consume(bitrate);
        for (String person : persons) {
            bh.consume(person);
        }
        bh.consume(player);
        bh.consume(copyright);
        for (ExtImage i : images) {
            bh.consume(i.uri);
            bh.consume(i.title);
            bh.consume(i.width);
            bh.consume(i.height);
            bh.consume(i.size);
        }
    }

    @Override
    public void writeExternal(ObjectOutput out) throws IOException {
        int set = (title != null ? 1 : 0) | (width != null ? 2 : 0) | (height != null ? 4 : 0) | (format != null ? 8 : 0)
                | (duration != null ? 16 : 0) | (size != null ? 32 : 0) | (bitrate != null ? 64 : 0)
                | (player != null ? 128 : 0) | (copyright != null ? 256 : 0);
        out.writeShort(set);
        out.writeUTF(uri);
        if (title != null) {
            out.writeUTF(title);
        }
        if (width != null) {
            out.writeInt(width);
        }
        if (height != null) {
            out.writeInt(height);
        }
        if (format != null) {
            out.writeUTF(format);
        }
        if (duration != null) {
            out.writeLong(duration);
        }
        if (size != null) {
            out.writeLong(size);
        }
        if (bitrate != null) {
            out.writeInt(bitrate);
        }
        out.writeInt(persons.size());
        for (String person : persons) {
            out.writeUTF(person);
        }
        if (player != null) {
            out.writeByte(player.ordinal());
        }
        if (copyright != null) {
            out.writeUTF(copyright);
        }
        out.writeInt(images.size());
        for (ExtImage image : images) {
            int imageSet = (image.title != null ? 1 : 0) | (image.width != null ? 2 : 0) | (image.height != null ? 4 : 0)
                    | (image.size != null ? 8 : 0);
            out.writeByte(imageSet);
            out.writeUTF(image.uri);
            if (image.title != null) {
                out.writeUTF(image.title);
            }
            if (image.width != null) {
                out.writeInt(image.width);
            }
            if (image.height != null) {
                out.writeInt(image.height);
            }
            if (image.size != null) {
                out.writeByte(image.size.ordinal());
            }
        }
    }

    @Override
    public void readExternal(ObjectInput in) throws IOException {
        int set = in.readShort();
        uri = in.readUTF();
        title = (set & 1) != 0 ? in.readUTF() : null;
        width = (set & 2) != 0 ? in.readInt() : null;
        height = (set & 4) != 0 ? in.readInt() : null;
        format = (set & 8) != 0 ? in.readUTF() : null;
        duration = (set & 16) != 0 ? in.readLong() : null;
        size = (set & 32) != 0 ? in.readLong() : null;
        bitrate = (set & 64) != 0 ? in.readInt() : null;
        int count = in.readInt();
        persons = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            persons.add(in.readUTF());
        }
        player = (set & 128) != 0 ? PLAYERS[in.readByte()] : null;
        copyright = (set & 256) != 0 ? in.readUTF() : null;
        count = in.readInt();
        images = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int imageSet = in.readByte();
            String imageUri = in.readUTF();
            images.add(new ExtImage(imageUri, (imageSet & 1) != 0 ? in.readUTF() : null,
                    (imageSet & 2) != 0 ? in.readInt() : null, (imageSet & 4) != 0 ? in.readInt() : null,
                    (imageSet & 8) != 0 ? SIZES[in.readByte()] : null));
        }
    }

    /** An image of ExtMediaContent; written inline by its writeExternal, so not Serializable itself. */
    public static final class ExtImage {
        public final String uri;
        public final String title;
        public final Integer width;
        public final Integer height;
        public final Image.Size size;

        ExtImage(String uri, String title, Integer width, Integer height, Image.Size size) {
            this.uri = uri;
            this.title = title;
            this.width = width;
            this.height = height;
            this.size = size;
        }
    }
}

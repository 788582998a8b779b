package serialization.now;

import java.util.ArrayList;
import java.util.List;

import org.apache.fory.annotation.Nullable;
import org.apache.fory.config.CompatibleMode;
import org.openjdk.jmh.infra.Blackhole;

import serialization.bench.Bench;
import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * Apache Fory in its cross-language (xlang) mode, compatible (the default of the Java builder in xlang mode and of
 * pyfory): the format that Fory's other languages read. pyfory's {@code pyfory_xlang} serializer
 * (python/serializers.py) declares the same structs under the same names, and tests/test_serialization_crosslang.py
 * checks that each side decodes the other's bytes.
 *
 * <p>Its own classes, not the plain ones: in xlang mode a struct field is non-nullable unless its type is annotated
 * {@code @Nullable} (or is an Optional), and the shared model carries no Fory annotation. With the plain classes a
 * null String field fails to serialize (a NullPointerException on JDK 25; on JDK 17 Fory 1.6.0's unsafe string access
 * crashes the JVM with SIGSEGV), so the unset fields are declared nullable here, as a user of xlang must. Fields:
 * uri non-null; every other scalar and enum nullable; persons and images non-null lists whose elements Java
 * declares nullable (which pyfory's side declares as {@code List[Optional[...]]} to write the same type metadata).
 */
public class ForyXlang extends Bench<ForyXlang.XMediaContent> {
    /** The namespace both languages register the structs and enums under. */
    public static final String NAMESPACE = "versus.serialization";

    /** MediaContent as an xlang struct. */
    public static final class XMediaContent {
        public XMedia media;
        public List<XImage> images;
    }

    /** Media as an xlang struct: Integer is Fory's varint32, Long its varint64. */
    public static final class XMedia {
        public String uri;
        public @Nullable String title;
        public @Nullable Integer width;
        public @Nullable Integer height;
        public @Nullable String format;
        public @Nullable Long duration;
        public @Nullable Long size;
        public @Nullable Integer bitrate;
        public List<String> persons;
        public Media.@Nullable Player player;
        public @Nullable String copyright;
    }

    /** Image as an xlang struct. */
    public static final class XImage {
        public String uri;
        public @Nullable String title;
        public @Nullable Integer width;
        public @Nullable Integer height;
        public Image.@Nullable Size size;
    }

    private final org.apache.fory.Fory fory;

    public ForyXlang() {
        this(CompatibleMode.COMPATIBLE);
    }

    ForyXlang(CompatibleMode mode) {
        fory = org.apache.fory.Fory.builder().withXlang(true).requireClassRegistration(true).withCompatibleMode(mode)
                .build();
        fory.register(XMediaContent.class, NAMESPACE, "MediaContent");
        fory.register(XMedia.class, NAMESPACE, "Media");
        fory.register(XImage.class, NAMESPACE, "Image");
        fory.register(Media.Player.class, NAMESPACE, "Player");
        fory.register(Image.Size.class, NAMESPACE, "Size");
    }

    @Override
    protected XMediaContent build(MediaContent value) {
        Media m = value.media;
        XMedia media = new XMedia();
        media.uri = m.uri;
        media.title = m.title;
        media.width = m.width;
        media.height = m.height;
        media.format = m.format;
        media.duration = m.duration;
        media.size = m.size;
        media.bitrate = m.bitrate;
        media.persons = new ArrayList<>(m.persons);
        media.player = m.player;
        media.copyright = m.copyright;
        List<XImage> images = new ArrayList<>(value.images.size());
        for (Image i : value.images) {
            XImage image = new XImage();
            image.uri = i.uri;
            image.title = i.title;
            image.width = i.width;
            image.height = i.height;
            image.size = i.size;
            images.add(image);
        }
        XMediaContent content = new XMediaContent();
        content.media = media;
        content.images = images;
        return content;
    }

    @Override
    protected byte[] encode(XMediaContent object) {
        return fory.serialize(object);
    }

    @Override
    protected XMediaContent decode(byte[] bytes) {
        return (XMediaContent) fory.deserialize(bytes);
    }

    @Override
    protected void touch(XMediaContent content, Blackhole bh) {
        XMedia m = content.media;
        bh.consume(m.uri);
        bh.consume(m.title);
        bh.consume(m.width);
        bh.consume(m.height);
        bh.consume(m.format);
        bh.consume(m.duration);
        bh.consume(m.size);
        bh.consume(m.bitrate);
        for (String person : m.persons) {
            bh.consume(person);
        }
        bh.consume(m.player);
        bh.consume(m.copyright);
        for (XImage i : content.images) {
            bh.consume(i.uri);
            bh.consume(i.title);
            bh.consume(i.width);
            bh.consume(i.height);
            bh.consume(i.size);
        }
    }

    @Override
    protected MediaContent toValue(XMediaContent content) {
        XMedia m = content.media;
        List<Image> images = new ArrayList<>(content.images.size());
        for (XImage i : content.images) {
            images.add(new Image(i.uri, i.title, i.width, i.height, i.size));
        }
        return new MediaContent(new Media(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.bitrate,
                m.persons, m.player, m.copyright), images);
    }
}

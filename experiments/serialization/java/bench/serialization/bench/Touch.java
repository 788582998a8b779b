package serialization.bench;

import org.openjdk.jmh.infra.Blackhole;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/** "Touch every field" of the plain Java objects: each field's value goes to the blackhole. */
public final class Touch {
    private Touch() {
    }

    public static void value(MediaContent content, Blackhole bh) {
        Media m = content.media;
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
        for (Image i : content.images) {
            bh.consume(i.uri);
            bh.consume(i.title);
            bh.consume(i.width);
            bh.consume(i.height);
            bh.consume(i.size);
        }
    }

    /** A deep copy: the plain objects' "create" (new objects for every level; strings and numbers shared). */
    public static MediaContent copy(MediaContent value) {
        Media m = value.media;
        java.util.List<Image> images = new java.util.ArrayList<>(value.images.size());
        for (Image i : value.images) {
            images.add(new Image(i.uri, i.title, i.width, i.height, i.size));
        }
        return new MediaContent(new Media(m.uri, m.title, m.width, m.height, m.format, m.duration, m.size, m.bitrate,
                new java.util.ArrayList<>(m.persons), m.player, m.copyright), images);
    }
}

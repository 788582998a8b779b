package serialization.model;

import java.util.List;
import java.util.Objects;

/** Where two values differ: the first differing field, for check lines a person can act on. */
public final class Diff {
    private Diff() {
    }

    /** null if equal, else e.g. {@code media.persons[1]: expected "Steve Jobs스", got "Steve Jobs?"}. */
    public static String first(MediaContent expected, MediaContent actual) {
        if (actual == null) {
            return "the whole value: expected a MediaContent, got null";
        }
        String media = media(expected.media, actual.media);
        if (media != null) {
            return media;
        }
        if (expected.images == null || actual.images == null) {
            return Objects.equals(expected.images, actual.images) ? null : field("images", expected.images, actual.images);
        }
        for (int i = 0; i < Math.max(expected.images.size(), actual.images.size()); i++) {
            if (i >= expected.images.size() || i >= actual.images.size()) {
                return "images: expected " + expected.images.size() + " images, got " + actual.images.size();
            }
            String image = image("images[" + i + "]", expected.images.get(i), actual.images.get(i));
            if (image != null) {
                return image;
            }
        }
        return expected.equals(actual) ? null : "the values differ in a way Diff does not name";
    }

    private static String media(Media e, Media a) {
        if (e == null || a == null) {
            return e == a ? null : field("media", e, a);
        }
        String d = null;
        d = d != null ? d : field("media.uri", e.uri, a.uri);
        d = d != null ? d : field("media.title", e.title, a.title);
        d = d != null ? d : field("media.width", e.width, a.width);
        d = d != null ? d : field("media.height", e.height, a.height);
        d = d != null ? d : field("media.format", e.format, a.format);
        d = d != null ? d : field("media.duration", e.duration, a.duration);
        d = d != null ? d : field("media.size", e.size, a.size);
        d = d != null ? d : field("media.bitrate", e.bitrate, a.bitrate);
        d = d != null ? d : list("media.persons", e.persons, a.persons);
        d = d != null ? d : field("media.player", e.player, a.player);
        d = d != null ? d : field("media.copyright", e.copyright, a.copyright);
        return d;
    }

    private static String image(String where, Image e, Image a) {
        if (e == null || a == null) {
            return e == a ? null : field(where, e, a);
        }
        String d = null;
        d = d != null ? d : field(where + ".uri", e.uri, a.uri);
        d = d != null ? d : field(where + ".title", e.title, a.title);
        d = d != null ? d : field(where + ".width", e.width, a.width);
        d = d != null ? d : field(where + ".height", e.height, a.height);
        d = d != null ? d : field(where + ".size", e.size, a.size);
        return d;
    }

    private static String list(String where, List<String> e, List<String> a) {
        if (e == null || a == null || e.size() != a.size()) {
            return Objects.equals(e, a) ? null : field(where, e, a);
        }
        for (int i = 0; i < e.size(); i++) {
            String d = field(where + "[" + i + "]", e.get(i), a.get(i));
            if (d != null) {
                return d;
            }
        }
        return null;
    }

    private static String field(String where, Object e, Object a) {
        if (Objects.equals(e, a)) {
            return null;
        }
        return where + ": expected " + show(e) + ", got " + show(a);
    }

    private static String show(Object value) {
        return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
    }
}

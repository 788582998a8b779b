package serialization.model;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The values every serializer must carry: experiments/serialization/data/media-NAME.json, read into
 * {@link MediaContent}. The loader is strict (every key present, no unknown key, integers in range,
 * enum names known), so a typo in a data file is an error here rather than a quietly different value.
 */
public final class Values {
    /** The four values a timed loop may use, in the order reports list them: jvm-serializers' standard value first. */
    public static final List<String> NAMES = Collections.unmodifiableList(Arrays.asList("standard", "2008", "unicode", "large"));

    /**
     * Every value a serializer must round-trip before it is timed: the four above and two harder ones that
     * no timed loop uses. sparse: unset title, format, duration, bitrate, player and image size beside set
     * zeros and empty strings (a serializer that fills in defaults, or drops a zero, fails); empty: no
     * persons and no images (2008's Scala classes lost their lists; a serializer that turns an empty list
     * into none fails).
     */
    public static final List<String> CHECKED = Collections.unmodifiableList(
            Arrays.asList("standard", "2008", "unicode", "large", "sparse", "empty"));

    private static final Set<String> MEDIA_KEYS = new HashSet<>(Arrays.asList(
            "uri", "title", "width", "height", "format", "duration", "size", "bitrate", "persons", "player", "copyright"));
    private static final Set<String> IMAGE_KEYS = new HashSet<>(Arrays.asList("uri", "title", "width", "height", "size"));

    private Values() {
    }

    /** The value called NAME (one of {@link #CHECKED}), from the data folder {@link #dataFolder()} finds. */
    public static MediaContent named(String name) {
        if (!CHECKED.contains(name)) {
            throw new IllegalArgumentException("no value named '" + name + "': use one of " + CHECKED);
        }
        return load(dataFolder().resolve("media-" + name + ".json"));
    }

    /**
     * The data folder: the system property serialization.data if set, else data/ or
     * experiments/serialization/data/ under the working folder or one of its parents (the harness runs
     * benchmarks in the experiment's folder; tests may run from the repository's root).
     */
    public static Path dataFolder() {
        String property = System.getProperty("serialization.data");
        if (property != null) {
            return Paths.get(property);
        }
        for (Path folder = Paths.get("").toAbsolutePath(); folder != null; folder = folder.getParent()) {
            for (Path candidate : new Path[] {folder.resolve("data"), folder.resolve("experiments/serialization/data")}) {
                if (Files.isRegularFile(candidate.resolve("media-standard.json"))) {
                    return candidate;
                }
            }
        }
        throw new IllegalStateException("cannot find experiments/serialization/data from " + Paths.get("").toAbsolutePath()
                + ": run in the experiment's folder or set -Dserialization.data=PATH");
    }

    public static MediaContent load(Path file) {
        String text;
        try {
            text = new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the value " + file + ": " + e.getMessage(), e);
        }
        try {
            return fromJson(Json.parse(text));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }

    /** A value from parsed JSON (what {@link Json#parse} returns). */
    public static MediaContent fromJson(Object json) {
        Map<String, Object> root = object(json, "the value", new HashSet<>(Arrays.asList("media", "images")));
        Map<String, Object> m = object(root.get("media"), "media", MEDIA_KEYS);
        List<String> persons = new ArrayList<>();
        for (Object person : list(m.get("persons"), "media.persons")) {
            persons.add(string(person, "media.persons[]", false));
        }
        String player = string(m.get("player"), "media.player", true);
        Media media = new Media(string(m.get("uri"), "media.uri", false), string(m.get("title"), "media.title", true),
                int32(m.get("width"), "media.width"), int32(m.get("height"), "media.height"),
                string(m.get("format"), "media.format", true), int64(m.get("duration"), "media.duration"),
                int64(m.get("size"), "media.size"), int32(m.get("bitrate"), "media.bitrate"), persons,
                player == null ? null : Media.Player.valueOf(player), string(m.get("copyright"), "media.copyright", true));
        List<Image> images = new ArrayList<>();
        int index = 0;
        for (Object item : list(root.get("images"), "images")) {
            String where = "images[" + index++ + "]";
            Map<String, Object> i = object(item, where, IMAGE_KEYS);
            String size = string(i.get("size"), where + ".size", true);
            images.add(new Image(string(i.get("uri"), where + ".uri", false), string(i.get("title"), where + ".title", true),
                    int32(i.get("width"), where + ".width"), int32(i.get("height"), where + ".height"),
                    size == null ? null : Image.Size.valueOf(size)));
        }
        return new MediaContent(media, images);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object json, String where, Set<String> keys) {
        if (!(json instanceof Map)) {
            throw new IllegalArgumentException(where + " must be an object");
        }
        Map<String, Object> map = (Map<String, Object>) json;
        if (!map.keySet().equals(keys)) {
            throw new IllegalArgumentException(where + " must have exactly the keys " + keys + ", has " + map.keySet());
        }
        return map;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object json, String where) {
        if (!(json instanceof List)) {
            throw new IllegalArgumentException(where + " must be an array");
        }
        return (List<Object>) json;
    }

    private static String string(Object json, String where, boolean nullable) {
        if (json == null && nullable) {
            return null;
        }
        if (!(json instanceof String)) {
            throw new IllegalArgumentException(where + " must be a string" + (nullable ? " or null" : ""));
        }
        return (String) json;
    }

    private static Integer int32(Object json, String where) {
        Long value = int64(json, where);
        if (value != null && (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException(where + " must fit in 32 bits");
        }
        return value == null ? null : Integer.valueOf(value.intValue());
    }

    private static Long int64(Object json, String where) {
        if (json != null && !(json instanceof Long)) {
            throw new IllegalArgumentException(where + " must be an integer or null");
        }
        return (Long) json;
    }
}

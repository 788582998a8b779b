package serializers.java;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/** 2008's plain Java MediaContent in the shape Java serialization sees (see {@link Image}). */
public class MediaContent implements Serializable {
    private static final long serialVersionUID = 1L;

    List<Image> _images;
    Media _media;

    /** Whether of() interns strings: 2008's value was made of string literals, one object per distinct text. */
    private static boolean literals;

    /**
     * The value as 2008's classes held it. With literals, equal strings are one object, as 2008's code built
     * the value from literals ("Javaone Keynote" three times): Java serialization writes such a string once
     * and a 5-byte back-reference after.
     */
    public static synchronized MediaContent of(serialization.model.MediaContent value, boolean asLiterals) {
        literals = asLiterals;
        MediaContent content = new MediaContent();
        content._media = new Media(value.media);
        if (!value.images.isEmpty()) {
            content._images = new ArrayList<>(); // 2008 made the list on the first addImage
            for (serialization.model.Image image : value.images) {
                content._images.add(new Image(image));
            }
        }
        return content;
    }

    static String text(String text) {
        return text != null && literals ? text.intern() : text;
    }

    static List<String> texts(List<String> texts) {
        List<String> out = new ArrayList<>();
        for (String text : texts) {
            out.add(text(text));
        }
        return out;
    }
}

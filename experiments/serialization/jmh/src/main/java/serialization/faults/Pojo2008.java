package serialization.faults;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The shape of 2008's plain Java classes (serializers.java.*): primitive int and long fields (unset = 0),
 * so Java serialization writes no boxed Integer or Long objects. Only for Faults2008's size table.
 */
final class Pojo2008 {
    private Pojo2008() {
    }

    enum Player { JAVA, FLASH }

    enum Size { SMALL, LARGE }

    static final class Image implements Serializable {
        private static final long serialVersionUID = 1L;
        String uri;
        String title;
        int width;
        int height;
        Size size;
    }

    static final class Media implements Serializable {
        private static final long serialVersionUID = 1L;
        String uri;
        String title;
        int width;
        int height;
        String format;
        long duration;
        long size;
        int bitrate;
        List<String> persons = new ArrayList<>();
        Player player;
        String copyright;
    }

    static final class MediaContent implements Serializable {
        private static final long serialVersionUID = 1L;
        List<Image> images = new ArrayList<>();
        Media media;
    }

    static MediaContent of(serialization.model.MediaContent value) {
        MediaContent content = new MediaContent();
        serialization.model.Media v = value.media;
        Media m = new Media();
        m.uri = v.uri;
        m.title = v.title;
        m.width = v.width == null ? 0 : v.width;
        m.height = v.height == null ? 0 : v.height;
        m.format = v.format;
        m.duration = v.duration == null ? 0 : v.duration;
        m.size = v.size == null ? 0 : v.size;
        m.bitrate = v.bitrate == null ? 0 : v.bitrate;
        m.persons.addAll(v.persons);
        m.player = v.player == null ? null : Player.valueOf(v.player.name());
        m.copyright = v.copyright;
        content.media = m;
        for (serialization.model.Image i : value.images) {
            Image image = new Image();
            image.uri = i.uri;
            image.title = i.title;
            image.width = i.width == null ? 0 : i.width;
            image.height = i.height == null ? 0 : i.height;
            image.size = i.size == null ? null : Size.valueOf(i.size.name());
            content.images.add(image);
        }
        return content;
    }
}

package serialization.now;

import serialization.model.Image;
import serialization.model.MediaContent;

/**
 * A deliberately lossy serializer for the tests (tests/test_serialization_jvm.py): Java serialization whose
 * reader fills an unset title, format, duration, bitrate, player and image size with its type's default
 * ("", 0, JAVA, SMALL), as a format without presence would. The four timed values set all of these, so it
 * passes them; the sparse value must catch it. Not in Catalog, never in experiment.toml.
 */
public class FillsDefaults extends Java {
    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        MediaContent content = super.decode(bytes);
        serialization.model.Media m = content.media;
        m.title = m.title == null ? "" : m.title;
        m.format = m.format == null ? "" : m.format;
        m.duration = m.duration == null ? Long.valueOf(0) : m.duration;
        m.bitrate = m.bitrate == null ? Integer.valueOf(0) : m.bitrate;
        m.player = m.player == null ? serialization.model.Media.Player.JAVA : m.player;
        for (Image i : content.images) {
            i.size = i.size == null ? Image.Size.SMALL : i.size;
        }
        return content;
    }
}

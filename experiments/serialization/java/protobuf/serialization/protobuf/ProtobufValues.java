package serialization.protobuf;

import java.util.ArrayList;
import java.util.List;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * Protobuf's generated objects (schema/media.proto, optimize_for = SPEED) from a value and back. The
 * same source compiles against the code of protoc 2.5.0 (protobuf-java 2.5.0) and protoc 4.x: both
 * generate these builder methods. The serialization projects' builds write a CODE_SIZE copy of this file
 * for the CODE_SIZE classes (schema/generate.xml renames the classes it names).
 */
public final class ProtobufValues {
    private ProtobufValues() {
    }

    /** What a user writes to fill the generated builders ("create"); unset fields stay unset. */
    public static MediaProtos.MediaContent fromValue(MediaContent value) {
        MediaProtos.MediaContent.Builder content = MediaProtos.MediaContent.newBuilder();
        for (Image v : value.images) {
            MediaProtos.Image.Builder image = MediaProtos.Image.newBuilder().setUri(v.uri);
            if (v.title != null) {
                image.setTitle(v.title);
            }
            if (v.width != null) {
                image.setWidth(v.width);
            }
            if (v.height != null) {
                image.setHeight(v.height);
            }
            if (v.size != null) {
                image.setSize(v.size == Image.Size.SMALL ? MediaProtos.Image.Size.SMALL : MediaProtos.Image.Size.LARGE);
            }
            content.addImage(image);
        }
        Media m = value.media;
        MediaProtos.Media.Builder media = MediaProtos.Media.newBuilder().setUri(m.uri);
        if (m.title != null) {
            media.setTitle(m.title);
        }
        if (m.width != null) {
            media.setWidth(m.width);
        }
        if (m.height != null) {
            media.setHeight(m.height);
        }
        if (m.format != null) {
            media.setFormat(m.format);
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
            media.addPerson(person);
        }
        if (m.player != null) {
            media.setPlayer(m.player == Media.Player.JAVA ? MediaProtos.Media.Player.JAVA : MediaProtos.Media.Player.FLASH);
        }
        if (m.copyright != null) {
            media.setCopyright(m.copyright);
        }
        return content.setMedia(media).build();
    }

    /** The value a protobuf object carries (for checks and cross-language decoding). */
    public static MediaContent toValue(MediaProtos.MediaContent content) {
        List<Image> images = new ArrayList<>();
        for (MediaProtos.Image i : content.getImageList()) {
            images.add(new Image(i.getUri(), i.hasTitle() ? i.getTitle() : null, i.hasWidth() ? i.getWidth() : null,
                    i.hasHeight() ? i.getHeight() : null, i.hasSize() ? Image.Size.valueOf(i.getSize().name()) : null));
        }
        if (!content.hasMedia()) {
            return new MediaContent(null, images);
        }
        MediaProtos.Media m = content.getMedia();
        return new MediaContent(new Media(m.getUri(), m.hasTitle() ? m.getTitle() : null, m.hasWidth() ? m.getWidth() : null,
                m.hasHeight() ? m.getHeight() : null, m.hasFormat() ? m.getFormat() : null,
                m.hasDuration() ? m.getDuration() : null, m.hasSize() ? m.getSize() : null,
                m.hasBitrate() ? m.getBitrate() : null, new ArrayList<>(m.getPersonList()),
                m.hasPlayer() ? Media.Player.valueOf(m.getPlayer().name()) : null, m.hasCopyright() ? m.getCopyright() : null),
                images);
    }
}

package serialization.now;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import com.google.flatbuffers.FlatBufferBuilder;

import serialization.model.Image;
import serialization.model.Media;
import serialization.model.MediaContent;

/**
 * FlatBuffers with the classes Debian's flatc 2.0.8 generates from schema/media.fbs at build time
 * (schema/generate.xml), on flatbuffers-java 2.0.8 (the runtime that code is for). A FlatBuffer is built
 * from the plain objects (serialize; there is no separate object to create) and read in place: deserialize
 * copies every field out into the plain objects (the same work as the others: a full object, every field
 * read); read_two reads two strings in place.
 *
 * <p>The builder forces defaults: flatc 2.0.8's Java adds an optional scalar ({@code width: int = null})
 * with {@code addInt(slot, x, 0)}, which leaves out a 0 unless defaults are forced, so a set width of 0 would
 * read back as unset (the sparse value showed it). Unset fields are simply never added.
 */
public class FlatBuffers extends Pojo {
    private final FlatBufferBuilder builder = new FlatBufferBuilder(1024);

    public FlatBuffers() {
        builder.forceDefaults(true);
    }

    @Override
    protected byte[] encode(MediaContent content) {
        FlatBufferBuilder b = builder;
        b.clear();
        int[] images = new int[content.images.size()];
        for (int k = 0; k < images.length; k++) {
            Image i = content.images.get(k);
            int uri = b.createString(i.uri);
            int title = i.title == null ? 0 : b.createString(i.title);
            serialization.flatbuffers.Image.startImage(b);
            serialization.flatbuffers.Image.addUri(b, uri);
            if (i.title != null) {
                serialization.flatbuffers.Image.addTitle(b, title);
            }
            if (i.width != null) {
                serialization.flatbuffers.Image.addWidth(b, i.width);
            }
            if (i.height != null) {
                serialization.flatbuffers.Image.addHeight(b, i.height);
            }
            if (i.size != null) {
                serialization.flatbuffers.Image.addSize(b, (byte) i.size.ordinal());
            }
            images[k] = serialization.flatbuffers.Image.endImage(b);
        }
        int imageVector = serialization.flatbuffers.MediaContent.createImageVector(b, images);
        Media m = content.media;
        int uri = b.createString(m.uri);
        int title = m.title == null ? 0 : b.createString(m.title);
        int format = m.format == null ? 0 : b.createString(m.format);
        int[] persons = new int[m.persons.size()];
        for (int k = 0; k < persons.length; k++) {
            persons[k] = b.createString(m.persons.get(k));
        }
        int personVector = serialization.flatbuffers.Media.createPersonVector(b, persons);
        int copyright = m.copyright == null ? 0 : b.createString(m.copyright);
        serialization.flatbuffers.Media.startMedia(b);
        serialization.flatbuffers.Media.addUri(b, uri);
        if (m.title != null) {
            serialization.flatbuffers.Media.addTitle(b, title);
        }
        if (m.width != null) {
            serialization.flatbuffers.Media.addWidth(b, m.width);
        }
        if (m.height != null) {
            serialization.flatbuffers.Media.addHeight(b, m.height);
        }
        if (m.format != null) {
            serialization.flatbuffers.Media.addFormat(b, format);
        }
        if (m.duration != null) {
            serialization.flatbuffers.Media.addDuration(b, m.duration);
        }
        if (m.size != null) {
            serialization.flatbuffers.Media.addSize(b, m.size);
        }
        if (m.bitrate != null) {
            serialization.flatbuffers.Media.addBitrate(b, m.bitrate);
        }
        serialization.flatbuffers.Media.addPerson(b, personVector);
        if (m.player != null) {
            serialization.flatbuffers.Media.addPlayer(b, (byte) m.player.ordinal());
        }
        if (m.copyright != null) {
            serialization.flatbuffers.Media.addCopyright(b, copyright);
        }
        int media = serialization.flatbuffers.Media.endMedia(b);
        b.finish(serialization.flatbuffers.MediaContent.createMediaContent(b, imageVector, media));
        return b.sizedByteArray();
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        serialization.flatbuffers.MediaContent root =
                serialization.flatbuffers.MediaContent.getRootAsMediaContent(ByteBuffer.wrap(bytes));
        int count = root.imageLength();
        List<Image> images = new ArrayList<>(count);
        serialization.flatbuffers.Image i = new serialization.flatbuffers.Image();
        for (int k = 0; k < count; k++) {
            root.image(i, k);
            images.add(new Image(i.uri(), i.title(), i.hasWidth() ? i.width() : null, i.hasHeight() ? i.height() : null,
                    i.hasSize() ? Image.Size.values()[i.size()] : null));
        }
        serialization.flatbuffers.Media m = root.media();
        List<String> persons = new ArrayList<>(m.personLength());
        for (int k = 0; k < m.personLength(); k++) {
            persons.add(m.person(k));
        }
        return new MediaContent(new Media(m.uri(), m.title(), m.hasWidth() ? m.width() : null,
                m.hasHeight() ? m.height() : null, m.format(), m.hasDuration() ? m.duration() : null,
                m.hasSize() ? m.size() : null, m.hasBitrate() ? m.bitrate() : null, persons,
                m.hasPlayer() ? Media.Player.values()[m.player()] : null, m.copyright()), images);
    }

    @Override
    protected String[] readTwo(byte[] bytes) {
        serialization.flatbuffers.MediaContent root =
                serialization.flatbuffers.MediaContent.getRootAsMediaContent(ByteBuffer.wrap(bytes));
        return new String[] {root.media().uri(), root.image(0).uri()};
    }
}

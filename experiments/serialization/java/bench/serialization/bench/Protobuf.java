package serialization.bench;

import org.openjdk.jmh.infra.Blackhole;

import serialization.model.MediaContent;
import serialization.protobuf.MediaProtos;
import serialization.protobuf.ProtobufValues;

/**
 * Protobuf with optimize_for = SPEED (schema/media.proto): generated code, toByteArray and parseFrom.
 * The build also compiles this file as ProtobufCodeSize, for optimize_for = CODE_SIZE (schema/codesize.xml
 * renames MediaProtos and ProtobufValues in a copy): one source for both.
 */
public class Protobuf extends Bench<MediaProtos.MediaContent> {
    @Override
    protected MediaProtos.MediaContent build(MediaContent value) {
        return ProtobufValues.fromValue(value);
    }

    @Override
    protected byte[] encode(MediaProtos.MediaContent object) {
        return object.toByteArray();
    }

    @Override
    protected MediaProtos.MediaContent decode(byte[] bytes) throws Exception {
        return MediaProtos.MediaContent.parseFrom(bytes);
    }

    @Override
    protected void touch(MediaProtos.MediaContent content, Blackhole bh) {
        // The getters decode strings that parseFrom left as bytes; has* tells set from unset.
        MediaProtos.Media m = content.getMedia();
        bh.consume(m.getUri());
        bh.consume(m.hasTitle() ? m.getTitle() : null);
        bh.consume(m.hasWidth() ? m.getWidth() : -1);
        bh.consume(m.hasHeight() ? m.getHeight() : -1);
        bh.consume(m.hasFormat() ? m.getFormat() : null);
        bh.consume(m.hasDuration() ? m.getDuration() : -1);
        bh.consume(m.hasSize() ? m.getSize() : -1);
        bh.consume(m.hasBitrate() ? m.getBitrate() : -1);
        for (int i = 0; i < m.getPersonCount(); i++) {
            bh.consume(m.getPerson(i));
        }
        bh.consume(m.hasPlayer() ? m.getPlayer() : null);
        bh.consume(m.hasCopyright() ? m.getCopyright() : null);
        for (MediaProtos.Image i : content.getImageList()) {
            bh.consume(i.getUri());
            bh.consume(i.hasTitle() ? i.getTitle() : null);
            bh.consume(i.hasWidth() ? i.getWidth() : -1);
            bh.consume(i.hasHeight() ? i.getHeight() : -1);
            bh.consume(i.hasSize() ? i.getSize() : null);
        }
    }

    @Override
    protected MediaContent toValue(MediaProtos.MediaContent object) {
        return ProtobufValues.toValue(object);
    }

    /** A message that was serialized has its size memoized (and in 2.x its strings' UTF-8 bytes). */
    @Override
    public String serializedBefore(MediaProtos.MediaContent object) {
        return Memo.of(object);
    }

    /** Parse, then decode only the two strings asked for. */
    @Override
    protected String[] readTwo(byte[] bytes) throws Exception {
        MediaProtos.MediaContent content = MediaProtos.MediaContent.parseFrom(bytes);
        return new String[] {content.getMedia().getUri(), content.getImage(0).getUri()};
    }
}

package serialization.bench;

import org.openjdk.jmh.infra.Blackhole;

import serialization.model.MediaContent;
import serialization.protobuf.codesize.MediaCodeSizeProtos;
import serialization.protobuf.codesize.ProtobufCodeSizeValues;

/** Protobuf with optimize_for = CODE_SIZE (schema/media_codesize.proto): parsing and serializing by reflection, as 2008's default. */
public class ProtobufCodeSize extends Bench<MediaCodeSizeProtos.MediaContent> {
    @Override
    protected MediaCodeSizeProtos.MediaContent build(MediaContent value) {
        return ProtobufCodeSizeValues.fromValue(value);
    }

    @Override
    protected byte[] encode(MediaCodeSizeProtos.MediaContent object) {
        return object.toByteArray();
    }

    @Override
    protected MediaCodeSizeProtos.MediaContent decode(byte[] bytes) throws Exception {
        return MediaCodeSizeProtos.MediaContent.parseFrom(bytes);
    }

    @Override
    protected void touch(MediaCodeSizeProtos.MediaContent content, Blackhole bh) {
        // The getters decode strings that parseFrom left as bytes; has* tells set from unset.
        MediaCodeSizeProtos.Media m = content.getMedia();
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
        for (MediaCodeSizeProtos.Image i : content.getImageList()) {
            bh.consume(i.getUri());
            bh.consume(i.hasTitle() ? i.getTitle() : null);
            bh.consume(i.hasWidth() ? i.getWidth() : -1);
            bh.consume(i.hasHeight() ? i.getHeight() : -1);
            bh.consume(i.hasSize() ? i.getSize() : null);
        }
    }

    @Override
    protected MediaContent toValue(MediaCodeSizeProtos.MediaContent object) {
        return ProtobufCodeSizeValues.toValue(object);
    }

    /** Parse, then decode only the two strings asked for. */
    @Override
    protected String[] readTwo(byte[] bytes) throws Exception {
        MediaCodeSizeProtos.MediaContent content = MediaCodeSizeProtos.MediaContent.parseFrom(bytes);
        return new String[] {content.getMedia().getUri(), content.getImage(0).getUri()};
    }
}

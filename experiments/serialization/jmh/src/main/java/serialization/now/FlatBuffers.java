package serialization.now;

import java.nio.ByteBuffer;

import com.google.flatbuffers.FlatBufferBuilder;

import serialization.flatbuffers.FbMediaContent;
import serialization.model.MediaContent;

/**
 * FlatBuffers (schema/media.fbs, accessors written by hand in serialization.flatbuffers). A FlatBuffer
 * is built from the plain objects (serialize; there is no separate object to create) and read in
 * place: deserialize copies every field out into the plain objects (the same work as the others:
 * a full object, every field read); read_two reads two strings in place.
 */
public class FlatBuffers extends Pojo {
    private final FlatBufferBuilder builder = new FlatBufferBuilder(1024);

    @Override
    protected byte[] encode(MediaContent object) {
        builder.clear();
        builder.finish(FbMediaContent.create(builder, object));
        return builder.sizedByteArray();
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        return FbMediaContent.root(ByteBuffer.wrap(bytes)).toValue();
    }

    @Override
    protected String[] readTwo(byte[] bytes) {
        FbMediaContent root = FbMediaContent.root(ByteBuffer.wrap(bytes));
        return new String[] {root.media().uri(), root.image(0).uri()};
    }
}

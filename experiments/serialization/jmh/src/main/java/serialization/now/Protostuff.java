package serialization.now;

import java.util.ArrayList;

import io.protostuff.LinkedBuffer;
import io.protostuff.ProtostuffIOUtil;
import io.protostuff.Schema;
import io.protostuff.runtime.RuntimeSchema;

import serialization.model.MediaContent;

/**
 * Protostuff with its runtime schema of the plain objects (protobuf's wire format for Java classes), a reused
 * buffer. Like protobuf it writes no empty list, so a list it did not read is empty: decode sets the two
 * lists a value always has (what a program using it must do), as the protobuf and Thrift readers do.
 */
public class Protostuff extends Pojo {
    private final Schema<MediaContent> schema = RuntimeSchema.getSchema(MediaContent.class);
    private final LinkedBuffer buffer = LinkedBuffer.allocate(4096);

    @Override
    protected byte[] encode(MediaContent object) {
        try {
            return ProtostuffIOUtil.toByteArray(object, schema, buffer);
        } finally {
            buffer.clear();
        }
    }

    @Override
    protected MediaContent decode(byte[] bytes) {
        MediaContent content = schema.newMessage();
        ProtostuffIOUtil.mergeFrom(bytes, content, schema);
        if (content.images == null) {
            content.images = new ArrayList<>();
        }
        if (content.media != null && content.media.persons == null) {
            content.media.persons = new ArrayList<>();
        }
        return content;
    }
}

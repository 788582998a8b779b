package serialization.flatbuffers;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.flatbuffers.Table;

import serialization.model.Image;
import serialization.model.MediaContent;

/** schema/media.fbs's root table MediaContent, by hand: image (slot 0, a vector of tables), media (slot 1). */
public final class FbMediaContent extends Table {
    public static FbMediaContent root(ByteBuffer buffer) {
        buffer.order(ByteOrder.LITTLE_ENDIAN);
        FbMediaContent root = new FbMediaContent();
        root.__reset(buffer.getInt(buffer.position()) + buffer.position(), buffer);
        return root;
    }

    public FbMedia media() {
        int o = __offset(6);
        return o != 0 ? new FbMedia().init(__indirect(o + bb_pos), bb) : null;
    }

    public int imageCount() {
        int o = __offset(4);
        return o != 0 ? __vector_len(o) : 0;
    }

    public FbImage image(int index) {
        int o = __offset(4);
        return new FbImage().init(__indirect(__vector(o) + index * 4), bb);
    }

    /** Every field copied out into the plain objects. */
    public MediaContent toValue() {
        int count = imageCount();
        List<Image> images = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            images.add(image(i).toValue());
        }
        FbMedia media = media();
        return new MediaContent(media == null ? null : media.toValue(), images);
    }

    public static int create(FlatBufferBuilder b, MediaContent content) {
        int[] images = new int[content.images.size()];
        for (int i = 0; i < images.length; i++) {
            images[i] = FbImage.create(b, content.images.get(i));
        }
        b.startVector(4, images.length, 4);
        for (int i = images.length - 1; i >= 0; i--) {
            b.addOffset(images[i]);
        }
        int vector = b.endVector();
        int media = FbMedia.create(b, content.media);
        b.startTable(2);
        b.addOffset(0, vector, 0);
        b.addOffset(1, media, 0);
        return b.endTable();
    }
}

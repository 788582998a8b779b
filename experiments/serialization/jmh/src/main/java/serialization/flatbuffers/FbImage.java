package serialization.flatbuffers;

import java.nio.ByteBuffer;

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.flatbuffers.Table;

import serialization.model.Image;

/** schema/media.fbs's table Image, by hand: fields in slots 0..4 (vtable offsets 4, 6, …, 12). */
public final class FbImage extends Table {
    private static final Image.Size[] SIZES = Image.Size.values();

    FbImage init(int position, ByteBuffer buffer) {
        __reset(position, buffer);
        return this;
    }

    public String uri() {
        int o = __offset(4);
        return o != 0 ? __string(o + bb_pos) : null;
    }

    public String title() {
        int o = __offset(6);
        return o != 0 ? __string(o + bb_pos) : null;
    }

    public Integer width() {
        int o = __offset(8);
        return o != 0 ? bb.getInt(o + bb_pos) : null;
    }

    public Integer height() {
        int o = __offset(10);
        return o != 0 ? bb.getInt(o + bb_pos) : null;
    }

    public Image.Size size() {
        int o = __offset(12);
        return o != 0 ? SIZES[bb.get(o + bb_pos)] : null;
    }

    public Image toValue() {
        return new Image(uri(), title(), width(), height(), size());
    }

    /** Builds the table (its strings first, as FlatBuffers requires); optional scalars are written only when set. */
    public static int create(FlatBufferBuilder b, Image image) {
        int uri = b.createString(image.uri);
        int title = image.title == null ? 0 : b.createString(image.title);
        b.startTable(5);
        b.addOffset(0, uri, 0);
        if (title != 0) {
            b.addOffset(1, title, 0);
        }
        if (image.width != null) {
            b.addInt(image.width);
            b.slot(2);
        }
        if (image.height != null) {
            b.addInt(image.height);
            b.slot(3);
        }
        if (image.size != null) {
            b.addByte((byte) image.size.ordinal());
            b.slot(4);
        }
        int table = b.endTable();
        b.required(table, 4);
        return table;
    }
}

package serialization.flatbuffers;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import com.google.flatbuffers.FlatBufferBuilder;
import com.google.flatbuffers.Table;

import serialization.model.Media;

/** schema/media.fbs's table Media, by hand: fields in slots 0..10 (vtable offsets 4, 6, …, 24). */
public final class FbMedia extends Table {
    private static final Media.Player[] PLAYERS = Media.Player.values();

    FbMedia init(int position, ByteBuffer buffer) {
        __reset(position, buffer);
        return this;
    }

    private String string(int slot) {
        int o = __offset(4 + 2 * slot);
        return o != 0 ? __string(o + bb_pos) : null;
    }

    private Integer int32(int slot) {
        int o = __offset(4 + 2 * slot);
        return o != 0 ? bb.getInt(o + bb_pos) : null;
    }

    private Long int64(int slot) {
        int o = __offset(4 + 2 * slot);
        return o != 0 ? bb.getLong(o + bb_pos) : null;
    }

    public String uri() {
        return string(0);
    }

    public Media toValue() {
        int o = __offset(20);
        int count = o != 0 ? __vector_len(o) : 0;
        List<String> persons = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            persons.add(__string(__vector(o) + i * 4));
        }
        int p = __offset(22);
        return new Media(string(0), string(1), int32(2), int32(3), string(4), int64(5), int64(6), int32(7), persons,
                p != 0 ? PLAYERS[bb.get(p + bb_pos)] : null, string(10));
    }

    public static int create(FlatBufferBuilder b, Media m) {
        int uri = b.createString(m.uri);
        int title = m.title == null ? 0 : b.createString(m.title);
        int format = m.format == null ? 0 : b.createString(m.format);
        int copyright = m.copyright == null ? 0 : b.createString(m.copyright);
        int[] names = new int[m.persons.size()];
        for (int i = 0; i < names.length; i++) {
            names[i] = b.createString(m.persons.get(i));
        }
        b.startVector(4, names.length, 4);
        for (int i = names.length - 1; i >= 0; i--) {
            b.addOffset(names[i]);
        }
        int persons = b.endVector();
        b.startTable(11);
        b.addOffset(0, uri, 0);
        if (title != 0) {
            b.addOffset(1, title, 0);
        }
        if (m.width != null) {
            b.addInt(m.width);
            b.slot(2);
        }
        if (m.height != null) {
            b.addInt(m.height);
            b.slot(3);
        }
        if (format != 0) {
            b.addOffset(4, format, 0);
        }
        if (m.duration != null) {
            b.addLong(m.duration);
            b.slot(5);
        }
        if (m.size != null) {
            b.addLong(m.size);
            b.slot(6);
        }
        if (m.bitrate != null) {
            b.addInt(m.bitrate);
            b.slot(7);
        }
        b.addOffset(8, persons, 0);
        if (m.player != null) {
            b.addByte((byte) m.player.ordinal());
            b.slot(9);
        }
        if (copyright != 0) {
            b.addOffset(10, copyright, 0);
        }
        int table = b.endTable();
        b.required(table, 4);
        return table;
    }
}

package serialization.thrift;

import java.util.ArrayList;
import java.util.List;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TList;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/** media.thrift's struct Media, by hand in the shape of Thrift's generated Java (see {@link Image}). */
public final class Media {
    private static final TStruct STRUCT = new TStruct("Media");
    private static final TField URI = new TField("uri", TType.STRING, (short) 1);
    private static final TField TITLE = new TField("title", TType.STRING, (short) 2);
    private static final TField WIDTH = new TField("width", TType.I32, (short) 3);
    private static final TField HEIGHT = new TField("height", TType.I32, (short) 4);
    private static final TField FORMAT = new TField("format", TType.STRING, (short) 5);
    private static final TField DURATION = new TField("duration", TType.I64, (short) 6);
    private static final TField SIZE = new TField("size", TType.I64, (short) 7);
    private static final TField BITRATE = new TField("bitrate", TType.I32, (short) 8);
    private static final TField PERSON = new TField("person", TType.LIST, (short) 9);
    private static final TField PLAYER = new TField("player", TType.I32, (short) 10);
    private static final TField COPYRIGHT = new TField("copyright", TType.STRING, (short) 11);
    private static final int WIDTH_SET = 1;
    private static final int HEIGHT_SET = 2;
    private static final int DURATION_SET = 4;
    private static final int SIZE_SET = 8;
    private static final int BITRATE_SET = 16;

    public String uri;
    public String title;
    public int width;
    public int height;
    public String format;
    public long duration;
    public long size;
    public int bitrate;
    public List<String> person;
    public Player player;
    public String copyright;
    private byte isset;

    public Media() {
    }

    public Media setUri(String uri) {
        this.uri = uri;
        return this;
    }

    public Media setTitle(String title) {
        this.title = title;
        return this;
    }

    public Media setWidth(int width) {
        this.width = width;
        isset |= WIDTH_SET;
        return this;
    }

    public Media setHeight(int height) {
        this.height = height;
        isset |= HEIGHT_SET;
        return this;
    }

    public Media setFormat(String format) {
        this.format = format;
        return this;
    }

    public Media setDuration(long duration) {
        this.duration = duration;
        isset |= DURATION_SET;
        return this;
    }

    public Media setSize(long size) {
        this.size = size;
        isset |= SIZE_SET;
        return this;
    }

    public Media setBitrate(int bitrate) {
        this.bitrate = bitrate;
        isset |= BITRATE_SET;
        return this;
    }

    /** As the generated addToPerson: the list is made on the first add. */
    public Media addToPerson(String name) {
        if (person == null) {
            person = new ArrayList<String>();
        }
        person.add(name);
        return this;
    }

    public Media setPlayer(Player player) {
        this.player = player;
        return this;
    }

    public Media setCopyright(String copyright) {
        this.copyright = copyright;
        return this;
    }

    public boolean isSetWidth() {
        return (isset & WIDTH_SET) != 0;
    }

    public boolean isSetHeight() {
        return (isset & HEIGHT_SET) != 0;
    }

    public boolean isSetDuration() {
        return (isset & DURATION_SET) != 0;
    }

    public boolean isSetSize() {
        return (isset & SIZE_SET) != 0;
    }

    public boolean isSetBitrate() {
        return (isset & BITRATE_SET) != 0;
    }

    public void write(TProtocol out) throws TException {
        out.writeStructBegin(STRUCT);
        if (uri != null) {
            out.writeFieldBegin(URI);
            out.writeString(uri);
            out.writeFieldEnd();
        }
        if (title != null) {
            out.writeFieldBegin(TITLE);
            out.writeString(title);
            out.writeFieldEnd();
        }
        if (isSetWidth()) {
            out.writeFieldBegin(WIDTH);
            out.writeI32(width);
            out.writeFieldEnd();
        }
        if (isSetHeight()) {
            out.writeFieldBegin(HEIGHT);
            out.writeI32(height);
            out.writeFieldEnd();
        }
        if (format != null) {
            out.writeFieldBegin(FORMAT);
            out.writeString(format);
            out.writeFieldEnd();
        }
        if (isSetDuration()) {
            out.writeFieldBegin(DURATION);
            out.writeI64(duration);
            out.writeFieldEnd();
        }
        if (isSetSize()) {
            out.writeFieldBegin(SIZE);
            out.writeI64(size);
            out.writeFieldEnd();
        }
        if (isSetBitrate()) {
            out.writeFieldBegin(BITRATE);
            out.writeI32(bitrate);
            out.writeFieldEnd();
        }
        if (person != null) {
            out.writeFieldBegin(PERSON);
            out.writeListBegin(new TList(TType.STRING, person.size()));
            for (String name : person) {
                out.writeString(name);
            }
            out.writeListEnd();
            out.writeFieldEnd();
        }
        if (player != null) {
            out.writeFieldBegin(PLAYER);
            out.writeI32(player.getValue());
            out.writeFieldEnd();
        }
        if (copyright != null) {
            out.writeFieldBegin(COPYRIGHT);
            out.writeString(copyright);
            out.writeFieldEnd();
        }
        out.writeFieldStop();
        out.writeStructEnd();
    }

    public void read(TProtocol in) throws TException {
        in.readStructBegin();
        while (true) {
            TField field = in.readFieldBegin();
            if (field.type == TType.STOP) {
                break;
            }
            short id = field.id;
            byte type = field.type;
            if (id == 1 && type == TType.STRING) {
                uri = in.readString();
            } else if (id == 2 && type == TType.STRING) {
                title = in.readString();
            } else if (id == 3 && type == TType.I32) {
                setWidth(in.readI32());
            } else if (id == 4 && type == TType.I32) {
                setHeight(in.readI32());
            } else if (id == 5 && type == TType.STRING) {
                format = in.readString();
            } else if (id == 6 && type == TType.I64) {
                setDuration(in.readI64());
            } else if (id == 7 && type == TType.I64) {
                setSize(in.readI64());
            } else if (id == 8 && type == TType.I32) {
                setBitrate(in.readI32());
            } else if (id == 9 && type == TType.LIST) {
                TList list = in.readListBegin();
                person = new ArrayList<String>(list.size);
                for (int i = 0; i < list.size; i++) {
                    person.add(in.readString());
                }
                in.readListEnd();
            } else if (id == 10 && type == TType.I32) {
                player = Player.findByValue(in.readI32());
            } else if (id == 11 && type == TType.STRING) {
                copyright = in.readString();
            } else {
                TProtocolUtil.skip(in, type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
    }
}

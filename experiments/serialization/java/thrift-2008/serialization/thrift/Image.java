package serialization.thrift;

import org.apache.thrift.TException;
import org.apache.thrift.protocol.TField;
import org.apache.thrift.protocol.TProtocol;
import org.apache.thrift.protocol.TProtocolUtil;
import org.apache.thrift.protocol.TStruct;
import org.apache.thrift.protocol.TType;

/**
 * media.thrift's struct Image, written by hand in the shape of Thrift's generated Java: primitive fields
 * with isset bits, object fields unset when null, read/write through TProtocol (see SHARED.md for why
 * nothing is generated).
 */
public final class Image {
    private static final TStruct STRUCT = new TStruct("Image");
    private static final TField URI = new TField("uri", TType.STRING, (short) 1);
    private static final TField TITLE = new TField("title", TType.STRING, (short) 2);
    private static final TField WIDTH = new TField("width", TType.I32, (short) 3);
    private static final TField HEIGHT = new TField("height", TType.I32, (short) 4);
    private static final TField SIZE = new TField("size", TType.I32, (short) 5);
    private static final int WIDTH_SET = 1;
    private static final int HEIGHT_SET = 2;

    public String uri;
    public String title;
    public int width;
    public int height;
    public Size size;
    private byte isset;

    public Image() {
    }

    public Image setUri(String uri) {
        this.uri = uri;
        return this;
    }

    public Image setTitle(String title) {
        this.title = title;
        return this;
    }

    public Image setWidth(int width) {
        this.width = width;
        isset |= WIDTH_SET;
        return this;
    }

    public Image setHeight(int height) {
        this.height = height;
        isset |= HEIGHT_SET;
        return this;
    }

    public Image setSize(Size size) {
        this.size = size;
        return this;
    }

    public boolean isSetWidth() {
        return (isset & WIDTH_SET) != 0;
    }

    public boolean isSetHeight() {
        return (isset & HEIGHT_SET) != 0;
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
        if (size != null) {
            out.writeFieldBegin(SIZE);
            out.writeI32(size.getValue());
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
            switch (field.id) {
                case 1:
                    if (field.type == TType.STRING) {
                        uri = in.readString();
                    } else {
                        TProtocolUtil.skip(in, field.type);
                    }
                    break;
                case 2:
                    if (field.type == TType.STRING) {
                        title = in.readString();
                    } else {
                        TProtocolUtil.skip(in, field.type);
                    }
                    break;
                case 3:
                    if (field.type == TType.I32) {
                        setWidth(in.readI32());
                    } else {
                        TProtocolUtil.skip(in, field.type);
                    }
                    break;
                case 4:
                    if (field.type == TType.I32) {
                        setHeight(in.readI32());
                    } else {
                        TProtocolUtil.skip(in, field.type);
                    }
                    break;
                case 5:
                    if (field.type == TType.I32) {
                        size = Size.findByValue(in.readI32());
                    } else {
                        TProtocolUtil.skip(in, field.type);
                    }
                    break;
                default:
                    TProtocolUtil.skip(in, field.type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
    }
}

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

/** media.thrift's struct MediaContent, by hand in the shape of Thrift's generated Java (see {@link Image}). */
public final class MediaContent {
    private static final TStruct STRUCT = new TStruct("MediaContent");
    private static final TField IMAGE = new TField("image", TType.LIST, (short) 1);
    private static final TField MEDIA = new TField("media", TType.STRUCT, (short) 2);

    public List<Image> image;
    public Media media;

    public MediaContent() {
    }

    /** As the generated addToImage: the list is made on the first add. */
    public MediaContent addToImage(Image item) {
        if (image == null) {
            image = new ArrayList<Image>();
        }
        image.add(item);
        return this;
    }

    public MediaContent setMedia(Media media) {
        this.media = media;
        return this;
    }

    public void write(TProtocol out) throws TException {
        out.writeStructBegin(STRUCT);
        if (image != null) {
            out.writeFieldBegin(IMAGE);
            out.writeListBegin(new TList(TType.STRUCT, image.size()));
            for (Image item : image) {
                item.write(out);
            }
            out.writeListEnd();
            out.writeFieldEnd();
        }
        if (media != null) {
            out.writeFieldBegin(MEDIA);
            media.write(out);
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
            if (field.id == 1 && field.type == TType.LIST) {
                TList list = in.readListBegin();
                image = new ArrayList<Image>(list.size);
                for (int i = 0; i < list.size; i++) {
                    Image item = new Image();
                    item.read(in);
                    image.add(item);
                }
                in.readListEnd();
            } else if (field.id == 2 && field.type == TType.STRUCT) {
                media = new Media();
                media.read(in);
            } else {
                TProtocolUtil.skip(in, field.type);
            }
            in.readFieldEnd();
        }
        in.readStructEnd();
    }
}

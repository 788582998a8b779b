package serialization.bench;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.openjdk.jmh.infra.Blackhole;

import serialization.model.MediaContent;
import serialization.thrift.Image;
import serialization.thrift.Media;
import serialization.thrift.ThriftCodec;

/**
 * Thrift's binary protocol (TBinaryProtocol, as in 2008), with the structs the Thrift compiler
 * generates from schema/media.thrift (java/thrift holds only ThriftCodec).
 */
public class ThriftBinary extends Bench<serialization.thrift.MediaContent> {
    private final ThriftCodec codec;

    public ThriftBinary() {
        this(new TBinaryProtocol.Factory());
    }

    protected ThriftBinary(org.apache.thrift.protocol.TProtocolFactory factory) {
        try {
            codec = new ThriftCodec(factory);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    protected serialization.thrift.MediaContent build(MediaContent value) {
        return ThriftCodec.fromValue(value);
    }

    @Override
    protected byte[] encode(serialization.thrift.MediaContent object) throws Exception {
        return codec.serialize(object);
    }

    @Override
    protected serialization.thrift.MediaContent decode(byte[] bytes) throws Exception {
        return codec.deserialize(bytes);
    }

    @Override
    protected void touch(serialization.thrift.MediaContent content, Blackhole bh) {
        Media m = content.media;
        bh.consume(m.uri);
        bh.consume(m.title);
        bh.consume(m.isSetWidth() ? m.width : -1);
        bh.consume(m.isSetHeight() ? m.height : -1);
        bh.consume(m.format);
        bh.consume(m.isSetDuration() ? m.duration : -1);
        bh.consume(m.isSetSize() ? m.size : -1);
        bh.consume(m.isSetBitrate() ? m.bitrate : -1);
        if (m.person != null) {
            for (String person : m.person) {
                bh.consume(person);
            }
        }
        bh.consume(m.player);
        bh.consume(m.copyright);
        if (content.image != null) {
            for (Image i : content.image) {
                bh.consume(i.uri);
                bh.consume(i.title);
                bh.consume(i.isSetWidth() ? i.width : -1);
                bh.consume(i.isSetHeight() ? i.height : -1);
                bh.consume(i.size);
            }
        }
    }

    @Override
    protected MediaContent toValue(serialization.thrift.MediaContent object) {
        return ThriftCodec.toValue(object);
    }
}

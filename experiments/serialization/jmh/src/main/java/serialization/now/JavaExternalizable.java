package serialization.now;

import org.openjdk.jmh.infra.Blackhole;

import serialization.bench.Bench;
import serialization.ext.ExtMediaContent;
import serialization.model.MediaContent;

/**
 * Java serialization of an Externalizable MediaContent whose fields are written by hand (the quoted
 * post's "296 bytes" against 953): still ObjectOutputStream, but one class descriptor and no field
 * descriptors.
 */
public class JavaExternalizable extends Bench<ExtMediaContent> {
    @Override
    protected ExtMediaContent build(MediaContent value) {
        return ExtMediaContent.fromValue(value);
    }

    @Override
    protected byte[] encode(ExtMediaContent object) throws Exception {
        return JavaSerial.write(object);
    }

    @Override
    protected ExtMediaContent decode(byte[] bytes) throws Exception {
        return (ExtMediaContent) JavaSerial.read(bytes);
    }

    @Override
    protected void touch(ExtMediaContent object, Blackhole blackhole) {
        object.touch(blackhole);
    }

    @Override
    protected MediaContent toValue(ExtMediaContent object) {
        return object.toValue();
    }
}

package serialization.now;

import serialization.model.MediaContent;

/** Java's built-in serialization (java.io.Serializable) of the plain objects; Java.create is the POJO's create. */
public class Java extends Pojo {
    @Override
    protected byte[] encode(MediaContent object) throws Exception {
        return JavaSerial.write(object);
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        return (MediaContent) JavaSerial.read(bytes);
    }
}

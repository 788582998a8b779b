package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;

import org.msgpack.jackson.dataformat.MessagePackFactory;

/** MessagePack with Jackson (msgpack-java's jackson-dataformat-msgpack): the bytes CrossLanguage exchanges with Python's msgpack. */
public class JacksonMsgpack extends Jackson {
    public JacksonMsgpack() {
        super(new ObjectMapper(new MessagePackFactory()));
    }
}

package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;

/** CBOR (RFC 8949) with Jackson: the bytes CrossLanguage exchanges with Python's cbor2. */
public class JacksonCbor extends Jackson {
    public JacksonCbor() {
        super(new ObjectMapper(new CBORFactory()));
    }
}

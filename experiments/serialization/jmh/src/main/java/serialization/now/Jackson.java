package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.ObjectWriter;

import serialization.model.MediaContent;

/** Jackson databind on the plain objects (public fields, enums by name, nulls written), one format per subclass. */
abstract class Jackson extends Pojo {
    private final ObjectReader reader;
    private final ObjectWriter writer;

    Jackson(ObjectMapper mapper) {
        reader = mapper.readerFor(MediaContent.class);
        writer = mapper.writerFor(MediaContent.class);
    }

    @Override
    protected byte[] encode(MediaContent object) throws Exception {
        return writer.writeValueAsBytes(object);
    }

    @Override
    protected MediaContent decode(byte[] bytes) throws Exception {
        return reader.readValue(bytes);
    }
}

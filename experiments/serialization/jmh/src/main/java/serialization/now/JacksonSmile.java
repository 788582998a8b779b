package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.smile.SmileFactory;

/** Smile (Jackson's binary JSON) with its default settings (shared property names). */
public class JacksonSmile extends Jackson {
    public JacksonSmile() {
        super(new ObjectMapper(new SmileFactory()));
    }
}

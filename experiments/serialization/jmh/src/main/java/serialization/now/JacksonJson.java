package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;

/** JSON (UTF-8) with Jackson. */
public class JacksonJson extends Jackson {
    public JacksonJson() {
        super(new ObjectMapper());
    }
}

package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.blackbird.BlackbirdModule;

/** JSON with Jackson and its Blackbird module (accessors through LambdaMetafactory instead of reflection). */
public class JacksonBlackbird extends Jackson {
    public JacksonBlackbird() {
        super(new ObjectMapper().registerModule(new BlackbirdModule()));
    }
}

package serialization.now;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.module.afterburner.AfterburnerModule;

/** JSON with Jackson and its Afterburner module (generated accessor bytecode; Blackbird's predecessor). */
public class JacksonAfterburner extends Jackson {
    public JacksonAfterburner() {
        super(new ObjectMapper().registerModule(new AfterburnerModule()));
    }
}

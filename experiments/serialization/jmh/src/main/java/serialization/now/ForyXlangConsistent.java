package serialization.now;

import org.apache.fory.config.CompatibleMode;

/**
 * Apache Fory's xlang mode, schema-consistent: no field metadata in a message, only a 32-bit hash of each struct's
 * fields (names, types, nullability) that the reader checks against its own. pyfory's
 * {@code pyfory_xlang_consistent} is the Python side; it must declare the nested struct field {@code media} with
 * {@code dynamic=False} (pyfory otherwise writes its type before it, which Java does not expect).
 */
public class ForyXlangConsistent extends ForyXlang {
    public ForyXlangConsistent() {
        super(CompatibleMode.SCHEMA_CONSISTENT);
    }
}

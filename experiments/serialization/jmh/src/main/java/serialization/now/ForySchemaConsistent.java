package serialization.now;

import org.apache.fory.config.CompatibleMode;

/**
 * Apache Fory in schema-consistent mode: writer and reader must have the same classes, so no field metadata
 * goes into a message (jvm-serializers' "fury" row measured this mode: 257 bytes).
 */
public class ForySchemaConsistent extends ForyCompatible {
    public ForySchemaConsistent() {
        super(CompatibleMode.SCHEMA_CONSISTENT);
    }
}

package serialization.bench;

import org.apache.thrift.protocol.TCompactProtocol;

/** Thrift's compact protocol (TCompactProtocol: varints and field-id deltas), the same structs. */
public class ThriftCompact extends ThriftBinary {
    public ThriftCompact() {
        super(new TCompactProtocol.Factory());
    }
}

package serialization;

import java.util.Arrays;
import java.util.List;

import serialization.bench.Bench;

/** Every serializer of the 2008 jar, for serialization.bench.Verify. */
public final class Catalog {
    private Catalog() {
    }

    public static List<Bench<?>> all() {
        return Arrays.asList(new serialization.bench.Protobuf(), new serialization.bench.ProtobufCodeSize(),
                new serialization.bench.ThriftBinary(), new serialization.bench.ThriftCompact());
    }
}

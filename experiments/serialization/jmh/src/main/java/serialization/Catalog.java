package serialization;

import java.util.Arrays;
import java.util.List;

import serialization.bench.Bench;

/** Every serializer of this jar, for serialization.bench.Verify. */
public final class Catalog {
    private Catalog() {
    }

    public static List<Bench<?>> all() {
        return Arrays.asList(new serialization.bench.Protobuf(), new serialization.bench.ProtobufCodeSize(),
                new serialization.bench.ThriftBinary(), new serialization.bench.ThriftCompact(),
                new serialization.now.Java(), new serialization.now.JavaExternalizable(), new serialization.now.Scala(),
                new serialization.now.StaxJdk(), new serialization.now.StaxWoodstox(), new serialization.now.StaxAalto(),
                new serialization.now.JacksonJson(), new serialization.now.JacksonSmile(), new serialization.now.JacksonCbor(),
                new serialization.now.JacksonMsgpack(), new serialization.now.JacksonBlackbird(),
                new serialization.now.JacksonAfterburner(), new serialization.now.Gson(), new serialization.now.Fastjson2(),
                new serialization.now.DslJson(), new serialization.now.MsgpackCore(), new serialization.now.Protostuff(),
                new serialization.now.Kryo(), new serialization.now.KryoUnregistered(), new serialization.now.ForyCompatible(),
                new serialization.now.ForySchemaConsistent(), new serialization.now.ForyXlang(),
                new serialization.now.ForyXlangConsistent(), new serialization.now.Avro(), new serialization.now.FlatBuffers());
    }
}

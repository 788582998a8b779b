package serialization;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;

import org.msgpack.jackson.dataformat.MessagePackFactory;

import serialization.bench.Bench;
import serialization.model.Diff;
import serialization.model.MediaContent;
import serialization.model.Values;
import serialization.protobuf.MediaProtos;
import serialization.protobuf.ProtobufValues;
import serialization.thrift.ThriftCodec;

/**
 * The JVM end of the cross-language test: bytes made here must decode in Python to the equal value, and
 * bytes made in Python must decode here.
 *
 * <pre>
 * java -cp target/benchmarks.jar serialization.CrossLanguage encode FORMAT VALUE_JSON OUT_FILE [VALUE_JSON OUT_FILE ...]
 * java -cp target/benchmarks.jar serialization.CrossLanguage decode FORMAT VALUE_JSON IN_FILE [VALUE_JSON IN_FILE ...]
 * </pre>
 *
 * FORMAT: protobuf (schema/media.proto), thrift-binary, thrift-compact (schema/media.thrift), msgpack, cbor
 * (a map per object with the field names of the JSON files, every key present, null as nil/null, enums
 * by name), avro (schema/media.avsc, binary encoding, no header), flatbuffers (schema/media.fbs; builders
 * lay a buffer out in their own order, so only decoding is compared across languages), fory-xlang and
 * fory-xlang-consistent (Apache Fory's cross-language format, compatible and schema-consistent: the structs of
 * {@link serialization.now.ForyXlang}, registered by name in the namespace versus.serialization).
 *
 * <p>decode exits 0 if every file's bytes decode to a value equal to its VALUE_JSON's, 1 with the first differing
 * field of each file that differs on stderr otherwise, 2 on a usage error or undecodable bytes.
 */
public final class CrossLanguage {
    static final List<String> FORMATS = Arrays.asList("protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor",
            "avro", "flatbuffers", "fory-xlang", "fory-xlang-consistent");

    private CrossLanguage() {
    }

    public static void main(String[] args) {
        if (args.length < 4 || args.length % 2 != 0 || !(args[0].equals("encode") || args[0].equals("decode"))
                || !FORMATS.contains(args[1])) {
            System.err.println("usage: CrossLanguage encode|decode FORMAT VALUE_JSON FILE [VALUE_JSON FILE ...]   (FORMAT: "
                    + String.join(", ", FORMATS) + ")");
            System.exit(2);
        }
        String format = args[1];
        boolean differs = false;
        // Several pairs share one JVM start (and one serializer: Fory generates its code once), which is most of a call.
        for (int i = 2; i < args.length; i += 2) {
            Path file = Paths.get(args[i + 1]);
            try {
                MediaContent value = Values.load(Paths.get(args[i]));
                if (args[0].equals("encode")) {
                    Files.write(file, encode(format, value));
                    continue;
                }
                MediaContent decoded = decode(format, Files.readAllBytes(file));
                String difference = Diff.first(value, decoded);
                if (difference != null) {
                    System.err.println(format + " bytes of " + file + " decode to a different value: " + difference);
                    differs = true;
                }
            } catch (Exception e) {
                System.err.println("CrossLanguage " + args[0] + " " + format + " " + file + ": " + e);
                System.exit(2);
            }
        }
        if (differs) {
            System.exit(1);
        }
    }

    private static final Map<String, Bench<?>> SERIALIZERS = new HashMap<>();

    /** The experiment's serializer of a format that has one, made once per process. */
    private static Bench<?> serializer(String format) {
        return SERIALIZERS.computeIfAbsent(format, f -> {
            switch (f) {
                case "avro": return new serialization.now.Avro();
                case "flatbuffers": return new serialization.now.FlatBuffers();
                case "fory-xlang": return new serialization.now.ForyXlang();
                case "fory-xlang-consistent": return new serialization.now.ForyXlangConsistent();
                default: throw new IllegalArgumentException(f);
            }
        });
    }

    static byte[] encode(String format, MediaContent value) throws Exception {
        switch (format) {
            case "protobuf": return ProtobufValues.fromValue(value).toByteArray();
            case "thrift-binary": return new ThriftCodec(new TBinaryProtocol.Factory()).serialize(ThriftCodec.fromValue(value));
            case "thrift-compact": return new ThriftCodec(new TCompactProtocol.Factory()).serialize(ThriftCodec.fromValue(value));
            case "msgpack": return new ObjectMapper(new MessagePackFactory()).writeValueAsBytes(value);
            case "cbor": return new ObjectMapper(new CBORFactory()).writeValueAsBytes(value);
            case "avro": case "flatbuffers": case "fory-xlang": case "fory-xlang-consistent":
                return serializer(format).bytesOf(value);
            default: throw new IllegalArgumentException(format);
        }
    }

    static MediaContent decode(String format, byte[] bytes) throws Exception {
        switch (format) {
            case "protobuf": return ProtobufValues.toValue(MediaProtos.MediaContent.parseFrom(bytes));
            case "thrift-binary": return ThriftCodec.toValue(new ThriftCodec(new TBinaryProtocol.Factory()).deserialize(bytes));
            case "thrift-compact": return ThriftCodec.toValue(new ThriftCodec(new TCompactProtocol.Factory()).deserialize(bytes));
            case "msgpack": return strict(new ObjectMapper(new MessagePackFactory())).readValue(bytes, MediaContent.class);
            case "cbor": return strict(new ObjectMapper(new CBORFactory())).readValue(bytes, MediaContent.class);
            case "avro": case "flatbuffers": case "fory-xlang": case "fory-xlang-consistent":
                return serializer(format).valueOf(bytes);
            default: throw new IllegalArgumentException(format);
        }
    }

    /** Unknown keys are an error, so bytes with extra fields do not pass as equal. */
    private static ObjectMapper strict(ObjectMapper mapper) {
        return mapper.enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}

package serialization;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;

import org.apache.thrift.protocol.TBinaryProtocol;
import org.apache.thrift.protocol.TCompactProtocol;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.cbor.CBORFactory;

import org.msgpack.jackson.dataformat.MessagePackFactory;

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
 * java -cp target/benchmarks.jar serialization.CrossLanguage encode FORMAT VALUE_JSON OUT_FILE
 * java -cp target/benchmarks.jar serialization.CrossLanguage decode FORMAT VALUE_JSON IN_FILE
 * </pre>
 *
 * FORMAT: protobuf (schema/media.proto), thrift-binary, thrift-compact (schema/media.thrift), msgpack, cbor
 * (a map per object with the field names of the JSON files, every key present, null as nil/null, enums
 * by name), avro (schema/media.avsc, binary encoding, no header), flatbuffers (schema/media.fbs; builders
 * lay a buffer out in their own order, so only decoding is compared across languages). decode exits 0 if the bytes decode to a value equal to VALUE_JSON's, 1 with the first
 * differing field on stderr otherwise, 2 on a usage error or undecodable bytes.
 */
public final class CrossLanguage {
    static final List<String> FORMATS = Arrays.asList("protobuf", "thrift-binary", "thrift-compact", "msgpack", "cbor",
            "avro", "flatbuffers");

    private CrossLanguage() {
    }

    public static void main(String[] args) {
        if (args.length != 4 || !(args[0].equals("encode") || args[0].equals("decode")) || !FORMATS.contains(args[1])) {
            System.err.println("usage: CrossLanguage encode|decode FORMAT VALUE_JSON FILE   (FORMAT: " + String.join(", ", FORMATS) + ")");
            System.exit(2);
        }
        String format = args[1];
        Path file = Paths.get(args[3]);
        try {
            MediaContent value = Values.load(Paths.get(args[2]));
            if (args[0].equals("encode")) {
                Files.write(file, encode(format, value));
                return;
            }
            MediaContent decoded = decode(format, Files.readAllBytes(file));
            String difference = Diff.first(value, decoded);
            if (difference != null) {
                System.err.println(format + " bytes of " + file + " decode to a different value: " + difference);
                System.exit(1);
            }
        } catch (Exception e) {
            System.err.println("CrossLanguage " + args[0] + " " + format + ": " + e);
            System.exit(2);
        }
    }

    static byte[] encode(String format, MediaContent value) throws Exception {
        switch (format) {
            case "protobuf": return ProtobufValues.fromValue(value).toByteArray();
            case "thrift-binary": return new ThriftCodec(new TBinaryProtocol.Factory()).serialize(ThriftCodec.fromValue(value));
            case "thrift-compact": return new ThriftCodec(new TCompactProtocol.Factory()).serialize(ThriftCodec.fromValue(value));
            case "msgpack": return new ObjectMapper(new MessagePackFactory()).writeValueAsBytes(value);
            case "cbor": return new ObjectMapper(new CBORFactory()).writeValueAsBytes(value);
            case "avro": return new serialization.now.Avro().bytesOf(value);
            case "flatbuffers": return new serialization.now.FlatBuffers().bytesOf(value);
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
            case "avro": return new serialization.now.Avro().valueOf(bytes);
            case "flatbuffers": return new serialization.now.FlatBuffers().valueOf(bytes);
            default: throw new IllegalArgumentException(format);
        }
    }

    /** Unknown keys are an error, so bytes with extra fields do not pass as equal. */
    private static ObjectMapper strict(ObjectMapper mapper) {
        return mapper.enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    }
}
